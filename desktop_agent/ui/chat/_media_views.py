"""Image, audio and video blocks.

Images decode off the GUI thread through the pane's :class:`ImageService`; remote images
show a "Load image" placeholder and are fetched only on click (or once the user allows
remote images). Audio plays through QtMultimedia when it imports (base64 data through a
``QBuffer``, files and URLs by ``setSource``) and degrades to "open externally" otherwise.
Video is a labelled placeholder opened with the system player.
"""

from __future__ import annotations

import base64
import binascii
import os
import tempfile
from functools import cache
from types import ModuleType
from typing import Any

from PySide6.QtCore import QCoreApplication, QRect, QSize, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QPainter, QPaintEvent, QPixmap
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.ui._plain import plain_label, plain_tooltip, sentence
from desktop_agent.ui.chat._context import RenderContext
from desktop_agent.ui.chat._media_loader import (
    ImageKey,
    ImageResult,
    data_url_payload,
    image_key,
    is_remote,
    local_path,
)

MEDIA_EXTENSIONS = {
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
    "audio/ogg": "ogg",
    "audio/opus": "opus",
    "audio/flac": "flac",
    "audio/aac": "aac",
    "audio/mp4": "m4a",
    "audio/webm": "webm",
    "video/mp4": "mp4",
    "video/webm": "webm",
    "video/quicktime": "mov",
}


@cache
def multimedia() -> ModuleType | None:
    """``PySide6.QtMultimedia`` if it imports (it ships in PySide6-Addons), else ``None``."""
    try:
        from PySide6 import QtMultimedia  # slow, maybe absent: on first use
    except ImportError:
        return None
    return QtMultimedia


def source_label(source: dict[str, Any]) -> str:
    """A short human description of a media source."""
    if source.get("type") == "base64":
        size = len(str(source.get("data", ""))) * 3 // 4
        return f"{source.get('media_type', 'data')} · {size / 1024:.0f} KB"
    url = str(source.get("url", ""))
    path = local_path(url)
    return os.path.basename(path) or path if path else url


def source_url(source: dict[str, Any], fallback_ext: str) -> QUrl | None:
    """A URL the system can open: the URL, the file, or base64 data saved to a temp file."""
    if source.get("type") == "base64":
        try:
            raw = base64.b64decode(str(source.get("data", "")))
        except (binascii.Error, ValueError):
            return None
        ext = MEDIA_EXTENSIONS.get(str(source.get("media_type", "")), fallback_ext)
        with tempfile.NamedTemporaryFile(suffix=f".{ext}", delete=False) as handle:
            handle.write(raw)
        return QUrl.fromLocalFile(handle.name)
    url = str(source.get("url", ""))
    path = local_path(url)
    return QUrl.fromLocalFile(os.path.abspath(path)) if path else QUrl(url)


def leaves_its_folder(path: str) -> bool:
    """Whether a local reference climbs out of its folder (``a.blobs/../../x.png``): a
    session file naming files elsewhere, which is never read."""
    return ".." in path.replace("\\", "/").split("/")


def refused_text(path: str) -> str:
    """The caption of media whose reference leaves its folder."""
    text = QCoreApplication.translate("ImageView", "Not shown: {name} is outside this chat's files")
    return text.format(name=os.path.basename(path) or path)


def moved_text(path: str) -> str:
    """The caption of media whose file is gone (an attachment of an older session)."""
    text = QCoreApplication.translate(
        "ImageView", "File moved or deleted: {name} is no longer at {path}"
    )
    return text.format(name=os.path.basename(path) or path, path=path)


def video_caption(source: dict[str, Any]) -> str:
    """ "Video · clip.mp4"."""
    text = QCoreApplication.translate("VideoView", "Video · {source}")
    return text.format(source=source_label(source))


def media_box(widget: QFrame) -> QVBoxLayout:
    widget.setObjectName("mediaBox")
    layout = QVBoxLayout(widget)
    layout.setContentsMargins(10, 8, 10, 8)
    layout.setSpacing(6)
    return layout


class _ImageCanvas(QWidget):
    """Paints a pixmap scaled to the available width, keeping its aspect ratio."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pixmap = QPixmap()
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def set_pixmap(self, pixmap: QPixmap) -> None:
        self.pixmap = pixmap
        self.updateGeometry()
        self.update()

    def _box(self, width: int) -> QSize:
        size = self.pixmap.size()
        if size.isEmpty():
            return QSize(0, 0)
        box = QSize(min(width, size.width()), 10**6)
        return size.scaled(box, Qt.AspectRatioMode.KeepAspectRatio)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._box(width).height()

    def sizeHint(self) -> QSize:
        return self.pixmap.size()

    def minimumSizeHint(self) -> QSize:
        return QSize(16, 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.pixmap.isNull():
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawPixmap(QRect(0, 0, *self._box(self.width()).toTuple()), self.pixmap)


class ImageView(QFrame):
    """An image block: thumbnail, or a placeholder (loading, remote, could not load)."""

    def __init__(self, ctx: RenderContext, block: dict[str, Any]) -> None:
        """Show the image of ``block`` (an ``ImageBlock`` or a tool output image)."""
        super().__init__()
        self._ctx = ctx
        self.setProperty("i18n_data", True)  # its tooltip names the image's source
        self.state = "loading"
        self.decoded_size = QSize()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.canvas = _ImageCanvas(self)
        self.canvas.hide()
        layout.addWidget(self.canvas)
        self.placeholder = QFrame(self)
        box = media_box(self.placeholder)
        self.caption = plain_label("", self.placeholder)
        self.caption.setObjectName("mediaCaption")
        self.caption.setWordWrap(True)
        box.addWidget(self.caption)
        self.load_button = QPushButton(
            QCoreApplication.translate("ImageView", "Load image"), self.placeholder
        )
        self.load_button.setObjectName("loadImage")
        self.load_button.clicked.connect(self.load_remote)
        box.addWidget(self.load_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.placeholder)
        self._source: dict[str, Any] = {}
        self._key: ImageKey = ()
        ctx.images.ready.connect(self._on_ready)
        ctx.remote_images_allowed.connect(self._on_remote_allowed)
        self.update_block(block, streaming=False)

    def update_block(self, block: dict[str, Any], streaming: bool) -> None:
        """(Re)load if the block's source changed (not while its data still streams)."""
        source = block.get("source") or {}
        if not isinstance(source, dict):
            source = {}
        key = image_key(source)
        if key == self._key or streaming:
            return
        self._source, self._key = source, key
        self._start()

    def _start(self) -> None:
        source = self._source
        cached = self._ctx.images.cached(self._key)
        if cached is not None:
            self._show(cached)
            return
        if source.get("type") == "base64":
            self._decode(str(source.get("data", "")), is_path=False)
            return
        url = str(source.get("url", ""))
        payload = data_url_payload(url)
        path = local_path(url)
        if payload is not None:
            self._decode(payload, is_path=False)
        elif path and leaves_its_folder(path):
            self._set_placeholder("refused", refused_text(path))
        elif path and not os.path.isfile(path):
            self._set_placeholder("moved", moved_text(path))
        elif path:
            self._decode(path, is_path=True)
        elif is_remote(url) and not self._ctx.allow_remote_images:
            text = QCoreApplication.translate("ImageView", "Remote image not loaded: {url}").format(
                url=url
            )
            self._set_placeholder("remote", text, button=True)
        elif is_remote(url):
            text = QCoreApplication.translate("ImageView", "Loading image from {url}").format(
                url=url
            )
            self._set_placeholder("remote", text)
            self.load_remote()  # allowed: a new widget (scrolled in, new theme) fetches too
        else:
            text = QCoreApplication.translate(
                "ImageView", "Could not load image: unsupported source {url}."
            )
            self._set_placeholder("error", text.format(url=repr(url)))

    def _decode(self, payload: str, is_path: bool) -> None:
        self._set_placeholder("loading", QCoreApplication.translate("ImageView", "Loading image…"))
        self._ctx.images.decode(self._key, payload, is_path)

    def load_remote(self) -> None:
        """Fetch the remote image (the user clicked "Load image" or allowed remote images)."""
        if self.state not in ("remote", "error"):
            return
        self._set_placeholder("loading", QCoreApplication.translate("ImageView", "Loading image…"))
        self._ctx.images.fetch(self._key, str(self._source.get("url", "")))

    def _on_remote_allowed(self, allowed: bool) -> None:
        if allowed and self.state == "remote":
            self.load_remote()

    def _on_ready(self, key: ImageKey, result: ImageResult) -> None:
        if key == self._key:
            self._show(result)

    def _show(self, result: ImageResult) -> None:
        if result.image is None:
            text = QCoreApplication.translate("ImageView", "Could not load image: {reason}").format(
                reason=result.error
            )
            self._set_placeholder("error", sentence(text))
            return
        self.state = "image"
        self.decoded_size = result.image.size()
        self.canvas.set_pixmap(QPixmap.fromImage(result.image))
        self.placeholder.hide()
        self.canvas.show()
        self.setToolTip(plain_tooltip(source_label(self._source)))
        self.updateGeometry()

    def ideal_width(self, max_width: int) -> int:
        """The thumbnail's width (or a placeholder's), up to ``max_width``."""
        if self.state == "image":
            return min(max_width, self.decoded_size.width())
        return min(max_width, 360)

    def _set_placeholder(self, state: str, text: str, button: bool = False) -> None:
        self.state = state
        self.caption.setText(text)
        self.load_button.setVisible(button)
        self.canvas.hide()
        self.placeholder.show()
        self.updateGeometry()


class VideoView(QFrame):
    """A video block: a labelled placeholder that opens the video in the system player."""

    def __init__(self, ctx: RenderContext, block: dict[str, Any]) -> None:
        """Show the placeholder for ``block``."""
        super().__init__()
        self._source = block.get("source") or {}
        layout = media_box(self)
        row = QHBoxLayout()
        self.caption = plain_label(video_caption(self._source), self)
        self.caption.setObjectName("mediaCaption")
        self.caption.setWordWrap(True)
        row.addWidget(self.caption, 1)
        self.open_button = QPushButton(QCoreApplication.translate("VideoView", "Open video"), self)
        self.open_button.clicked.connect(self.open_externally)
        row.addWidget(self.open_button)
        layout.addLayout(row)

    def update_block(self, block: dict[str, Any], streaming: bool) -> None:
        """Follow the block's source."""
        self._source = block.get("source") or {}
        self.caption.setText(video_caption(self._source))

    def open_externally(self) -> None:
        """Open the video with the system's player."""
        url = source_url(self._source, "mp4")
        if url is not None:
            QDesktopServices.openUrl(url)
