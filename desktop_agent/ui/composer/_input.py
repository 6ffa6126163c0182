"""The composer's text field: Enter sends, Shift+Enter breaks the line.

A ``QPlainTextEdit`` rather than a ``QTextEdit``: it lays out lazily, so pasting megabytes
of text stays responsive, and pasted rich text arrives as plain text. Pasted or dropped
images, image/audio files and documents do not go into the text: they are reported as
attachments.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QMimeData, Qt, Signal
from PySide6.QtGui import QImage, QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from desktop_agent.app._documents import document_kind
from desktop_agent.ui.composer._attachments import attachment_kind

_SEND_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
_NEWLINE_MODIFIERS = (
    Qt.KeyboardModifier.ShiftModifier
    | Qt.KeyboardModifier.ControlModifier
    | Qt.KeyboardModifier.AltModifier
)


class ComposerInput(QPlainTextEdit):
    """Multi-line input that reports submits, pasted images and dropped files."""

    submitted = Signal()
    image_pasted = Signal(QImage)
    files_dropped = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composerInput")
        self.setPlaceholderText(
            QCoreApplication.translate(
                "ComposerInput",
                "Message the assistant…  (Enter to send, Shift+Enter for a new line)",
            )
        )
        self.setTabChangesFocus(True)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter submits; Enter with Shift (or Ctrl/Alt) inserts a newline."""
        if event.key() in _SEND_KEYS:
            if event.modifiers() & _NEWLINE_MODIFIERS:
                self.textCursor().insertText("\n")
                self.ensureCursorVisible()
            else:
                self.submitted.emit()
            event.accept()
            return
        super().keyPressEvent(event)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        """Accept images and files as well as text."""
        return source.hasImage() or source.hasUrls() or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        """Images, media files and documents become attachments; text is inserted as text."""
        files = _media_files(source)
        if files:
            self.files_dropped.emit(files)
            return
        if source.hasImage():
            image = source.imageData()
            if isinstance(image, QImage) and not image.isNull():
                self.image_pasted.emit(image)
                return
        if source.hasText():
            self.insertPlainText(source.text())


def _media_files(source: QMimeData) -> list[Path]:
    if not source.hasUrls():
        return []
    paths = [Path(url.toLocalFile()) for url in source.urls() if url.isLocalFile()]
    return [p for p in paths if attachment_kind(p) is not None or _is_document(p)]


def _is_document(path: Path) -> bool:
    return path.is_file() and document_kind(path) is not None
