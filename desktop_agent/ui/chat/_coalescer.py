"""Coalescing of change notifications into at most one flush per frame.

A streaming reply can change thousands of times a second; the pane repaints ~30 times a
second. Marking a key is O(1) (a dict insert, and starting a timer if idle); the flush hands
every key marked since the last flush to the listener, in first-marked order.

Each flush has a fixed cost (layout, a paint pass) on top of the new text's. When changes
pour in faster than any provider streams to a reader (thousands a second: a local server
flooding), the interval stretches to ``FLOOD_INTERVAL_MS`` — still 20 frames a second —
so the fixed cost does not eat the time the stream itself needs.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Signal

DEFAULT_INTERVAL_MS = 30
FLOOD_INTERVAL_MS = 50
FLOOD_CHANGES_PER_S = 2000


class StreamCoalescer(QObject):
    """Collects marked keys and emits them together, at most once per interval."""

    flushed = Signal(list)
    """The keys marked since the last flush (``list[str]``), each once."""

    def __init__(self, interval_ms: int = DEFAULT_INTERVAL_MS, parent: QObject | None = None):
        """Create an idle coalescer.

        Args:
            interval_ms: The delay between the first mark and the flush.
            parent: The Qt parent.
        """
        super().__init__(parent)
        self._pending: dict[str, None] = {}
        self._interval = interval_ms
        self._flood_interval = max(interval_ms, FLOOD_INTERVAL_MS)
        self._flood_marks = FLOOD_CHANGES_PER_S * interval_ms // 1000
        self._marks = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.flush)
        self.flush_count = 0

    def mark(self, key: str) -> None:
        """Note that ``key`` changed; a flush follows within the interval.

        Called once per streamed chunk: plain Python only while a flush is already due
        (no call into Qt).
        """
        self._marks += 1
        pending = self._pending
        if not pending:
            self._timer.start()
        pending[key] = None

    def flush(self) -> None:
        """Emit the pending keys now (no-op if none)."""
        self._timer.stop()
        if not self._pending:
            return
        keys = list(self._pending)
        self._pending.clear()
        flooding = self._marks >= self._flood_marks
        self._marks = 0
        self._timer.setInterval(self._flood_interval if flooding else self._interval)
        self.flush_count += 1
        self.flushed.emit(keys)

    def discard(self) -> None:
        """Drop the pending keys without emitting them (e.g. on reset)."""
        self._timer.stop()
        self._pending.clear()
        self._marks = 0

    @property
    def pending(self) -> bool:
        """Whether a flush is due."""
        return bool(self._pending)
