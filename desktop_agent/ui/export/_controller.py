"""Export… (Ctrl+Shift+E, a row's menu) and "Copy chat as Markdown" in the window.

The file dialog is opened with ``open()`` (never ``exec()``: it would re-enter the event
loop) and kept until it finishes, so it works any number of times; focus returns to the
composer afterwards. Reading and rendering run off the GUI thread; a PDF is printed by the
command line in a child process (``desktop-agent export --format pdf``): Qt's text layout
and printing hold the GIL for seconds on a long chat, which would freeze the window.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QMessageBox,
    QWidget,
)

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent._logging import logger
from desktop_agent.app import SessionSwitcher
from desktop_agent.ui._qt_async import TaskSet, dialog_result

if TYPE_CHECKING:
    from desktop_agent.app.library import SessionLibrary
    from desktop_agent.app.transfer import ExportFormat

EXPORT_SHORTCUT = "Ctrl+Shift+E"
FILTERS: dict[str, ExportFormat] = {
    QT_TRANSLATE_NOOP("ExportController", "Markdown (*.md)"): "markdown",
    QT_TRANSLATE_NOOP("ExportController", "Web page (*.html)"): "html",
    QT_TRANSLATE_NOOP("ExportController", "PDF (*.pdf)"): "pdf",
    QT_TRANSLATE_NOOP("ExportController", "JSON, lossless (*.json)"): "json",
}
"""The file dialog's filters (English; shown translated, see :func:`shown_filters`)."""
_SUFFIX_FORMATS: dict[str, ExportFormat] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
    ".json": "json",
}


def shown_filters() -> dict[str, ExportFormat]:
    """The filters as the dialog shows them (translated), with their formats."""
    return {QCoreApplication.translate("ExportController", k): v for k, v in FILTERS.items()}


class ExportController(QObject):
    """Exports saved chats to files and copies them as Markdown.

    Signals:
        dialog_opened(QDialog): A file dialog, or the "replace?" question, was opened.
        exported(str): A file was written.
        failed(str): An export failed (the text says why).
    """

    dialog_opened = Signal(object)
    exported = Signal(str)
    failed = Signal(str)
    copied = Signal()

    def __init__(self, switcher: SessionSwitcher, window: QWidget) -> None:
        super().__init__(window)
        self.switcher = switcher
        self.window = window
        self.dialog: QFileDialog | None = None
        self.question: QMessageBox | None = None
        self.options: ExportOptions | None = None
        self._folder = Path.home()
        self._tasks = TaskSet()
        registry = getattr(window, "shortcuts", None)  # the window's ShortcutMap (F1 lists it)
        if registry is not None:
            self.shortcuts = registry.connect("export", self.export_active)
        else:
            self.shortcuts = [QShortcut(QKeySequence(EXPORT_SHORTCUT), window)]
            self.shortcuts[0].activated.connect(self.export_active)

    def export_active(self) -> None:
        """Export the chat on screen (a new chat is saved once its first message is sent)."""
        session_id = self.switcher.active_id
        if session_id is None:
            self._notify(
                QCoreApplication.translate(
                    "ExportController", "Nothing to export yet: send a message first."
                )
            )
            return
        self.export(session_id)

    def export(self, session_id: str, title: str = "") -> QFileDialog:
        """Ask where to export ``session_id`` (non-blocking), then write it."""
        if self.dialog is not None:
            self.dialog.reject()
        dialog = QFileDialog(
            self.window, QCoreApplication.translate("ExportController", "Export chat")
        )
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        # Qt's own "replace?" box would run a nested event loop (exec); we ask with open().
        dialog.setOption(QFileDialog.Option.DontConfirmOverwrite, True)
        dialog.setNameFilters(list(shown_filters()))
        dialog.setDirectory(str(self._folder))
        dialog.selectFile(_file_name(title or self._title_of(session_id), "markdown"))
        dialog.filterSelected.connect(lambda name: _follow_filter(dialog, name))
        options = ExportOptions()
        _add_below(dialog, options)
        self.options = options
        dialog.fileSelected.connect(
            lambda path: self._spawn_export(
                session_id, Path(path), dialog.selectedNameFilter(), options.chosen()
            )
        )
        dialog.finished.connect(lambda _code: self._dialog_done(dialog))
        self.dialog = dialog
        dialog.open()
        self.dialog_opened.emit(dialog)
        return dialog

    def copy_markdown(self, session_id: str | None = None) -> None:
        """Put a chat (default: the one on screen) on the clipboard as Markdown."""
        session_id = session_id or self.switcher.active_id
        if session_id is None:
            self._notify(
                QCoreApplication.translate(
                    "ExportController", "Nothing to copy yet: send a message first."
                )
            )
            return
        self._tasks.spawn(self._copy(session_id), "copy-markdown")

    async def aclose(self) -> None:
        """Cancel exports in flight."""
        await self._tasks.cancel_all()

    # -- internals ---------------------------------------------------------------------

    def _spawn_export(
        self, session_id: str, path: Path, name_filter: str, options: tuple[bool, bool]
    ) -> None:
        self._folder = path.parent  # the next export starts there
        fmt = _SUFFIX_FORMATS.get(path.suffix.lower()) or shown_filters().get(
            name_filter, "markdown"
        )
        if not path.suffix:
            path = path.with_suffix(".md" if fmt == "markdown" else f".{fmt}")
        self._tasks.spawn(self._export(session_id, path, fmt, *options), "export")

    async def _export(
        self,
        session_id: str,
        path: Path,
        fmt: ExportFormat,
        thinking: bool = True,
        inline_images: bool = False,
    ) -> None:
        # The library and the transfer package load on first use, never before first paint.
        from desktop_agent.app.library import SessionError
        from desktop_agent.app.transfer import read_conversation, render, write_rendered

        exists = await asyncio.to_thread(path.exists)
        if exists and not await self._replace_ok(path):
            return
        try:
            library = await self._library(session_id)
            if fmt == "pdf":
                from desktop_agent.ui.export._pdf import pdf_in_subprocess  # not at start-up

                await pdf_in_subprocess(library.root, session_id, path, thinking=thinking)
                self._exported(path)
                return
            conversation = await read_conversation(library, session_id)
            rendered = await asyncio.to_thread(
                render,
                conversation,
                fmt,
                images="inline" if inline_images else "files",
                thinking=thinking,
                files_dir=f"{path.stem}_files",
            )
            await asyncio.to_thread(write_rendered, rendered, path)
        except (SessionError, OSError, RuntimeError) as exc:
            text = QCoreApplication.translate(
                "ExportController", "Could not export the chat: {reason}"
            )
            text = text.format(reason=getattr(exc, "message", None) or exc)
            logger.warning("%s", text)
            self._notify(text)
            self.failed.emit(text)
            return
        self._exported(path)

    def _exported(self, path: Path) -> None:
        self._notify(
            QCoreApplication.translate("ExportController", "Exported to {path}").format(path=path)
        )
        self.exported.emit(str(path))

    async def _replace_ok(self, path: Path) -> bool:
        box = QMessageBox(
            QMessageBox.Icon.Question,
            QCoreApplication.translate("ExportController", "Export chat"),
            "",
            parent=self.window,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(
            QCoreApplication.translate(
                "ExportController", "{name} exists already. Replace it?"
            ).format(name=path.name)
        )
        replace = box.addButton(
            QCoreApplication.translate("ExportController", "Replace"),
            QMessageBox.ButtonRole.AcceptRole,
        )
        box.addButton(QMessageBox.StandardButton.Cancel)
        self.question = box
        self.dialog_opened.emit(box)
        try:
            await dialog_result(box)
            return box.clickedButton() is replace
        finally:
            self.question = None
            box.deleteLater()
            _focus_composer(self.window)

    async def _copy(self, session_id: str) -> None:
        from desktop_agent.app.library import SessionError  # loaded on first use
        from desktop_agent.app.transfer import read_conversation, render

        try:
            library = await self._library(session_id)
            conversation = await read_conversation(library, session_id)
        except SessionError as exc:
            self._notify(
                QCoreApplication.translate(
                    "ExportController", "Could not copy the chat: {reason}"
                ).format(reason=exc.message)
            )
            return
        rendered = await asyncio.to_thread(render, conversation, "markdown", images="omit")
        QGuiApplication.clipboard().setText(rendered.data.decode("utf-8"))
        self._notify(QCoreApplication.translate("ExportController", "Chat copied as Markdown."))
        self.copied.emit()

    async def _library(self, session_id: str) -> SessionLibrary:
        await self.switcher.list_sessions()  # opens the library if it is not yet
        if session_id == self.switcher.active_id:
            await self.switcher.save_now()  # the file holds what the screen shows
        assert self.switcher.library is not None
        return self.switcher.library

    def _title_of(self, session_id: str) -> str:
        sidebar = getattr(self.window, "sidebar", None)
        summary = sidebar.model.find(session_id) if sidebar is not None else None
        return summary.title if summary is not None and summary.title else "chat"

    def _dialog_done(self, dialog: QFileDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()
        _focus_composer(self.window)

    def _notify(self, text: str) -> None:
        banner = getattr(self.window, "banner", None)
        if banner is not None:
            banner.show_text(text)


class ExportOptions(QWidget):
    """The export dialog's choices: thinking in or out, Markdown images inside or beside."""

    def __init__(self) -> None:
        super().__init__()
        self.thinking = QCheckBox(
            QCoreApplication.translate("ExportOptions", "Include the model's thinking")
        )
        self.thinking.setChecked(True)
        self.inline_images = QCheckBox(
            QCoreApplication.translate(
                "ExportOptions", "Markdown: images inside the file (else in a folder beside)"
            )
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.thinking)
        layout.addWidget(self.inline_images)
        layout.addStretch(1)

    def chosen(self) -> tuple[bool, bool]:
        """``(thinking, inline_images)``."""
        return self.thinking.isChecked(), self.inline_images.isChecked()


def _add_below(dialog: QFileDialog, widget: QWidget) -> None:
    """Put ``widget`` under the (Qt, non-native) file dialog's own fields."""
    layout = dialog.layout()
    if isinstance(layout, QGridLayout):
        layout.addWidget(widget, layout.rowCount(), 0, 1, layout.columnCount())
    elif layout is not None:
        layout.addWidget(widget)


def _file_name(title: str, fmt: ExportFormat) -> str:
    from desktop_agent.app.transfer import default_file_name  # loaded on first use

    return default_file_name(title, fmt)


def _follow_filter(dialog: QFileDialog, name_filter: str) -> None:
    """Give the typed file name the suffix of the format just chosen."""
    fmt = shown_filters().get(name_filter)
    files = dialog.selectedFiles()
    if fmt is None or not files:
        return
    stem = Path(files[0]).stem or "chat"
    dialog.selectFile(_file_name(stem, fmt))


def _focus_composer(window: QWidget) -> None:
    composer = getattr(window, "composer", None)
    if composer is not None:
        composer.input.setFocus()
