"""The editor and its session: Apply, Revert, closing with unapplied changes."""

from __future__ import annotations

from typing import Any

from _template_helpers import names
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from desktop_agent.context import ContextConfig, InputModule
from desktop_agent.ui.template_editor import TemplateEditorWindow


def test_apply_loads_the_draft_into_the_session(
    qtbot: QtBot, input_module: InputModule, library: Any
) -> None:
    applied: list[ContextConfig] = []
    editor = TemplateEditorWindow(input_module, on_applied=applied.append, library=library)
    qtbot.addWidget(editor)
    editor.form.name.setText("identity")
    assert input_module.config.context_template[0].module_name == "persona"  # a draft only

    with qtbot.waitSignal(editor.applied) as signal:
        editor.chrome.apply.click()

    assert input_module.config.context_template[0].module_name == "identity"
    assert signal.args == [input_module.config]
    assert applied == [input_module.config]
    assert not editor.is_dirty
    assert not editor.chrome.apply.isEnabled()
    assert "next turn" in editor.chrome.notice.label.text()


def test_revert_goes_back_to_what_the_session_uses(
    editor: TemplateEditorWindow, input_module: InputModule
) -> None:
    editor.form.name.setText("identity")
    editor.apply()
    editor.form.role.setCurrentIndex(editor.form.role.findData("user"))
    editor.chrome.revert.click()
    assert editor.document.modules[0].module_name == "identity"
    assert editor.document.modules[0].role == "system"
    assert not editor.is_dirty


def test_apply_rechecks_names_against_the_session(
    editor: TemplateEditorWindow, input_module: InputModule
) -> None:
    picker = editor.form.segments.rows[1].picker
    assert picker is not None
    picker.setCurrentIndex(picker.findData("weather"))
    # The session forgets the variable while the draft is open (a plug-in unloaded).
    del input_module._variables["weather"]
    assert not editor.apply()
    assert input_module.config.context_template[0].segments[1].value == "agent_name"
    assert "unknown variable 'weather'" in editor.form.segments.rows[1].fault.text()


def test_closing_with_unapplied_changes_asks_then_discards(
    qtbot: QtBot, editor: TemplateEditorWindow, input_module: InputModule
) -> None:
    editor.show()
    editor.form.name.setText("identity")
    editor.close()
    assert editor.isVisible()
    box = editor.dialogs.dialog
    assert isinstance(box, QMessageBox) and box.isVisible()

    box.button(QMessageBox.StandardButton.Cancel).click()
    assert editor.isVisible() and editor.is_dirty

    editor.close()
    box = editor.dialogs.dialog
    assert isinstance(box, QMessageBox)
    box.button(QMessageBox.StandardButton.Discard).click()
    assert not editor.isVisible()
    assert names(editor)[0] == "persona"
    assert input_module.config.context_template[0].module_name == "persona"


def test_closing_with_unapplied_changes_can_apply_them(
    qtbot: QtBot, editor: TemplateEditorWindow, input_module: InputModule
) -> None:
    editor.show()
    editor.form.name.setText("identity")
    editor.close()
    box = editor.dialogs.dialog
    assert isinstance(box, QMessageBox)
    box.button(QMessageBox.StandardButton.Apply).click()
    assert not editor.isVisible()
    assert input_module.config.context_template[0].module_name == "identity"


def test_showing_again_picks_up_a_config_changed_in_the_session(
    editor: TemplateEditorWindow, input_module: InputModule
) -> None:
    editor.show()
    editor.hide()
    data = input_module.config.model_dump(mode="json")
    data["context_template"][0]["module_name"] = "restored"
    input_module.load_config(data)  # e.g. a session was loaded
    editor.show()
    assert names(editor)[0] == "restored"
    assert not editor.is_dirty
    assert editor.undo_stack.count() == 0
