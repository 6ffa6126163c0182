"""Image decoding off the GUI thread, thumbnail caching, and consented remote fetches.

``QImageReader`` with ``setScaledSize`` decodes in a worker thread and releases the GIL while
it does (``QImage.fromData`` would not: 150–200 ms GUI stalls measured). Only ``QImage``
crosses threads; ``QPixmap`` is made on the GUI thread. Thumbnails are cached by content hash
and display size. Remote images are fetched with ``QNetworkAccessManager`` only when a widget
asks (the user clicked "Load image" or allowed remote images), with a size cap and timeout.
"""

from __future__ import annotations

import base64
import binascii
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QIODevice,
    QObject,
    QRunnable,
    QSize,
    Qt,
    QThreadPool,
    QUrl,
    Signal,
)
from PySide6.QtGui import QImage, QImageReader
from PySide6.QtNetwork import QNetworkAccessManager, QNetworkReply, QNetworkRequest

THUMBNAIL_SIZE = QSize(640, 420)
MAX_REMOTE_BYTES = 20 * 1024 * 1024
REMOTE_TIMEOUT_MS = 15_000
_CACHE_PIXELS = 48 * 1024 * 1024

ImageKey = tuple[Any, ...]


@dataclass(frozen=True)
class ImageResult:
    """A decoded thumbnail, or why there is none."""

    image: QImage | None
    error: str | None
    original_size: QSize


def local_path(url: str) -> str | None:
    """The local file a URL source names (``file://`` or a plain path), else ``None``."""
    if url.startswith("file:"):
        return QUrl(url).toLocalFile() or None
    if "://" in url or url.startswith("data:"):
        return None
    return url


def is_remote(url: str) -> bool:
    """Whether ``url`` is a web address (fetched only with the user's consent)."""
    return url.lower().startswith(("http://", "https://"))


def data_url_payload(url: str) -> str | None:
    """The base64 payload of a ``data:…;base64,`` URL, else ``None``."""
    if not url.startswith("data:"):
        return None
    header, _, payload = url.partition(",")
    return payload if header.endswith(";base64") else None


def decode_base64(data: str) -> bytes:
    """Bytes of a base64 payload; raises ``ValueError`` if it is not base64."""
    try:
        return base64.b64decode(data, validate=False)
    except (binascii.Error, ValueError) as exc:
        text = QCoreApplication.translate("ImageView", "invalid base64 data ({error})").format(
            error=exc
        )
        raise ValueError(text) from None


def decode_image(
    data: bytes | None, path: str | None, max_size: QSize = THUMBNAIL_SIZE
) -> ImageResult:
    """Decode an image from bytes or a file, scaled down to fit ``max_size``.

    Safe to call from a worker thread.
    """
    buffer: QBuffer | None = None
    if path is not None:
        reader = QImageReader(path)
    else:
        buffer = QBuffer()
        buffer.setData(QByteArray(data or b""))
        buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        reader = QImageReader(buffer)
    reader.setAutoTransform(True)
    size = reader.size()
    if not size.isValid():
        return ImageResult(
            None,
            reader.errorString() or QCoreApplication.translate("ImageView", "not an image"),
            QSize(),
        )
    if size.width() > max_size.width() or size.height() > max_size.height():
        reader.setScaledSize(size.scaled(max_size, Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    if buffer is not None:
        buffer.close()
    if image.isNull():
        return ImageResult(
            None,
            reader.errorString() or QCoreApplication.translate("ImageView", "could not decode"),
            size,
        )
    return ImageResult(image, None, size)


class _Relay(QObject):
    decoded = Signal(object, object)


class _DecodeJob(QRunnable):
    def __init__(
        self, relay: _Relay, key: ImageKey, payload: str | bytes, is_path: bool, size: QSize
    ) -> None:
        super().__init__()
        self._relay, self._key, self._payload = relay, key, payload
        self._is_path, self._size = is_path, size

    def run(self) -> None:
        try:
            if self._is_path:
                result = decode_image(None, str(self._payload), self._size)
            elif isinstance(self._payload, str):
                result = decode_image(decode_base64(self._payload), None, self._size)
            else:
                result = decode_image(self._payload, None, self._size)
        except Exception as exc:  # a worker must always answer
            result = ImageResult(None, str(exc), QSize())
        self._relay.decoded.emit(self._key, result)


class ImageService(QObject):
    """Decodes images in worker threads, caches thumbnails, fetches remote images."""

    ready = Signal(object, object)
    """``(key, ImageResult)`` when an image requested with :meth:`decode` is ready."""

    def __init__(self, parent: QObject | None = None) -> None:
        """Create the service with its own small thread pool."""
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(2)
        self._relay = _Relay(self)
        self._relay.decoded.connect(self._on_decoded)
        self._cache: OrderedDict[ImageKey, ImageResult] = OrderedDict()
        self._cache_pixels = 0
        self._in_flight: set[ImageKey] = set()
        self._network: QNetworkAccessManager | None = None
        self._replies: dict[ImageKey, QNetworkReply] = {}
        self.network_requests = 0
        self.decodes = 0

    # -- decoding ----------------------------------------------------------------------

    def cached(self, key: ImageKey) -> ImageResult | None:
        """The cached result for ``key``, if any."""
        result = self._cache.get(key)
        if result is not None:
            self._cache.move_to_end(key)
        return result

    def decode(
        self, key: ImageKey, payload: str | bytes, is_path: bool, size: QSize = THUMBNAIL_SIZE
    ) -> None:
        """Decode in a worker; :attr:`ready` follows (at once if cached).

        Args:
            key: Identifies the image and display size (see :func:`image_key`).
            payload: Base64 text, raw bytes, or a file path.
            is_path: Whether ``payload`` is a file path.
            size: The box the thumbnail must fit in.
        """
        cached = self.cached(key)
        if cached is not None:
            self.ready.emit(key, cached)
            return
        if key in self._in_flight:
            return
        self._in_flight.add(key)
        self.decodes += 1
        self._pool.start(_DecodeJob(self._relay, key, payload, is_path, size))

    def _on_decoded(self, key: ImageKey, result: ImageResult) -> None:
        self._in_flight.discard(key)
        self._store(key, result)
        self.ready.emit(key, result)

    def _store(self, key: ImageKey, result: ImageResult) -> None:
        pixels = result.image.width() * result.image.height() if result.image else 1
        self._cache[key] = result
        self._cache_pixels += pixels
        while self._cache_pixels > _CACHE_PIXELS and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            self._cache_pixels -= old.image.width() * old.image.height() if old.image else 1

    # -- remote ------------------------------------------------------------------------

    def fetch(self, key: ImageKey, url: str, size: QSize = THUMBNAIL_SIZE) -> None:
        """Download ``url`` (capped, with a timeout) and decode it; :attr:`ready` follows."""
        cached = self.cached(key)
        if cached is not None:
            self.ready.emit(key, cached)
            return
        if key in self._replies or key in self._in_flight:
            return
        if self._network is None:
            self._network = QNetworkAccessManager(self)
        request = QNetworkRequest(QUrl(url))
        request.setTransferTimeout(REMOTE_TIMEOUT_MS)
        request.setMaximumRedirectsAllowed(5)
        self.network_requests += 1
        reply = self._network.get(request)
        self._replies[key] = reply
        reply.downloadProgress.connect(
            lambda received, _total: self._check_size(key, reply, received)
        )
        reply.finished.connect(lambda: self._on_fetched(key, reply, size))

    def _check_size(self, key: ImageKey, reply: QNetworkReply, received: int) -> None:
        header = reply.header(QNetworkRequest.KnownHeaders.ContentLengthHeader)
        declared = int(header) if isinstance(header, int) else 0
        if max(received, declared) > MAX_REMOTE_BYTES:
            reply.setProperty("tooLarge", True)
            reply.abort()

    def _on_fetched(self, key: ImageKey, reply: QNetworkReply, size: QSize) -> None:
        self._replies.pop(key, None)
        reply.deleteLater()
        if reply.property("tooLarge"):
            text = QCoreApplication.translate("ImageView", "the image is larger than {size} MB")
            self._fail(key, text.format(size=MAX_REMOTE_BYTES // (1024 * 1024)))
        elif reply.error() != QNetworkReply.NetworkError.NoError:
            self._fail(key, reply.errorString())
        else:
            data = reply.readAll().data()
            self._in_flight.add(key)
            self.decodes += 1
            self._pool.start(_DecodeJob(self._relay, key, bytes(data), False, size))

    def _fail(self, key: ImageKey, error: str) -> None:
        self.ready.emit(key, ImageResult(None, error, QSize()))

    def wait_for_done(self, msecs: int = 5000) -> bool:
        """Wait for worker threads (used at shutdown and in tests)."""
        return self._pool.waitForDone(msecs)


def image_key(source: dict[str, Any], size: QSize = THUMBNAIL_SIZE) -> ImageKey:
    """A cache key for an image source at a display size.

    Base64 data is keyed by its hash (Python caches a string's hash, so this is cheap after
    the first time) and length; URLs and paths by themselves.
    """
    box = (size.width(), size.height())
    if source.get("type") == "base64":
        data = str(source.get("data", ""))
        return ("b64", hash(data), len(data), *box)
    return ("url", str(source.get("url", "")), *box)
