"""A template file nested thousands deep is refused with a readable notice, not a crash."""

from __future__ import annotations

from pathlib import Path

from _template_helpers import type_json

from desktop_agent.ui.template_editor import TemplateEditorWindow


def test_importing_json_nested_thousands_deep_says_why(
    editor: TemplateEditorWindow, tmp_path: Path
) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"context_template": ' + "[" * 100_000 + "]" * 100_000 + "}", "utf-8")
    before = editor.document.to_data()
    assert not editor.import_file(path)
    assert editor.document.to_data() == before
    notice = editor.chrome.notice
    assert notice.property("error") is True
    assert "Nothing imported" in notice.label.text()
    assert "nests too deeply" in notice.label.text()


def test_typing_json_nested_thousands_deep_marks_a_fault(editor: TemplateEditorWindow) -> None:
    before = editor.document.to_data()
    type_json(editor, '{"context_template": ' + "[" * 100_000 + "]" * 100_000 + "}")
    [fault] = editor.json_tab.pending_faults
    assert "nests too deeply" in fault.message
    assert editor.document.to_data() == before
