"""What every row widget of one chat pane shares: theme, caches, services, UI state.

Row widgets come and go as the user scrolls, so anything that must outlive a widget —
rendered documents, decoded thumbnails, whether the user expanded a thinking block, the
"load remote images" consent — lives here, owned by the :class:`ChatView`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QGuiApplication

from desktop_agent.app import Conversation
from desktop_agent.ui.chat._doc_style import DocumentStyler
from desktop_agent.ui.chat._markdown import TextRender, TextRenderCache
from desktop_agent.ui.chat._markdown_images import MarkdownImages
from desktop_agent.ui.chat._media_loader import ImageService
from desktop_agent.ui.chat._theme import LIGHT, ChatPalette
from desktop_agent.ui.chat._versions import VersionActions

SAFE_LINK_SCHEMES = frozenset({"http", "https", "mailto"})
"""Link schemes opened from model-written text (never ``file:``: it could run a program)."""


class RenderContext(QObject):
    """Shared state and services of a chat pane's row widgets."""

    remote_images_allowed = Signal(bool)
    """The user's consent to fetch remote images changed."""

    retry_requested = Signal()
    """An error bubble's Retry was clicked."""

    continue_requested = Signal()
    """A cut-off answer's Continue was clicked."""

    def __init__(self, conversation: Conversation, parent: QObject | None = None) -> None:
        """Create the context of a pane showing ``conversation``."""
        super().__init__(parent)
        self.conversation = conversation
        self.palette: ChatPalette = LIGHT
        self.text_cache = TextRenderCache()
        self.images = ImageService(self)
        self.markdown_images = MarkdownImages(self.images, self)
        self.styler = DocumentStyler(LIGHT, self.markdown_images)
        self.expanded: dict[tuple[str, int], bool] = {}
        self.allow_remote_images = False
        self.tool_origin: Callable[[str], str | None] = lambda _name: None
        """The MCP server a tool name came from (``None`` for built-in tools)."""
        self.versions = VersionActions(conversation, self)
        """Edit / Regenerate / Delete and the version switchers (off until enabled)."""

    def set_palette(self, palette: ChatPalette) -> None:
        """Switch colours; rendered documents of the old theme are dropped."""
        self.palette = palette
        self.styler = DocumentStyler(palette, self.markdown_images)
        self.text_cache.clear()

    def set_allow_remote_images(self, allowed: bool) -> None:
        """Record the consent to fetch remote images and tell the widgets."""
        self.allow_remote_images = allowed
        self.markdown_images.set_allow_remote(allowed)
        self.remote_images_allowed.emit(allowed)

    def text_render(self, msg_id: str, index: int, flavour: str) -> TextRender:
        """The cached render of block ``index`` of message ``msg_id``.

        Args:
            msg_id: The message.
            index: The block's index (or a sub-index for nested blocks).
            flavour: ``"user"`` (shown as typed, no Markdown) or anything else.
        """
        return self.text_cache.get((msg_id, index, flavour), self.styler, flavour == "user")

    @staticmethod
    def copy_text(text: str) -> None:
        """Put ``text`` on the clipboard."""
        clipboard = QGuiApplication.clipboard()
        clipboard.setText(text)

    @staticmethod
    def open_url(url: QUrl) -> bool:
        """Open a link externally, if its scheme is one we trust."""
        if url.scheme().lower() not in SAFE_LINK_SCHEMES:
            return False
        return QDesktopServices.openUrl(url)
