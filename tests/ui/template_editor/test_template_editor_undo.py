"""Undo and redo: every kind of edit is one step back and forth, from buttons or keys."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from _template_helpers import json_view, names, type_json
from PySide6.QtCore import QModelIndex, Qt
from pytestqt.qtbot import QtBot

from desktop_agent.ui.template_editor import TemplateEditorWindow

Gesture = Callable[[TemplateEditorWindow], None]


def rename(editor: TemplateEditorWindow) -> None:
    editor.form.name.setText("identity")


def choose_role(editor: TemplateEditorWindow) -> None:
    editor.form.role.setCurrentIndex(editor.form.role.findData("user"))


def choose_importance(editor: TemplateEditorWindow) -> None:
    picker = editor.form.importance
    picker.setCurrentIndex(picker.findData("function:has_content"))


def untick(editor: TemplateEditorWindow) -> None:
    index = editor.list_model.index(0)
    editor.list_model.setData(index, Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)


def edit_note(editor: TemplateEditorWindow) -> None:
    editor.form.description.setText("Mine.")


def edit_text_segment(editor: TemplateEditorWindow) -> None:
    row = editor.form.segments.rows[0]
    assert row.text_editor is not None
    row.text_editor.setPlainText("Thou art ")


def choose_variable(editor: TemplateEditorWindow) -> None:
    picker = editor.form.segments.rows[1].picker
    assert picker is not None
    picker.setCurrentIndex(picker.findData("weather"))


def add_segment(editor: TemplateEditorWindow) -> None:
    editor.form.segments.add_variable.click()


def remove_segment(editor: TemplateEditorWindow) -> None:
    editor.form.segments.rows[2].remove_requested.emit(2)


def move_segment(editor: TemplateEditorWindow) -> None:
    editor.form.segments.rows[0].move_requested.emit(0, 1)


def add_module(editor: TemplateEditorWindow) -> None:
    editor.module_list.buttons["add"].click()


def duplicate_module(editor: TemplateEditorWindow) -> None:
    editor.module_list.buttons["duplicate"].click()


def delete_module(editor: TemplateEditorWindow) -> None:
    editor.module_list.buttons["delete"].click()


def reorder(editor: TemplateEditorWindow) -> None:
    editor.list_model.moveRows(QModelIndex(), 0, 1, QModelIndex(), 7)


def edit_json(editor: TemplateEditorWindow) -> None:
    data = json_view(editor)
    data["context_template"].reverse()
    type_json(editor, data)


GESTURES: list[Gesture] = [
    rename,
    choose_role,
    choose_importance,
    untick,
    edit_note,
    edit_text_segment,
    choose_variable,
    add_segment,
    remove_segment,
    move_segment,
    add_module,
    duplicate_module,
    delete_module,
    reorder,
    edit_json,
]


@pytest.mark.parametrize("gesture", GESTURES, ids=lambda g: g.__name__)
def test_each_edit_undoes_and_redoes(editor: TemplateEditorWindow, gesture: Gesture) -> None:
    before = editor.document.to_data()
    gesture(editor)
    after = editor.document.to_data()
    assert after != before
    assert editor.undo_stack.count() == 1
    assert editor.chrome.undo.isEnabled()

    editor.chrome.undo.click()
    assert editor.document.to_data() == before
    assert json_view(editor) == before
    assert not editor.is_dirty
    assert editor.chrome.redo.isEnabled()

    editor.chrome.redo.click()
    assert editor.document.to_data() == after
    assert json_view(editor) == after


def test_a_run_of_typing_is_one_undo_step(qtbot: QtBot, editor: TemplateEditorWindow) -> None:
    editor.form.name.clear()
    qtbot.keyClicks(editor.form.name, "identity")
    row = editor.form.segments.rows[0]
    assert row.text_editor is not None
    qtbot.keyClicks(row.text_editor, "Hello, ")
    assert editor.undo_stack.count() == 2  # the name, then the text
    assert (
        "Rename module" in editor.chrome.undo.toolTip()
        or editor.undo_stack.undoText() == "Edit text"
    )

    editor.undo()
    assert editor.document.modules[0].segments[0].value == "You are "
    assert row.text_editor.toPlainText() == "You are "
    editor.undo()
    assert editor.document.modules[0].module_name == "persona"
    assert editor.form.name.text() == "persona"


def test_ctrl_z_in_a_text_field_undoes_the_editors_history(
    qtbot: QtBot, editor: TemplateEditorWindow
) -> None:
    with qtbot.waitActive(editor):
        editor.show()
        editor.activateWindow()
    editor.form.role.setCurrentIndex(editor.form.role.findData("user"))  # an earlier edit
    editor.form.name.setFocus()
    qtbot.keyClicks(editor.form.name, "_x")
    assert editor.document.modules[0].module_name == "persona_x"

    qtbot.keyClick(editor.form.name, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert editor.document.modules[0].module_name == "persona"
    qtbot.keyClick(editor.form.name, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert editor.document.modules[0].role == "system"  # not the line edit's own undo

    shift_ctrl = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(editor.form.name, Qt.Key.Key_Z, shift_ctrl)
    qtbot.keyClick(editor.form.name, Qt.Key.Key_Z, shift_ctrl)
    assert editor.document.modules[0].role == "user"
    assert editor.document.modules[0].module_name == "persona_x"


def test_ctrl_z_in_the_module_list_undoes_a_reorder(
    qtbot: QtBot, editor: TemplateEditorWindow
) -> None:
    with qtbot.waitActive(editor):
        editor.show()
        editor.activateWindow()
    editor.module_list.view.setFocus()
    reorder(editor)
    assert names(editor)[-1] == "persona"
    qtbot.keyClick(editor.module_list.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert names(editor)[0] == "persona"


def test_undo_drops_invalid_json_typing_first(editor: TemplateEditorWindow) -> None:
    choose_role(editor)
    editor.json_tab.editor.setPlainText("{ not json")
    editor.json_tab.commit_now()
    assert editor.json_tab.pending_faults

    editor.undo()  # first: back to the text of the draft
    assert editor.json_tab.pending_faults == []
    assert json_view(editor)["context_template"][0]["role"] == "user"
    editor.undo()  # then the role
    assert json_view(editor)["context_template"][0]["role"] == "system"


def test_uncommitted_valid_json_typing_is_committed_then_undone(
    editor: TemplateEditorWindow,
) -> None:
    text = editor.json_tab.editor.toPlainText().replace('"persona"', '"me"', 1)
    editor.json_tab.editor.setPlainText(text)  # the check is still pending
    assert editor.json_tab.has_uncommitted
    editor.undo()
    assert names(editor)[0] == "persona"
    editor.redo()
    assert names(editor)[0] == "me"


def test_revert_and_reset_are_undoable(editor: TemplateEditorWindow) -> None:
    rename(editor)
    delete_module(editor)
    editor.chrome.revert.click()
    assert editor.document.to_data() == json_view(editor)
    assert not editor.is_dirty
    assert not editor.chrome.revert.isEnabled()
    editor.undo()
    assert names(editor)[0] == "instructions"  # "identity" was deleted, then reverted

    editor.reset_to_default()
    assert names(editor)[0] == "persona"
    editor.undo()
    assert names(editor)[0] == "instructions"


def test_undo_of_an_edit_elsewhere_selects_that_module(editor: TemplateEditorWindow) -> None:
    editor.select_module(4)
    choose_role(editor)
    editor.select_module(0)
    editor.undo()
    assert editor.module_list.current_row() == 4
    assert editor.form.role.currentData() == "system"


def test_typing_back_to_the_start_leaves_nothing_to_undo(
    qtbot: QtBot, editor: TemplateEditorWindow
) -> None:
    qtbot.keyClicks(editor.form.name, "_x")
    assert editor.undo_stack.count() == 1
    qtbot.keyClick(editor.form.name, Qt.Key.Key_Backspace)
    qtbot.keyClick(editor.form.name, Qt.Key.Key_Backspace)
    assert editor.document.modules[0].module_name == "persona"
    assert editor.undo_stack.count() == 0
    assert not editor.chrome.undo.isEnabled()
