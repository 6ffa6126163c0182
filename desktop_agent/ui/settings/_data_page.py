"""Settings → Data: back up everything, restore a backup, import chats from elsewhere.

A :class:`SettingsPage`. The buttons act at once (they do not wait for Save), except that
settings restored from a backup are handed back through :meth:`DataPage.apply`, so they
take effect with the dialog's Save like any other edit. Every file dialog is opened with
``open()`` and kept while it shows; the work runs off the GUI thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.app import SessionSwitcher, Settings
from desktop_agent.app.library import SessionLibrary
from desktop_agent.app.transfer import (
    import_files,
    merge_settings,
    read_backup_contents,
    read_backup_settings,
    restore_backup,
    write_backup,
)
from desktop_agent.ui._qt_async import TaskSet

BACKUP_FILTER = QT_TRANSLATE_NOOP("DataPage", "desktop-agent backup (*.zip)")
IMPORT_FILTER = QT_TRANSLATE_NOOP("DataPage", "Chats (*.json *.zip);;All files (*)")


class DataPage(QWidget):
    """Back up…, Restore… and Import chats…; ``status`` says what the last one did.

    Signals:
        dialog_opened(QDialog): A file dialog or question opened (tests answer it).
        finished(str): An action finished; the text is what ``status`` shows.
    """

    dialog_opened = Signal(object)
    finished = Signal(str)

    def __init__(
        self,
        switcher: SessionSwitcher,
        reload_list: Callable[[], object] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """Create the page.

        Args:
            switcher: Gives the session library (and saves the open chat first).
            reload_list: Shows the session list anew after an import or a restore, which
                add chats quietly (thousands of rows inserted one by one would stall).
        """
        super().__init__(parent)
        self.switcher = switcher
        self._reload_list = reload_list
        self._settings: Settings | None = None
        self._restored: Settings | None = None
        self._tasks = TaskSet()
        self.dialog: QFileDialog | QMessageBox | None = None
        self.include_keys = QCheckBox(
            QCoreApplication.translate(
                "DataPage", "Include API keys and other secrets (keep the archive private)"
            )
        )
        self.restore_settings = QCheckBox(
            QCoreApplication.translate("DataPage", "Also restore the archive's settings")
        )
        self.backup_button = QPushButton(QCoreApplication.translate("DataPage", "Back up…"))
        self.restore_button = QPushButton(QCoreApplication.translate("DataPage", "Restore…"))
        self.import_button = QPushButton(QCoreApplication.translate("DataPage", "Import chats…"))
        self.status = QLabel("")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.backup_button.clicked.connect(self.choose_backup_file)
        self.restore_button.clicked.connect(self.choose_restore_file)
        self.import_button.clicked.connect(self.choose_import_files)
        self._build_layout()

    # -- SettingsPage --------------------------------------------------------------------

    def load(self, settings: Settings) -> None:
        """Remember the settings in force (restored ones merge with their keys)."""
        self._settings = settings

    def apply(self, settings: Settings) -> Settings:
        """The settings, replaced by a restored backup's if one was restored here."""
        if self._restored is None:
            return settings
        return merge_settings(self._restored, settings)

    # -- actions -------------------------------------------------------------------------

    def choose_backup_file(self) -> QFileDialog:
        """Ask where to write the backup, then write it."""
        title = QCoreApplication.translate("DataPage", "Back up all chats")
        dialog = self._file_dialog(title, QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilter(QCoreApplication.translate("DataPage", BACKUP_FILTER))
        dialog.setDefaultSuffix("zip")
        dialog.selectFile("desktop-agent-backup.zip")
        dialog.fileSelected.connect(lambda path: self._spawn(self._backup(Path(path)), "backup"))
        return self._show(dialog)

    def choose_restore_file(self) -> QFileDialog:
        """Ask for a backup, show what it holds, and restore it if the user agrees."""
        title = QCoreApplication.translate("DataPage", "Restore a backup")
        dialog = self._file_dialog(title, QFileDialog.AcceptMode.AcceptOpen)
        dialog.setNameFilter(QCoreApplication.translate("DataPage", BACKUP_FILTER))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(lambda path: self._spawn(self._restore(Path(path)), "restore"))
        return self._show(dialog)

    def choose_import_files(self) -> QFileDialog:
        """Ask for files to import (our JSON, AgentScope sessions, ChatGPT exports)."""
        title = QCoreApplication.translate("DataPage", "Import chats")
        dialog = self._file_dialog(title, QFileDialog.AcceptMode.AcceptOpen)
        dialog.setNameFilters(QCoreApplication.translate("DataPage", IMPORT_FILTER).split(";;"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.filesSelected.connect(lambda paths: self._spawn(self._import(paths), "import"))
        return self._show(dialog)

    async def _backup(self, path: Path) -> None:
        self.status.setText(QCoreApplication.translate("DataPage", "Backing up…"))
        library = await self._library()
        try:
            written = await write_backup(library, path, include_keys=self.include_keys.isChecked())
        except OSError as exc:
            failed = QCoreApplication.translate(
                "DataPage", "The backup could not be written: {error}."
            )
            self._report(failed.format(error=exc.strerror or exc))
            return
        self._report("\n".join(written.lines()))

    async def _restore(self, path: Path) -> None:
        try:
            contents = await asyncio.to_thread(read_backup_contents, path)
        except ValueError as exc:
            failed = QCoreApplication.translate("DataPage", "{file} was not restored: {error}.")
            self._report(failed.format(file=path.name, error=exc))
            return
        title = QCoreApplication.translate("DataPage", "Restore backup")
        box = QMessageBox(QMessageBox.Icon.Question, title, "", parent=self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText("\n".join(contents.lines()[:1]))
        box.setInformativeText(
            QCoreApplication.translate(
                "DataPage", "Chats you have are kept when they are newer than the archive's."
            )
        )
        box.setDetailedText("\n".join(contents.lines()[1:]))
        accept = box.addButton(
            QCoreApplication.translate("DataPage", "Restore"), QMessageBox.ButtonRole.AcceptRole
        )
        box.addButton(QMessageBox.StandardButton.Cancel)
        if not await self._ask(box) or box.clickedButton() is not accept:
            self._report(
                QCoreApplication.translate("DataPage", "Restore cancelled: nothing was changed.")
            )
            return
        self.status.setText(QCoreApplication.translate("DataPage", "Restoring…"))
        library = await self._library()
        result = await restore_backup(library, path, announce=self._reload_list is None)
        self._list_changed()
        lines = result.lines()
        if self.restore_settings.isChecked():
            self._restored = await asyncio.to_thread(read_backup_settings, path)
            if self._restored is not None:
                lines.append(
                    QCoreApplication.translate(
                        "DataPage", "The archive's settings apply when you press Save."
                    )
                )
        self._report("\n".join(lines))

    async def _import(self, paths: list[str]) -> None:
        self.status.setText(QCoreApplication.translate("DataPage", "Importing…"))
        library = await self._library()
        quiet = self._reload_list is not None
        report = await import_files(library, paths, announce=not quiet)
        self._list_changed()
        lines = report.lines()
        if report.duplicates:
            title = QCoreApplication.translate("DataPage", "Import chats")
            box = QMessageBox(QMessageBox.Icon.Question, title, "", parent=self)
            box.setTextFormat(Qt.TextFormat.PlainText)
            count = len(report.duplicates)  # a plain name: lupdate skips a call as the count
            box.setText(
                QCoreApplication.translate(
                    "DataPage", "%n of these chats are here already.", "", count
                )
            )
            copy = box.addButton(
                QCoreApplication.translate("DataPage", "Import copies"),
                QMessageBox.ButtonRole.AcceptRole,
            )
            box.addButton(
                QCoreApplication.translate("DataPage", "Skip them"),
                QMessageBox.ButtonRole.RejectRole,
            )
            if await self._ask(box) and box.clickedButton() is copy:
                only = frozenset(d.fingerprint for d in report.duplicates)
                again = await import_files(
                    library, paths, duplicates="copy", announce=not quiet, only=only
                )
                self._list_changed()
                lines += ["", QCoreApplication.translate("DataPage", "Copies:"), *again.lines()]
        self._report("\n".join(lines))

    # -- internals -----------------------------------------------------------------------

    def _list_changed(self) -> None:
        if self._reload_list is not None:
            self._reload_list()

    async def _library(self) -> SessionLibrary:
        await self.switcher.list_sessions()
        await self.switcher.save_now()  # the archive holds what the screen shows
        assert self.switcher.library is not None
        return self.switcher.library

    async def _ask(self, box: QMessageBox) -> bool:
        """Show ``box`` with ``open()``; ``False`` if it went away unanswered (the Settings
        dialog closed), else whether it was answered (read ``box.clickedButton()``)."""
        answered: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def settle(value: bool) -> None:
            if not answered.done():
                answered.set_result(value)

        box.finished.connect(lambda _code: settle(True))
        box.destroyed.connect(lambda: settle(False))
        self.dialog = box
        box.open()
        self.dialog_opened.emit(box)
        try:
            return await answered
        finally:
            if isValid(self):
                self.dialog = None
            if isValid(box):
                box.deleteLater()

    def _file_dialog(self, title: str, mode: QFileDialog.AcceptMode) -> QFileDialog:
        dialog = QFileDialog(self, title)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setAcceptMode(mode)
        dialog.setDirectory(str(Path.home()))
        return dialog

    def _show(self, dialog: QFileDialog) -> QFileDialog:
        if isinstance(self.dialog, QFileDialog):
            self.dialog.reject()
        self.dialog = dialog
        dialog.finished.connect(lambda _code: self._dialog_done(dialog))
        dialog.open()
        self.dialog_opened.emit(dialog)
        return dialog

    def _dialog_done(self, dialog: QFileDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()

    def _spawn(self, coro: Coroutine[Any, Any, None], name: str) -> None:
        self._tasks.spawn(coro, name)

    def _report(self, text: str) -> None:
        if not isValid(self.status):  # the Settings dialog was closed meanwhile
            return
        self.status.setText(text)
        self.finished.emit(text)

    def _build_layout(self) -> None:
        layout = QVBoxLayout(self)
        layout.addWidget(_heading(QCoreApplication.translate("DataPage", "Backup")))
        layout.addWidget(
            _caption(
                QCoreApplication.translate(
                    "DataPage", "One archive of all chats, templates and settings."
                )
            )
        )
        layout.addLayout(_row(self.backup_button, self.include_keys))
        layout.addLayout(_row(self.restore_button, self.restore_settings))
        layout.addSpacing(10)
        layout.addWidget(_heading(QCoreApplication.translate("DataPage", "Import")))
        layout.addWidget(
            _caption(
                QCoreApplication.translate(
                    "DataPage",
                    "desktop-agent JSON exports, AgentScope session files, ChatGPT exports.",
                )
            )
        )
        layout.addLayout(_row(self.import_button))
        layout.addSpacing(10)
        layout.addWidget(self.status)
        layout.addStretch(1)


def _heading(text: str) -> QLabel:
    label = QLabel(text)
    label.setStyleSheet("font-weight: 600;")
    return label


def _caption(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("caption")
    label.setWordWrap(True)
    return label


def _row(*widgets: QWidget) -> QHBoxLayout:
    row = QHBoxLayout()
    for widget in widgets:
        row.addWidget(widget)
    row.addStretch(1)
    return row
