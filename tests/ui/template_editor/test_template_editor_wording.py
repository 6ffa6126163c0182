"""Wording in the editor: trailing spaces visible, the "Applied" notice goes on the next edit,
preview reasons in plain words."""

from __future__ import annotations

from desktop_agent.ui.template_editor import TemplateEditorWindow
from desktop_agent.ui.template_editor._preview_pane import plain_reason


def _text_row(editor: TemplateEditorWindow) -> int:
    for i, row in enumerate(editor.form.segments.rows):
        if row.text_editor is not None:
            return i
    raise AssertionError("no text segment")


def test_trailing_spaces_of_a_text_segment_are_shaded(editor: TemplateEditorWindow) -> None:
    row = editor.form.segments.rows[_text_row(editor)]
    assert row.text_editor is not None
    row.text_editor.setPlainText("Hello   ")
    block = row.text_editor.document().firstBlock()
    shaded = [r for r in block.layout().formats() if r.format.background().style() != 0]
    assert [(r.start, r.length) for r in shaded] == [(5, 3)]
    row.text_editor.setPlainText("Hello")
    block = row.text_editor.document().firstBlock()
    assert not [r for r in block.layout().formats() if r.format.background().style() != 0]


def test_the_applied_notice_clears_on_the_next_edit(editor: TemplateEditorWindow) -> None:
    editor.form.name.setText("identity")
    assert editor.apply()
    notice = editor.chrome.notice
    assert not notice.isHidden() and notice.label.text().startswith("Applied:")
    editor.form.name.setText("identity2")
    assert notice.isHidden()


def test_preview_reasons_in_plain_words() -> None:
    assert plain_reason("always", True) == "included: always"
    assert plain_reason("is_relevant_func returned False", False) == (
        "left out: no words in common with your message"
    )
    assert plain_reason("has_content returned False", False) == (
        "left out: its variables are empty"
    )
    assert plain_reason("my_check returned True", True) == "included: my_check said yes"
    assert plain_reason("importance_func=false", False).startswith("left out: switched off")


def test_error_texts_end_with_a_full_stop(qtbot: object) -> None:
    from desktop_agent.ui._plain import sentence

    assert sentence("Could not save the template: disk full") == (
        "Could not save the template: disk full."
    )
    assert sentence("Try again later.") == "Try again later."
    assert sentence("") == ""


def test_a_failed_export_says_so_in_a_sentence(
    editor: TemplateEditorWindow, tmp_path: object
) -> None:
    from pathlib import Path

    target = Path(str(tmp_path)) / "missing-folder" / "x.json"
    assert not editor.export_file(target)
    text = editor.chrome.notice.label.text()
    assert text.startswith("Could not export to") and text.endswith(".")
