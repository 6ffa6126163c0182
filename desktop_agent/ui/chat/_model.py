"""The Qt item model over a :class:`~desktop_agent.app.Conversation`.

A thin adapter: rows are the conversation's entries, read live. Inserts, removals and resets
are forwarded at once (row numbers must stay in step); content changes — one per streamed
chunk — go through a :class:`StreamCoalescer`, so views see at most one ``dataChanged`` per
row per ~30 ms however fast the chunks arrive.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

from desktop_agent.app._conversation import (
    Changed,
    Conversation,
    ConversationEntry,
    ConversationEvent,
    EntryKind,
    Inserted,
    Removed,
    Reset,
)
from desktop_agent.ui.chat._coalescer import StreamCoalescer

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
"""``data(index, ENTRY_ROLE)`` is the row's :class:`ConversationEntry`."""

_AnyIndex = QModelIndex | QPersistentModelIndex


def entry_summary(entry: ConversationEntry) -> str:
    """A one-line text for a row (display role, accessibility)."""
    if entry.kind is EntryKind.ERROR or entry.msg is None:
        text = QCoreApplication.translate("ConversationModel", "Error: {error}")
        return text.format(error=entry.error_text or "")
    text = entry.msg.get_text_content() or ""
    return f"{entry.msg.name}: {text[:200]}"


class ConversationModel(QAbstractListModel):
    """Rows of a conversation, with coalesced change notifications."""

    def __init__(
        self,
        conversation: Conversation,
        parent: QObject | None = None,
        interval_ms: int = 30,
    ) -> None:
        """Adapt ``conversation``; unsubscribes itself when destroyed."""
        super().__init__(parent)
        self.conversation = conversation
        self.coalescer = StreamCoalescer(interval_ms, self)
        self.coalescer.flushed.connect(self._on_flushed)
        unsubscribe = conversation.subscribe(self._on_event)
        self.destroyed.connect(lambda *_: unsubscribe())

    # -- QAbstractListModel ------------------------------------------------------------

    def rowCount(self, parent: _AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt API
        """The number of entries (0 under any valid parent: this is a flat list)."""
        return 0 if parent.isValid() else len(self.conversation)

    def data(self, index: _AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """The entry (``ENTRY_ROLE``), a one-line summary (display), or ``None``."""
        if not index.isValid() or not 0 <= index.row() < len(self.conversation):
            return None
        entry = self.conversation[index.row()]
        if role == ENTRY_ROLE:
            return entry
        if role == Qt.ItemDataRole.DisplayRole:
            return entry_summary(entry)
        if role == Qt.ItemDataRole.ToolTipRole and entry.msg is not None:
            return entry.msg.timestamp
        return None

    def entry(self, row: int) -> ConversationEntry:
        """The entry at ``row``."""
        return self.conversation[row]

    # -- conversation events -----------------------------------------------------------

    def _on_event(self, event: ConversationEvent) -> None:
        if type(event) is Changed:  # one per streamed chunk: the fast path first
            self.coalescer.mark(self.conversation.entries[event.index].key)
        elif isinstance(event, Inserted):
            self.beginInsertRows(QModelIndex(), event.index, event.index + event.count - 1)
            self.endInsertRows()
        elif isinstance(event, Removed):
            self.beginRemoveRows(QModelIndex(), event.index, event.index)
            self.endRemoveRows()
        elif isinstance(event, Reset):
            self.coalescer.discard()
            self.beginResetModel()
            self.endResetModel()

    def _on_flushed(self, keys: list[str]) -> None:
        for key in keys:
            row = self.conversation.row_of(key)
            if row is not None:
                index = self.index(row)
                self.dataChanged.emit(index, index, [])
