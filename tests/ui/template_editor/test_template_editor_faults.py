"""Invalid drafts: each fault is shown where it is, and Apply is blocked until fixed."""

from __future__ import annotations

from _template_helpers import json_view, type_json
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.context import InputModule
from desktop_agent.ui.template_editor import TemplateEditorWindow


def line_of(editor: TemplateEditorWindow, needle: str, occurrence: int = 0) -> int:
    lines = editor.json_tab.editor.toPlainText().splitlines()
    found = [number for number, line in enumerate(lines, 1) if needle in line]
    return found[occurrence]


def test_duplicate_module_name_is_shown_at_the_name_and_blocks_apply(
    qtbot: QtBot, editor: TemplateEditorWindow, input_module: InputModule
) -> None:
    editor.select_module(2)
    editor.form.name.clear()
    qtbot.keyClicks(editor.form.name, "persona")

    assert not editor.chrome.apply.isEnabled()
    assert editor.form.name.property("fault") is True
    assert editor.form.faults["module_name"].isVisible() or not editor.isVisible()
    assert "duplicate module_name 'persona'" in editor.form.faults["module_name"].text()
    assert editor.list_model.index(2).data(Qt.ItemDataRole.DecorationRole) is not None
    assert "duplicate" in editor.list_model.index(2).data(Qt.ItemDataRole.ToolTipRole)
    assert editor.list_model.index(0).data(Qt.ItemDataRole.DecorationRole) is None
    assert editor.json_tab.marked_lines() == [line_of(editor, '"module_name": "persona"', 1)]
    assert "module 3 “persona” › module_name" in editor.chrome.problems.text()

    assert not editor.apply()
    assert input_module.config.context_template[2].module_name == "current_datetime"

    qtbot.keyClicks(editor.form.name, "_2")
    assert editor.chrome.apply.isEnabled()
    assert editor.form.name.property("fault") is False
    assert editor.json_tab.marked_lines() == []


def test_empty_name_is_a_fault_of_the_name_field(editor: TemplateEditorWindow) -> None:
    editor.form.name.clear()
    assert editor.form.name.property("fault") is True
    assert "at least 1 character" in editor.form.faults["module_name"].text()
    assert not editor.can_apply


def test_unknown_variable_from_json_is_flagged_not_dropped(editor: TemplateEditorWindow) -> None:
    data = json_view(editor)
    data["context_template"][0]["segments"][1]["value"] = "mood"
    type_json(editor, data)

    assert editor.document.modules[0].segments[1].value == "mood"
    row = editor.form.segments.rows[1]
    assert row.picker is not None
    assert row.picker.currentText() == "⚠ mood (unknown)"
    assert row.picker.current_name() == "mood"
    assert row.picker.property("fault") is True
    assert "unknown variable 'mood'" in row.fault.text()
    assert "weather" in row.fault.text()  # the message lists the known names
    assert row.description.isHidden()  # no description; the fault says why
    assert editor.json_tab.marked_lines() == [line_of(editor, '"value": "mood"')]
    assert not editor.chrome.apply.isEnabled()

    row.picker.setCurrentIndex(row.picker.findData("weather"))
    assert editor.can_apply
    assert editor.form.segments.rows[1].picker.findData("mood") == -1  # type: ignore[union-attr]


def test_unknown_importance_function_is_flagged(editor: TemplateEditorWindow) -> None:
    data = json_view(editor)
    data["context_template"][1]["importance_func"] = "is_monday"
    type_json(editor, data)
    editor.select_module(1)
    assert editor.form.importance.currentText() == "⚠ is_monday (unknown function)"
    assert editor.form.importance.property("fault") is True
    assert "unknown importance function 'is_monday'" in editor.form.faults["importance_func"].text()
    assert not editor.can_apply


def test_broken_json_is_marked_at_its_line_and_changes_nothing(
    editor: TemplateEditorWindow,
) -> None:
    before = editor.document.to_data()
    text = editor.json_tab.editor.toPlainText()
    broken = text.replace('"role": "user"', '"role": "user",', 1)  # trailing comma
    type_json(editor, broken)

    assert editor.document.to_data() == before
    [fault] = editor.json_tab.pending_faults
    assert fault.path == "(json)"
    assert fault.message.startswith("invalid JSON at line ")
    assert editor.json_tab.marked_lines() == [fault.line]
    assert editor.json_tab.fault_list.item(0).text().startswith(f"line {fault.line}:")
    assert "not applied" in editor.json_tab.status.text()
    assert not editor.chrome.apply.isEnabled()
    assert not editor.apply()
    assert "JSON tab" in editor.chrome.problems.text()

    type_json(editor, text.replace('"role": "user"', '"role": "system"', 1))
    assert editor.json_tab.pending_faults == []
    assert editor.document.modules[-1].role == "system"
    assert editor.can_apply


def test_structural_json_fault_is_marked_at_the_offending_key(editor: TemplateEditorWindow) -> None:
    before = editor.document.to_data()
    text = editor.json_tab.editor.toPlainText().replace('"type": "variable"', '"type": "var"', 1)
    type_json(editor, text)

    [fault] = editor.json_tab.pending_faults
    assert fault.path == "context_template[0].segments[1].type"
    assert fault.line == line_of(editor, '"type": "var"')
    assert editor.json_tab.marked_lines() == [fault.line]
    assert editor.document.to_data() == before
    assert editor.form.segments.rows[1].picker is not None  # the form shows the last valid draft
    assert not editor.chrome.apply.isEnabled()


def test_a_module_without_segments_is_a_fault_of_its_segments(
    editor: TemplateEditorWindow,
) -> None:
    editor.select_module(1)  # "instructions" has one segment
    editor.form.segments.rows[0].remove_requested.emit(0)
    assert editor.form.segments.rows == []
    assert "at least 1 item" in editor.form.segments.fault.text()
    assert not editor.can_apply
    editor.form.segments.add_text.click()
    assert editor.can_apply


def test_deleting_every_module_is_a_fault_of_the_template(editor: TemplateEditorWindow) -> None:
    for _ in range(7):
        editor.module_list.buttons["delete"].click()
    assert editor.document.modules == []
    assert "context_template" in editor.chrome.problems.text()
    assert not editor.can_apply
    assert not editor.form.isHidden()
