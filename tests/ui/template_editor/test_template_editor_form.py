"""Editing with the form and the JSON tab: both views and the draft stay in step."""

from __future__ import annotations

import pytest
from _template_helpers import json_view, module_index, names, type_json
from PySide6.QtCore import QModelIndex, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop_agent.context import InputModule
from desktop_agent.ui.template_editor import TemplateEditorWindow

DEFAULT_ORDER = [
    "persona",
    "instructions",
    "current_datetime",
    "long_term_memory",
    "knowledge",
    "chat_history",
    "user_input",
]


def test_opens_on_the_sessions_template(editor: TemplateEditorWindow) -> None:
    assert names(editor) == DEFAULT_ORDER
    assert editor.form.name.text() == "persona"
    assert json_view(editor) == editor.document.to_data()
    assert not editor.is_dirty
    assert not editor.chrome.apply.isEnabled()
    assert editor.chrome.problems.text() == "No problems."


def test_typing_a_name_renames_the_module_everywhere(
    qtbot: QtBot, editor: TemplateEditorWindow
) -> None:
    editor.form.name.clear()
    qtbot.keyClicks(editor.form.name, "identity")
    assert editor.document.modules[0].module_name == "identity"
    assert json_view(editor)["context_template"][0]["module_name"] == "identity"
    assert names(editor)[0] == "identity"
    assert editor.chrome.apply.isEnabled()


def test_choosing_a_role(editor: TemplateEditorWindow) -> None:
    editor.form.role.setCurrentIndex(editor.form.role.findData("assistant"))
    assert editor.document.modules[0].role == "assistant"
    assert json_view(editor)["context_template"][0]["role"] == "assistant"
    assert "assistant · always" in str(editor.list_model.index(0).data())


def test_choosing_the_importance_function(editor: TemplateEditorWindow) -> None:
    picker = editor.form.importance
    labels = [picker.itemText(i) for i in range(picker.count())]
    assert labels[:2] == ["Always (true)", "Never (false) — module disabled"]
    assert "When has_content" in labels and "When is_relevant_func" in labels

    picker.setCurrentIndex(picker.findData("function:is_relevant_func"))
    assert editor.document.modules[0].importance_func == "is_relevant_func"
    assert json_view(editor)["context_template"][0]["importance_func"] == "is_relevant_func"
    assert "shares a meaningful word" in editor.form.importance_caption.text()

    picker.setCurrentIndex(picker.findData("false"))
    assert json_view(editor)["context_template"][0]["importance_func"] is False
    index = editor.list_model.index(0)
    assert index.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked


def test_the_check_box_enables_and_disables_a_module(editor: TemplateEditorWindow) -> None:
    index = editor.list_model.index(2)
    editor.list_model.setData(index, Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    assert editor.document.modules[2].importance_func is False
    assert "system · disabled" in str(index.data())
    editor.list_model.setData(index, Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert editor.document.modules[2].importance_func is True


def test_editing_a_text_segment(editor: TemplateEditorWindow) -> None:
    row = editor.form.segments.rows[2]
    assert row.text_editor is not None
    row.text_editor.setPlainText(", a pirate. Speak like one.")
    assert editor.document.modules[0].segments[2].value == ", a pirate. Speak like one."
    segment = json_view(editor)["context_template"][0]["segments"][2]
    assert segment == {"type": "text", "value": ", a pirate. Speak like one."}


def test_variable_picker_lists_builtins_and_registered_variables_with_descriptions(
    editor: TemplateEditorWindow,
) -> None:
    row = editor.form.segments.rows[1]
    picker = row.picker
    assert picker is not None
    listed = {
        picker.itemData(i): picker.itemData(i, Qt.ItemDataRole.ToolTipRole)
        for i in range(picker.count())
    }
    assert listed["weather"] == "Today's weather report."
    assert {"current_user_input", "chat_history", "agent_name", "knowledge"} <= set(listed)
    assert (
        row.description.text() == 'The agent\'s name (passed by the agent; "Assistant" otherwise).'
    )

    picker.setCurrentIndex(picker.findData("weather"))
    assert editor.document.modules[0].segments[1].value == "weather"
    assert json_view(editor)["context_template"][0]["segments"][1]["value"] == "weather"
    assert editor.form.segments.rows[1].description.text() == "Today's weather report."


def test_adding_moving_and_removing_segments(editor: TemplateEditorWindow) -> None:
    segments = editor.form.segments
    segments.add_variable.click()
    assert [s.type for s in editor.document.modules[0].segments] == [
        "text",
        "variable",
        "text",
        "variable",
    ]
    assert len(segments.rows) == 4
    segments.rows[3].move_requested.emit(3, -1)
    assert [s.type for s in editor.document.modules[0].segments][2:] == ["variable", "text"]
    segments.rows[0].remove_requested.emit(0)
    values = [s["value"] for s in json_view(editor)["context_template"][0]["segments"]]
    assert values[0] == "agent_name" and len(values) == 3
    segments.add_text.click()
    assert editor.document.modules[0].segments[-1].type == "text"


def test_module_buttons_add_duplicate_delete(qtbot: QtBot, editor: TemplateEditorWindow) -> None:
    pane = editor.module_list
    editor.select_module(1)
    qtbot.mouseClick(pane.buttons["add"], Qt.MouseButton.LeftButton)
    assert names(editor)[2] == "new_module"
    assert pane.current_row() == 2
    assert editor.form.name.text() == "new_module"

    qtbot.mouseClick(pane.buttons["duplicate"], Qt.MouseButton.LeftButton)
    assert names(editor)[3] == "new_module_copy"
    assert pane.current_row() == 3
    qtbot.mouseClick(pane.buttons["delete"], Qt.MouseButton.LeftButton)
    assert pane.current_row() == 3  # the next module is selected
    editor.select_module(2)
    qtbot.mouseClick(pane.buttons["delete"], Qt.MouseButton.LeftButton)
    assert names(editor) == DEFAULT_ORDER
    assert json_view(editor) == editor.document.to_data()


def test_json_edits_update_the_form(editor: TemplateEditorWindow) -> None:
    data = json_view(editor)
    data["context_template"][0]["module_name"] = "who_i_am"
    data["context_template"][0]["segments"][0]["value"] = "You are truly "
    data["context_template"][0]["role"] = "user"
    type_json(editor, data)

    assert names(editor)[0] == "who_i_am"
    assert editor.form.name.text() == "who_i_am"
    assert editor.form.role.currentData() == "user"
    editor_text = editor.form.segments.rows[0].text_editor
    assert editor_text is not None and editor_text.toPlainText() == "You are truly "
    assert editor.can_apply


def test_json_formatting_survives_its_own_edits(editor: TemplateEditorWindow) -> None:
    text = editor.json_tab.editor.toPlainText().replace('"persona"', '"me"', 1)
    compact = " ".join(text.split())
    type_json(editor, compact)
    assert editor.json_tab.editor.toPlainText() == compact
    assert names(editor)[0] == "me"


def test_reorder_with_move_rows_changes_the_order_everywhere(editor: TemplateEditorWindow) -> None:
    model = editor.list_model
    assert model.moveRows(QModelIndex(), 0, 1, QModelIndex(), 3)  # Qt: "before row 3"
    expected = ["instructions", "current_datetime", "persona", *DEFAULT_ORDER[3:]]
    assert names(editor) == expected
    assert editor.document.module_names() == expected
    assert [m["module_name"] for m in json_view(editor)["context_template"]] == expected
    assert editor.module_list.current_row() == 2


def test_reorder_by_dropping_a_dragged_row(qtbot: QtBot, editor: TemplateEditorWindow) -> None:
    editor.show()
    view, model = editor.module_list.view, editor.list_model
    mime = model.mimeData([model.index(6)])  # what a drag of the last row carries
    target = view.visualRect(model.index(1))
    point = QPoint(target.center().x(), target.top() + 2)  # just above row 1
    buttons, keys = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    for event in (
        QDragEnterEvent(point, Qt.DropAction.MoveAction, mime, buttons, keys),
        QDragMoveEvent(point, Qt.DropAction.MoveAction, mime, buttons, keys),
        QDropEvent(QPointF(point), Qt.DropAction.MoveAction, mime, buttons, keys),
    ):
        QApplication.sendEvent(view.viewport(), event)
        assert event.isAccepted()
    assert names(editor)[:3] == ["persona", "user_input", "instructions"]
    assert json_view(editor)["context_template"][1]["module_name"] == "user_input"


def test_up_and_down_buttons(qtbot: QtBot, editor: TemplateEditorWindow) -> None:
    pane = editor.module_list
    editor.select_module(module_index(editor, "user_input"))
    assert not pane.buttons["down"].isEnabled()
    qtbot.mouseClick(pane.buttons["up"], Qt.MouseButton.LeftButton)
    assert names(editor)[-2:] == ["user_input", "chat_history"]
    qtbot.mouseClick(pane.buttons["down"], Qt.MouseButton.LeftButton)
    assert names(editor) == DEFAULT_ORDER


@pytest.fixture
def custom_module() -> InputModule:
    module = InputModule()
    module.register_importance_func("is_weekend", lambda: False, "Only on Saturdays and Sundays.")
    return module


def test_registered_importance_functions_are_offered(
    qtbot: QtBot, custom_module: InputModule
) -> None:
    editor = TemplateEditorWindow(custom_module)
    qtbot.addWidget(editor, before_close_func=lambda w: w.reload_from_session())
    picker = editor.form.importance
    picker.setCurrentIndex(picker.findData("function:is_weekend"))
    assert editor.form.importance_caption.text() == "is_weekend: Only on Saturdays and Sundays."
    assert editor.document.modules[0].importance_func == "is_weekend"
    assert editor.can_apply
