"""Find in chat (Ctrl+F): a slim bar above the messages that jumps between the rows
containing what the user types.

The rows are found in a :class:`FindIndex` of the conversation's text, built a few
milliseconds at a time when the bar first opens (a 100,000-message chat takes ~0.3 s to
read, the window stays responsive meanwhile); a search is then a scan of that text. Typing
searches after a short pause; the newest match is shown first (the chat opens at its end),
Enter goes to the one before it, Shift+Enter to the one after. Esc closes the bar.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from desktop_agent.app import Conversation
from desktop_agent.ui.chat._find_index import FindIndex

TYPING_PAUSE_MS = 150
BUILD_SLICE_S = 0.008


class _FindField(QLineEdit):
    """The query field: Enter / Shift+Enter step through the matches, Esc closes."""

    step = Signal(int)
    escape = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Handle Enter, Shift+Enter and Esc; the rest is typing."""
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            shift = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            self.step.emit(1 if shift else -1)
        elif key == Qt.Key.Key_Escape:
            self.escape.emit()
        else:
            super().keyPressEvent(event)


class FindBar(QWidget):
    """The find-in-chat bar of a chat pane.

    Args:
        conversation: What is searched.
        show_match: Called with (row, query) to scroll to a matching row and highlight it.
        clear_matches: Called when the bar closes (remove the highlight).
    """

    closed = Signal()

    def __init__(
        self,
        conversation: Conversation,
        show_match: Callable[[int, str], None],
        clear_matches: Callable[[], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("findBar")
        self._conversation = conversation
        self._show_match, self._clear_matches = show_match, clear_matches
        self._index: FindIndex | None = None
        self._query = ""
        self.matches: list[int] = []
        self.current = -1
        self.searching = False
        self.field = _FindField(self)
        self.field.setObjectName("findField")
        self.field.setPlaceholderText(QCoreApplication.translate("FindBar", "Find in chat"))
        self.field.setClearButtonEnabled(True)
        self.count_label = QLabel("", self)
        self.count_label.setObjectName("findCount")
        self.count_label.setTextFormat(Qt.TextFormat.PlainText)
        self.older_button = self._button(
            "↑", QCoreApplication.translate("FindBar", "Older match (Enter)")
        )
        self.newer_button = self._button(
            "↓", QCoreApplication.translate("FindBar", "Newer match (Shift+Enter)")
        )
        self.close_button = self._button("✕", QCoreApplication.translate("FindBar", "Close (Esc)"))
        line = QHBoxLayout(self)
        line.setContentsMargins(12, 6, 12, 6)
        line.setSpacing(6)
        line.addWidget(self.field, 1)
        for widget in (self.count_label, self.older_button, self.newer_button, self.close_button):
            line.addWidget(widget)
        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(TYPING_PAUSE_MS)
        self._typing.timeout.connect(lambda: self.search_now(self.field.text()))
        self._builder = QTimer(self)
        self._builder.setSingleShot(True)
        self._builder.setInterval(0)
        self._builder.timeout.connect(self._build_more)
        self.field.textChanged.connect(lambda _text: self._typing.start())
        self.field.step.connect(self.step)
        self.field.escape.connect(self.close_bar)
        self.older_button.clicked.connect(lambda: self.step(-1))
        self.newer_button.clicked.connect(lambda: self.step(1))
        self.close_button.clicked.connect(self.close_bar)
        self._update_count()
        self.hide()

    def _button(self, text: str, tip: str) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setAutoRaise(True)
        button.setCursor(Qt.CursorShape.PointingHandCursor)
        return button

    # -- opening and closing -------------------------------------------------------------

    def open_bar(self) -> None:
        """Show the bar with the query selected, and start reading the chat's text."""
        self.show()
        self.field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.field.selectAll()
        if not self._ensure_index().ready:
            self._builder.start()

    def close_bar(self) -> None:
        """Hide the bar and the highlight (the text read is kept for the next search)."""
        self._typing.stop()
        self.searching = False
        self.hide()
        self._clear_matches()
        self.closed.emit()

    def _ensure_index(self) -> FindIndex:
        """The chat's text index, made on first use; it stops following the conversation
        when this bar goes (a closed pane, the trash preview)."""
        if self._index is None:
            index = self._index = FindIndex(self._conversation)
            self.destroyed.connect(lambda *_: index.close())
        return self._index

    @property
    def index_ready(self) -> bool:
        """Whether the chat's text is read (a search is then immediate)."""
        return self._index is not None and self._index.ready

    # -- searching -----------------------------------------------------------------------

    def search_now(self, query: str) -> None:
        """Search ``query`` now (or as soon as the chat's text is read: see
        :attr:`searching`) and show the newest match."""
        self._typing.stop()
        if self.field.text() != query:
            self.field.blockSignals(True)
            self.field.setText(query)
            self.field.blockSignals(False)
        self._query = query.strip()
        index = self._ensure_index()
        if not self._query:
            self.searching = False
            self.matches, self.current = [], -1
            self._clear_matches()
            self._update_count()
            return
        self.searching = True
        if index.ready or index.build_some(BUILD_SLICE_S):
            self._finish_search()
        else:
            self._update_count()
            self._builder.start()

    def _build_more(self) -> None:
        assert self._index is not None
        if not self._index.build_some(BUILD_SLICE_S):
            self._builder.start()
        elif self.searching:
            self._finish_search()

    def _finish_search(self) -> None:
        assert self._index is not None
        self.searching = False
        self.matches = self._index.rows_with(self._query)
        self.current = len(self.matches) - 1
        self._update_count()
        if self.matches:
            self._show_match(self.matches[self.current], self._query)
        else:
            self._clear_matches()

    def step(self, delta: int) -> None:
        """Go to the older (``-1``) or newer (``+1``) match, wrapping around."""
        if self._query != self.field.text().strip() or self._typing.isActive():
            self.search_now(self.field.text())  # Enter before the pause ended
            return
        if not self.matches:
            return
        self.current = (self.current + delta) % len(self.matches)
        self._update_count()
        self._show_match(self.matches[self.current], self._query)

    def _update_count(self) -> None:
        if self.searching:
            text = QCoreApplication.translate("FindBar", "Searching…")
        elif not self._query:
            text = ""
        elif not self.matches:
            text = QCoreApplication.translate("FindBar", "No matches")
        else:
            text = QCoreApplication.translate("FindBar", "{current} of {count}").format(
                current=self.current + 1, count=len(self.matches)
            )
        self.count_label.setText(text)
        has = len(self.matches) > 1
        self.older_button.setEnabled(has)
        self.newer_button.setEnabled(has)
