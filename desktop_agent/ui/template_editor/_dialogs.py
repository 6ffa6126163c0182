"""The editor's dialogs (files, library, unapplied changes), all non-blocking.

They are shown with ``open()``, never ``exec()`` (which would nest an event loop inside a
coroutine).

Each gesture opens a dialog and returns at once; the dialog's signal calls back into the
editor's plain methods (``import_file``, ``export_file``, ``save_to_library``…), which
are what tests call directly. The open dialog is kept in :attr:`EditorDialogs.dialog`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QFileDialog,
    QInputDialog,
    QMessageBox,
    QWidget,
)

from desktop_agent._i18n import QT_TRANSLATE_NOOP

_JSON_FILTER = QT_TRANSLATE_NOOP("EditorDialogs", "Template JSON (*.json);;All files (*)")


class FileTarget(Protocol):
    """What the dialogs call back (the editor window)."""

    def import_file(self, path: str | Path) -> bool:
        """Import a template file into the draft."""
        ...

    def export_file(self, path: str | Path) -> bool:
        """Write the draft to a template file."""
        ...

    def save_to_library(self, name: str) -> bool:
        """Save the draft as a library template."""
        ...

    def delete_from_library(self, name: str) -> bool:
        """Delete a library template."""
        ...

    def library_has(self, name: str) -> bool:
        """Whether the library has a template called ``name``."""
        ...


class EditorDialogs(QObject):
    """Opens the dialogs for import, export, save-as, delete and closing with changes."""

    def __init__(self, window: QWidget, target: FileTarget) -> None:
        """Dialogs parented to ``window`` that call back ``target``."""
        super().__init__(window)
        self._window = window
        self._target = target
        self.dialog: QDialog | None = None
        self._folder = str(Path.home())

    def choose_import(self) -> None:
        """Ask for a template file to import."""
        title = QCoreApplication.translate("EditorDialogs", "Import a template")
        dialog = self._file_dialog(title, QFileDialog.AcceptMode.AcceptOpen)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(self._remember_folder(self._target.import_file))
        self._show(dialog)

    def choose_export(self, suggested_name: str) -> None:
        """Ask where to export the draft."""
        title = QCoreApplication.translate("EditorDialogs", "Export the template")
        dialog = self._file_dialog(title, QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("json")
        dialog.selectFile(f"{suggested_name}.json")
        dialog.fileSelected.connect(self._remember_folder(self._target.export_file))
        self._show(dialog)

    def ask_save_name(self, suggested_name: str) -> None:
        """Ask for the name to save the draft under in the library."""
        dialog = QInputDialog(self._window)
        dialog.setWindowTitle(QCoreApplication.translate("EditorDialogs", "Save template"))
        dialog.setLabelText(
            QCoreApplication.translate("EditorDialogs", "Save the template in your library as:")
        )
        dialog.setTextValue(suggested_name)
        dialog.textValueSelected.connect(self._save_named)
        self._show(dialog)

    def confirm_delete(self, name: str) -> None:
        """Ask before deleting a library template."""
        text = QCoreApplication.translate(
            "EditorDialogs", "Delete the saved template “{name}”? This cannot be undone."
        )
        title = QCoreApplication.translate("EditorDialogs", "Delete template")
        self._confirm(title, text.format(name=name), lambda: self._target.delete_from_library(name))

    def ask_unapplied(
        self, on_apply: Callable[[], object], on_discard: Callable[[], object]
    ) -> None:
        """Ask what to do with changes that were not applied (when the window closes)."""
        buttons = QMessageBox.StandardButton
        box = QMessageBox(
            QMessageBox.Icon.Question,
            QCoreApplication.translate("EditorDialogs", "Unapplied changes"),
            QCoreApplication.translate(
                "EditorDialogs", "The template has changes that are not applied to the session yet."
            ),
            buttons.Apply | buttons.Discard | buttons.Cancel,
            self._window,
        )
        box.setDefaultButton(buttons.Apply)

        def clicked(button: QAbstractButton) -> None:
            choice = box.standardButton(button)
            if choice == buttons.Apply:
                on_apply()
            elif choice == buttons.Discard:
                on_discard()

        box.buttonClicked.connect(clicked)
        self._show(box)

    def _save_named(self, name: str) -> None:
        name = name.strip()
        if not self._target.library_has(name):
            self._target.save_to_library(name)
            return
        text = QCoreApplication.translate(
            "EditorDialogs", "A template called “{name}” is already saved. Replace it?"
        )
        title = QCoreApplication.translate("EditorDialogs", "Replace template")
        self._confirm(title, text.format(name=name), lambda: self._target.save_to_library(name))

    def _confirm(self, title: str, text: str, on_yes: Callable[[], object]) -> None:
        yes, cancel = QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.Cancel
        box = QMessageBox(QMessageBox.Icon.Question, title, text, yes | cancel, self._window)
        box.setDefaultButton(cancel)

        def clicked(button: QAbstractButton) -> None:
            if box.standardButton(button) == yes:
                on_yes()

        box.buttonClicked.connect(clicked)
        self._show(box)

    def _file_dialog(self, title: str, mode: QFileDialog.AcceptMode) -> QFileDialog:
        name_filter = QCoreApplication.translate("EditorDialogs", _JSON_FILTER)
        dialog = QFileDialog(self._window, title, self._folder, name_filter)
        dialog.setAcceptMode(mode)
        return dialog

    def _remember_folder(self, then: Callable[[str], object]) -> Callable[[str], None]:
        def chosen(path: str) -> None:
            self._folder = str(Path(path).parent)
            then(path)

        return chosen

    def _show(self, dialog: QDialog) -> None:
        previous, self.dialog = self.dialog, dialog
        if previous is not None and previous.isVisible():
            previous.reject()
        # A finished dialog is deleted later; forget it first, so that the next gesture
        # never touches a deleted C++ object (each dialog opens any number of times).
        dialog.finished.connect(lambda _result: self._forget(dialog))
        dialog.open()

    def _forget(self, dialog: QDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()
        self._window.activateWindow()
