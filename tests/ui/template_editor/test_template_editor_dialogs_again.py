"""Every editor dialog opens any number of times (a finished dialog is deleted later)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QMessageBox
from pytestqt.qtbot import QtBot

from desktop_agent.app._template_library import TemplateLibrary
from desktop_agent.ui.template_editor import TemplateEditorWindow


def _flush_deletes() -> None:
    """Run the pending ``deleteLater`` of the dialogs that finished."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QCoreApplication.processEvents()


def _open(editor: TemplateEditorWindow, gesture: Callable[[], None]) -> QDialog:
    gesture()
    dialog = editor.dialogs.dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


@pytest.mark.parametrize(
    ("button", "kind"),
    [("import_", QFileDialog), ("export", QFileDialog), ("save", QInputDialog)],
)
def test_each_file_dialog_opens_twice(
    qtbot: QtBot, editor: TemplateEditorWindow, button: str, kind: type[QDialog]
) -> None:
    editor.show()
    for _ in range(2):
        dialog = _open(editor, getattr(editor.chrome, button).click)
        assert isinstance(dialog, kind)
        dialog.reject()
        _flush_deletes()
        assert editor.dialogs.dialog is None


def test_delete_confirmation_opens_twice(
    qtbot: QtBot, editor: TemplateEditorWindow, library: TemplateLibrary, tmp_path: Path
) -> None:
    editor.show()
    editor.save_to_library("Old")
    editor.chrome.refresh_library(library.names(), "Old")
    for _ in range(2):
        box = _open(editor, editor.chrome.delete.click)
        assert isinstance(box, QMessageBox)
        box.button(QMessageBox.StandardButton.Cancel).click()
        _flush_deletes()
    assert library.names() == ["Old"]


def test_unapplied_prompt_opens_again_and_the_window_still_closes(
    qtbot: QtBot, editor: TemplateEditorWindow
) -> None:
    editor.show()
    editor.form.name.setText("identity")
    for _ in range(2):
        box = _open(editor, editor.close)
        assert isinstance(box, QMessageBox)
        box.button(QMessageBox.StandardButton.Cancel).click()
        _flush_deletes()
        assert editor.isVisible()
    box = _open(editor, editor.close)
    assert isinstance(box, QMessageBox)
    box.button(QMessageBox.StandardButton.Discard).click()
    assert not editor.isVisible()


def test_esc_closes_and_asks_about_unapplied_changes(
    qtbot: QtBot, editor: TemplateEditorWindow
) -> None:
    from PySide6.QtCore import Qt

    with qtbot.waitActive(editor):
        editor.show()
        editor.activateWindow()
    editor.form.name.setText("identity")
    for _ in range(2):
        editor.activateWindow()
        editor.form.name.setFocus()
        qtbot.keyClick(editor.form.name, Qt.Key.Key_Escape)
        box = editor.dialogs.dialog
        assert isinstance(box, QMessageBox) and box.isVisible()
        box.button(QMessageBox.StandardButton.Cancel).click()
        _flush_deletes()
    editor.close()
    box = editor.dialogs.dialog
    assert isinstance(box, QMessageBox)
    box.button(QMessageBox.StandardButton.Apply).click()
    assert not editor.isVisible()
