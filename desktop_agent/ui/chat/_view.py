"""The chat pane: a conversation's messages, streaming in, in a windowed scrolling list.

Wiring only: the conversation is adapted to a Qt model (coalescing stream updates to one
flush per ~30 ms), shown by a :class:`MessageList` that materializes visible rows, styled by
the light or dark chat palette. The pane never awaits; Retry is reported by a signal and
handled by the window.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from desktop_agent.app import Conversation
from desktop_agent.ui.chat._context import RenderContext
from desktop_agent.ui.chat._doc_style import warm_highlighter
from desktop_agent.ui.chat._list import MessageList
from desktop_agent.ui.chat._model import ConversationModel
from desktop_agent.ui.chat._theme import chat_palette, chat_style_sheet


class ChatView(QWidget):
    """Shows a :class:`Conversation`: messages, tool cards, media, errors with Retry."""

    retry_requested = Signal()
    """The user clicked Retry on an error bubble."""

    def __init__(self, conversation: Conversation, parent: QWidget | None = None) -> None:
        """Show ``conversation`` (it may already hold messages, and may stream into)."""
        super().__init__(parent)
        self.setObjectName("chatView")
        self.conversation = conversation
        self.context = RenderContext(conversation, self)
        self.context.retry_requested.connect(self.retry_requested)
        self.model = ConversationModel(conversation, self)
        self.list = MessageList(self.model, self.context, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        self._dark = False
        self.setStyleSheet(chat_style_sheet(self.context.palette))
        warm_highlighter()

    def set_allow_remote_images(self, allowed: bool) -> None:
        """Fetch remote (http/https) images without asking, or only on "Load image"."""
        self.context.set_allow_remote_images(allowed)

    def set_theme(self, dark: bool) -> None:
        """Use the dark or the light palette (visible rows are rebuilt in it)."""
        if dark == self._dark:
            return
        self._dark = dark
        palette = chat_palette(dark)
        self.context.set_palette(palette)
        self.setStyleSheet(chat_style_sheet(palette))
        self.list.rebuild_rows()

    @property
    def dark(self) -> bool:
        """Whether the dark palette is in use."""
        return self._dark

    def flush(self) -> None:
        """Apply pending updates now, rendering visible rows completely (tests, demos)."""
        self.model.coalescer.flush()
        self.list.relayout()
        for widget in self.list.live_rows().values():
            widget.render_now()
        self.list.relayout()
        for _ in range(10_000):
            if not self.list.rendering:
                break
            self.list.relayout()
