"""Images and audio waiting in the composer, and their removable preview chips.

Choice of source: a *file* becomes a ``URLSource`` holding its absolute local path, and its
chip at once copies the file into the attachment (a ``Base64Source``, read in a worker
thread), so moving or deleting the original after attaching loses nothing; saving the
session stores the copy in the session's blob folder. Were Send pressed before the copy is
made, the chat service copies the file then. *Pasted* image data has no file, so it
becomes a PNG ``Base64Source``.
Thumbnails are decoded with ``QImageReader`` (scaled while decoding) in a worker thread:
it releases the GIL, where ``QImage.fromData`` would stall the GUI for large images.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QSize, Qt, Signal
from PySide6.QtGui import QImage, QImageReader, QPixmap
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget
from shiboken6 import isValid

from desktop_agent.app._attachments import read_attachment
from desktop_agent.message import AudioBlock, Base64Source, ImageBlock, URLSource

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"}
AUDIO_SUFFIXES = {".mp3", ".wav", ".ogg", ".oga", ".flac", ".m4a", ".aac", ".opus", ".webm"}
THUMB = 40

AttachmentKind = Literal["image", "audio"]


@dataclass(frozen=True)
class Attachment:
    """One image or audio clip to send with the next message."""

    kind: AttachmentKind
    label: str
    source: URLSource | Base64Source
    path: Path | None = None

    def block(self) -> ImageBlock | AudioBlock:
        """The content block sent to the agent."""
        if self.kind == "image":
            return ImageBlock(type="image", source=self.source)
        return AudioBlock(type="audio", source=self.source)


def attachment_kind(path: Path) -> AttachmentKind | None:
    """``"image"``/``"audio"`` by file name, or ``None`` for anything else."""
    suffix = path.suffix.lower()
    if suffix in IMAGE_SUFFIXES:
        return "image"
    if suffix in AUDIO_SUFFIXES:
        return "audio"
    guessed = mimetypes.guess_type(path.name)[0] or ""
    if guessed.startswith("image/"):
        return "image"
    return "audio" if guessed.startswith("audio/") else None


def attachment_from_path(path: Path) -> Attachment | None:
    """An attachment for a local image or audio file; ``None`` if it is neither."""
    kind = attachment_kind(path)
    if kind is None or not path.is_file():
        return None
    absolute = path.resolve()
    return Attachment(kind, path.name, URLSource(type="url", url=str(absolute)), absolute)


def attachment_from_image(image: QImage, label: str = "") -> Attachment:
    """A pasted image, encoded as PNG base64 (labelled "Pasted image" by default)."""
    label = label or QCoreApplication.translate("AttachmentChip", "Pasted image")
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stub says bytes; str works
    buffer.close()
    encoded = base64.b64encode(bytes(data.data())).decode("ascii")
    return Attachment(
        "image", label, Base64Source(type="base64", media_type="image/png", data=encoded)
    )


def read_thumbnail(attachment: Attachment, size: int = THUMB) -> QImage | None:
    """A small image for the chip, decoded at (about) its display size."""
    if attachment.kind != "image":
        return None
    if attachment.path is not None:
        reader = QImageReader(str(attachment.path))
    else:
        raw = base64.b64decode(str(attachment.source.get("data", "")))
        buffer = QBuffer()
        buffer.setData(QByteArray(raw))
        buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        reader = QImageReader(buffer)
        reader.setDecideFormatFromContent(True)
    reader.setAutoTransform(True)
    original = reader.size()
    if original.isValid() and max(original.width(), original.height()) > size:
        reader.setScaledSize(original.scaled(QSize(size, size), Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    return None if image.isNull() else image


class AttachmentChip(QFrame):
    """A preview (thumbnail or ♪), the file name, and a remove button."""

    remove_requested = Signal(object)

    def __init__(self, attachment: Attachment, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attachmentChip")
        self.attachment = attachment
        self.preview = QLabel(
            QCoreApplication.translate("AttachmentChip", "IMG")
            if attachment.kind == "image"
            else "♪"
        )
        self.preview.setFixedSize(THUMB, THUMB)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        name = QLabel(_elide(attachment.label))
        name.setTextFormat(Qt.TextFormat.PlainText)  # a file's name
        name.setProperty("i18n_data", True)
        name.setToolTip(str(attachment.path or attachment.label))
        self.remove_button = QToolButton()
        self.remove_button.setText("✕")
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip(
            QCoreApplication.translate("AttachmentChip", "Remove {name}").format(
                name=attachment.label
            )
        )
        self.remove_button.clicked.connect(lambda: self.remove_requested.emit(self))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 4, 2, 4)
        layout.setSpacing(6)
        layout.addWidget(self.preview)
        layout.addWidget(name)
        layout.addWidget(self.remove_button)
        self._load_thumbnail()
        self.copied: asyncio.Future[None] | None = self._copy_file()
        """Done once an attached file is copied into :attr:`attachment` (``None``: nothing
        to copy, or copied already, without an event loop)."""

    def _copy_file(self) -> asyncio.Future[None] | None:
        """Read an attached file into the attachment (in a worker thread when a loop runs)."""
        path = self.attachment.path
        if path is None or self.attachment.source.get("type") != "url":
            return None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._take_copy(read_attachment(str(path), self.attachment.kind))
            return None
        read = loop.run_in_executor(None, read_attachment, str(path), self.attachment.kind)
        done: asyncio.Future[None] = loop.create_future()

        def take(future: asyncio.Future[dict[str, object] | None]) -> None:
            if not future.cancelled() and future.exception() is None and isValid(self):
                self._take_copy(future.result())
            if not done.done():
                done.set_result(None)

        read.add_done_callback(take)
        return done

    def _take_copy(self, source: dict[str, object] | None) -> None:
        """Send ``source`` (the file's data) instead of the path; ``None`` keeps the path
        (unreadable or too large: the chat service reports it when the message is sent)."""
        if source is not None:
            copy = Base64Source(
                type="base64", media_type=str(source["media_type"]), data=str(source["data"])
            )
            self.attachment = dataclasses.replace(self.attachment, source=copy)

    def set_thumbnail(self, image: QImage | None) -> None:
        """Show the decoded thumbnail (on the GUI thread: ``QPixmap`` is not thread-safe)."""
        if image is not None and isValid(self):
            self.preview.setPixmap(QPixmap.fromImage(image))

    def _load_thumbnail(self) -> None:
        if self.attachment.kind != "image":
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (plain widget use): decode inline, it is small
            self.set_thumbnail(read_thumbnail(self.attachment))
            return
        future = loop.run_in_executor(None, read_thumbnail, self.attachment)
        future.add_done_callback(
            lambda f: (
                self.set_thumbnail(f.result()) if not f.cancelled() and not f.exception() else None
            )
        )


def _elide(text: str, limit: int = 28) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
