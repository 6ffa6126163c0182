"""The chat pane: a conversation's messages, streaming in, in a windowed scrolling list.

Wiring only: the conversation is adapted to a Qt model (coalescing stream updates to one
flush per ~30 ms), shown by a :class:`MessageList` that materializes visible rows, styled by
the light or dark chat palette. The pane never awaits; Retry is reported by a signal and
handled by the window.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QColor, QTextCharFormat
from PySide6.QtWidgets import QPushButton, QTextEdit, QVBoxLayout, QWidget

from desktop_agent.app import Conversation
from desktop_agent.ui.chat._context import RenderContext
from desktop_agent.ui.chat._doc_style import warm_highlighter
from desktop_agent.ui.chat._document_view import DocumentView
from desktop_agent.ui.chat._find_bar import FindBar
from desktop_agent.ui.chat._find_index import searchable_text
from desktop_agent.ui.chat._list import MessageList
from desktop_agent.ui.chat._math import math_renderer
from desktop_agent.ui.chat._model import ConversationModel
from desktop_agent.ui.chat._text_views import MarkdownView
from desktop_agent.ui.chat._theme import chat_palette, chat_style_sheet


class ChatView(QWidget):
    """Shows a :class:`Conversation`: messages, tool cards, media, errors with Retry."""

    retry_requested = Signal()
    """The user clicked Retry on an error bubble (or under a cut-off answer)."""

    continue_requested = Signal()
    """The user clicked Continue under a cut-off answer."""

    def __init__(self, conversation: Conversation, parent: QWidget | None = None) -> None:
        """Show ``conversation`` (it may already hold messages, and may stream into)."""
        super().__init__(parent)
        self.setObjectName("chatView")
        self.conversation = conversation
        self.context = RenderContext(conversation, self)
        self.context.retry_requested.connect(self.retry_requested)
        self.context.continue_requested.connect(self.continue_requested)
        self.model = ConversationModel(conversation, self)
        self.list = MessageList(self.model, self.context, self)
        self.find_bar = FindBar(conversation, self.show_match, self._clear_highlight, self)
        self.find_bar.closed.connect(self.list.setFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.find_bar)
        layout.addWidget(self.list)
        self.setFocusProxy(self.list)  # Tab reaches the list (arrows/PgUp scroll it)
        self._dark = False
        self.highlighted_row: int | None = None
        self.setStyleSheet(chat_style_sheet(self.context.palette))
        self.context.markdown_images.changed.connect(self._render_images_again)
        math_renderer().changed.connect(self._show_typeset_math)
        self.jump_button = QPushButton(
            QCoreApplication.translate("ChatView", "↓ Jump to latest"), self.list
        )
        self.jump_button.setObjectName("jumpToLatest")
        self.jump_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.jump_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.jump_button.clicked.connect(self.scroll_to_latest)
        self.jump_button.hide()
        bar = self.list.verticalScrollBar()
        bar.valueChanged.connect(self._update_jump_button)
        bar.rangeChanged.connect(self._update_jump_button)
        warm_highlighter()

    def reveal_match(self, query: str) -> int | None:
        """Scroll to the first message containing ``query`` and highlight it there (a search
        hit opened from the sidebar); the row, or ``None`` if no message contains it."""
        needle = query.casefold().strip()
        if not needle:
            return None
        for row, entry in enumerate(self.conversation.entries):
            text = searchable_text(entry)  # what the sidebar's search found it by
            if text and needle in text.casefold():
                self.list.scroll_to_row(max(0, row))
                self.flush()
                self._highlight(row, query.strip())
                return row
        return None

    def open_find(self) -> None:
        """Show the find-in-chat bar (Ctrl+F), its field focused."""
        self.find_bar.open_bar()

    def show_match(self, row: int, query: str) -> None:
        """Scroll to ``row`` (a find-in-chat match) and highlight ``query`` in it."""
        if not 0 <= row < len(self.conversation):
            return
        self._clear_highlight()
        self.list.scroll_to_row(row)
        widget = self.list.row_widget(row)
        if widget is not None and widget.pending:
            widget.render_now()  # all of its text, so every occurrence can be highlighted
            self.list.relayout()
        self._highlight(row, query)

    def _clear_highlight(self) -> None:
        row, self.highlighted_row = self.highlighted_row, None
        if row is None or row >= len(self.conversation):
            return
        widget = self.list.row_widget(row)
        if widget is not None:
            for view in widget.findChildren(DocumentView):
                view.setExtraSelections([])

    def _highlight(self, row: int, query: str) -> None:
        widget = self.list.row_widget(row)
        if widget is None:
            return
        fmt = QTextCharFormat()
        fmt.setBackground(QColor("#6b5a10" if self._dark else "#ffe58a"))
        for view in widget.findChildren(DocumentView):
            selections = []
            cursor = view.document().find(query)
            while not cursor.isNull():
                selection = QTextEdit.ExtraSelection()
                selection.cursor = cursor
                selection.format = fmt
                selections.append(selection)
                cursor = view.document().find(query, cursor)
            view.setExtraSelections(selections)
        self.highlighted_row = row

    def scroll_to_latest(self) -> None:
        """Show the end of the conversation and follow it (sending, "Jump to latest")."""
        self.list.scroll_to_bottom()
        self.jump_button.hide()

    def _update_jump_button(self) -> None:
        """Offer "Jump to latest" while the user reads above a reply that streams in."""
        away = not self.list.is_at_bottom() and self.conversation.turn_active
        if away != self.jump_button.isVisible():
            self.jump_button.setVisible(away)
        if away:
            self._place_jump_button()

    def _place_jump_button(self) -> None:
        button = self.jump_button
        button.adjustSize()
        viewport = self.list.viewport().geometry()
        x = viewport.x() + (viewport.width() - button.width()) // 2
        button.move(x, viewport.bottom() - button.height() - 12)
        button.raise_()

    def _show_typeset_math(self) -> None:
        """Formulas were typeset into shown documents: their views re-measure them."""
        for view in self.list.findChildren(MarkdownView):
            view.refresh_edits()

    def _render_images_again(self) -> None:
        """A Markdown image became ready (or may now be fetched): render documents again."""
        self.context.text_cache.clear()
        self.list.rebuild_rows()

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
