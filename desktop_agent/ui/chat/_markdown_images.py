"""Images written in Markdown replies (``![alt](data:…)``, ``![alt](https://…)``).

Qt's Markdown importer turns them into image characters that the document would load by
itself (remote fetches without consent, decoding on the GUI thread). The styler instead asks
this hub: a decoded image is added to the document as a resource and shown inline, scaled to
fit :data:`MAX_INLINE`; anything else becomes a short placeholder. ``data:`` images are
decoded in a worker (:class:`ImageService`), remote ones are fetched only with consent (the
"Load images from the web" setting, or a click on the placeholder's "Load image" link), with
the service's size cap and timeout. When an image is ready, :attr:`changed` asks the chat
pane to render its documents again (rare, so simplicity wins over patching documents).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QSize, Qt, QTimer, QUrl, Signal

from desktop_agent.ui.chat._media_loader import (
    THUMBNAIL_SIZE,
    ImageKey,
    ImageResult,
    ImageService,
    data_url_payload,
    is_remote,
)

MAX_INLINE = QSize(420, 320)
"""The largest an image is shown inline in a reply (decoded at most at the thumbnail size)."""
LOAD_SCHEME = "loadimage"
"""The scheme of a placeholder's link that fetches a remote image."""


def load_link(url: str) -> str:
    """The href of the "Load image" link of remote image ``url``."""
    return f"{LOAD_SCHEME}:{bytes(QUrl.toPercentEncoding(url).data()).decode()}"


def url_of_load_link(link: QUrl) -> str:
    """The remote image URL a "Load image" link stands for."""
    return QUrl.fromPercentEncoding(link.path().encode())


class _LoadRequests(QObject):
    requested = Signal(str)


LOAD_REQUESTS = _LoadRequests()
"""Where document views report a click on a "Load image" link (every hub listens)."""


def _key(url: str) -> ImageKey:
    return ("md", url[:64], hash(url), len(url))


def inline_size(image_size: QSize) -> QSize:
    """The size an image of ``image_size`` is shown at inline."""
    if image_size.width() <= MAX_INLINE.width() and image_size.height() <= MAX_INLINE.height():
        return image_size
    return image_size.scaled(MAX_INLINE, Qt.AspectRatioMode.KeepAspectRatio)


class MarkdownImages(QObject):
    """Decoded Markdown images of one chat pane, and the consent to fetch remote ones."""

    changed = Signal()
    """An image became ready (or failed): documents showing its placeholder are stale."""

    def __init__(self, service: ImageService, parent: QObject | None = None) -> None:
        """Use ``service`` for decoding and fetching."""
        super().__init__(parent)
        self._service = service
        self._pending: dict[str, ImageKey] = {}  # decoding or fetching
        self._failures: dict[str, ImageResult] = {}
        self._consented: set[str] = set()
        self.allow_remote = False
        self._waiting = False  # a placeholder waits for consent somewhere
        self._announce = QTimer(self)
        self._announce.setSingleShot(True)
        self._announce.setInterval(0)
        self._announce.timeout.connect(self.changed)
        service.ready.connect(self._on_ready)
        LOAD_REQUESTS.requested.connect(self._on_load_requested)

    def resource_name(self, url: str) -> QUrl:
        """The document resource name an image is added under."""
        return QUrl(f"mdimage:{abs(hash(url))}-{len(url)}")

    def lookup(self, url: str) -> ImageResult | None:
        """The decoded image (or the failure) for ``url``; starts the work if allowed.

        Returns ``None`` while the image is loading or waits for consent (see
        :meth:`waiting_for_consent`). Decoded images live in the service's bounded
        thumbnail cache (one evicted is decoded again when shown again); failures here.
        """
        failed = self._failures.get(url)
        if failed is not None:
            return failed
        key = _key(url)
        cached = self._service.cached(key)
        if cached is not None:
            return cached
        if url in self._pending:
            return None
        payload = data_url_payload(url)
        if payload is not None:
            self._pending[url] = key
            self._service.decode(key, payload, is_path=False, size=THUMBNAIL_SIZE)
        elif not is_remote(url):
            reason = QCoreApplication.translate(
                "MarkdownView", "only data: and web images are shown"
            )
            self._failures[url] = ImageResult(None, reason, QSize())
            return self._failures[url]
        elif self.allow_remote or url in self._consented:
            self._pending[url] = key
            self._service.fetch(key, url, THUMBNAIL_SIZE)
        return None

    def waiting_for_consent(self, url: str) -> bool:
        """Whether ``url`` is a remote image not fetched because nobody agreed yet."""
        waiting = is_remote(url) and not self.allow_remote and url not in self._consented
        if waiting:
            self._waiting = True
        return waiting

    def set_allow_remote(self, allowed: bool) -> None:
        """Follow the "Load images from the web" setting (allowing re-renders placeholders)."""
        if allowed == self.allow_remote:
            return
        self.allow_remote = allowed
        if allowed and self._waiting:
            self._waiting = False
            self._announce.start()

    def load(self, url: str) -> None:
        """The user asked for remote image ``url`` (clicked its "Load image")."""
        self._consented.add(url)
        self._failures.pop(url, None)  # a failed fetch may be tried again
        self._announce.start()

    def _on_ready(self, key: ImageKey, result: ImageResult) -> None:
        for url in [u for u, known in self._pending.items() if known == key]:
            del self._pending[url]
            if result.image is None:
                self._failures[url] = result
            self._announce.start()

    def _on_load_requested(self, url: str) -> None:
        if is_remote(url):
            self.load(url)
