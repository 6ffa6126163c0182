"""The scrolling list of rows, materializing only the rows near the viewport.

A windowed widget list rather than a delegate-painted ``QListView``: rows are real widgets
(selectable text, buttons, media players, the live streaming message all work natively),
but only those within a few hundred pixels of the viewport exist. Every other row is just a
height — measured once at the current width and cached per (entry, revision, width), or
estimated from its content — in a prefix-summed array, so opening 10,000 messages costs an
estimate per row plus a dozen widgets. When a row's true height replaces a guess, the row
the user is looking at stays put; when the user is at the bottom, the view follows the end.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Iterator
from itertools import accumulate

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPaintEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QAbstractScrollArea, QFrame, QStyle, QWidget

from desktop_agent._utils._pacing import hold_stream, release_stream
from desktop_agent.app import ConversationEntry
from desktop_agent.ui.chat._context import RenderContext
from desktop_agent.ui.chat._estimate import estimate_height
from desktop_agent.ui.chat._message_widget import RowWidget, create_row
from desktop_agent.ui.chat._model import ConversationModel
from desktop_agent.ui.chat._plan_view import create_plan_row

PAD_TOP = 12
PAD_BOTTOM = 16
SIDE_PAD = 16
MAX_CONTENT_WIDTH = 920
OVERSCAN_PX = 400
CONTINUE_MS = 16
"""Delay before continuing a render cut short by its budget (leaves the frame to input)."""
_HEIGHT_CACHE_LIMIT = 100_000
GUESS_NOW_ROWS = 400
"""When every height is (re)guessed, the rows at the end — where a conversation opens — are
guessed at once; the others hold a placeholder and are guessed in background batches, so
opening 10,000 messages does not stall the window for 10,000 estimates."""
GUESS_BATCH_ROWS = 250
GUESS_BUDGET_S = 0.005
"""Background guessing goes on by batches for this long a turn (100,000 rows take ~0.3 s
of estimates: one batch of 1,500 was a 15-35 ms stall on a loaded machine)."""
PLACEHOLDER_HEIGHT = 120
CREATE_BUDGET_S = 0.008
"""How long a relayout creates row widgets beyond those it must (each costs ~3-8 ms): the
others are created nearest first in the turns after. A relayout must create the rows on
screen, except when the user scrolls: dragging the scroll bar through 100,000 messages
shows every row it passes; those not created in time are painted as a plain-text preview
until they are (a frame or two), so no scroll step waits for a dozen widgets."""
PREVIEW_CHARS = 600
_BLOCK = 256

_AnyIndex = QModelIndex | QPersistentModelIndex


class MessageList(QAbstractScrollArea):
    """Rows of a :class:`ConversationModel`, windowed: only visible rows are widgets."""

    def __init__(
        self, model: ConversationModel, ctx: RenderContext, parent: QWidget | None = None
    ) -> None:
        """Show ``model``'s rows using the shared ``ctx``."""
        super().__init__(parent)
        self._model, self._ctx = model, ctx
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setObjectName("chatList")
        self.viewport().setObjectName("chatViewport")
        # Opaque: scrolling (the view following a growing reply) blits the pixels and
        # repaints only the exposed strip; a see-through viewport repaints everything, and
        # every ancestor behind it, on every streamed frame. It paints its own background.
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self._heights: list[int] = []
        # Row offsets are prefix sums kept per block of rows: a measured height changes
        # its block's sum, not 100,000 offsets.
        self._block_sums: list[int] = []
        self._block_starts: list[int] = [PAD_TOP]
        self._dirty_blocks: set[int] = set()
        self._offsets_valid = True
        self._live: dict[str, RowWidget] = {}
        self._parked: dict[str, RowWidget] = {}
        self._height_cache: dict[tuple[str, int, int], int] = {}
        self._unguessed = 0  # rows [0, _unguessed) hold PLACEHOLDER_HEIGHT
        self._width = 0
        self._metrics = (7, 20)
        self._stick = True
        self._placed_top = 0
        self._hold: tuple[int, int] | None = None  # (row, pixels into it) to keep at the top
        self._budget_start = 0.0  # when the current frame's CREATE_BUDGET_S began
        self._programmatic = False
        self._deferred = False  # rows left to the next turn (CREATE_BUDGET_S)
        self._scrolling = False  # the user scrolls: rows on screen may wait (previews)
        self._previews: list[tuple[int, QRect]] = []  # rows painted as a preview
        self.rows_created = 0
        self.relayouts = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.relayout)
        self._continue = QTimer(self)
        self._continue.setSingleShot(True)
        self._continue.setTimerType(Qt.TimerType.PreciseTimer)
        self._continue.setInterval(CONTINUE_MS)
        self._continue.timeout.connect(self.schedule_relayout)  # a turn after the stream's
        self._guesser = QTimer(self)
        self._guesser.setSingleShot(True)
        self._guesser.setInterval(0)
        self._guesser.timeout.connect(self._guess_more)
        model.rowsInserted.connect(self._on_rows_inserted)
        model.rowsRemoved.connect(self._on_rows_removed)
        model.modelReset.connect(self._on_reset)
        model.dataChanged.connect(self._on_data_changed)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self._on_reset()

    # -- public ------------------------------------------------------------------------

    def live_rows(self) -> dict[str, RowWidget]:
        """The row widgets that currently exist, by entry key."""
        return dict(self._live)

    def row_widget(self, row: int) -> RowWidget | None:
        """The widget of ``row`` if it is materialized."""
        return self._live.get(self._model.entry(row).key)

    def is_at_bottom(self) -> bool:
        """Whether the view follows the end of the conversation."""
        return self._stick

    def scroll_to_bottom(self) -> None:
        """Show the end and follow it."""
        self._stick = True
        self._scrolling = False
        self._hold = None
        self.relayout()

    def scroll_to_row(self, row: int) -> None:
        """Bring ``row`` to the top of the viewport."""
        self._ensure_offsets()
        self._stick = False
        self._scrolling = False
        self._hold = None  # the row asked for, not the one read before rows came in front
        self._set_scroll(self._offset(row))
        self.relayout()

    def schedule_relayout(self) -> None:
        """Re-measure and re-place rows soon (coalesced); a stream yields until then."""
        if not self._timer.isActive():
            self._timer.start()
        hold_stream()  # the frame runs in a turn of its own, not after a stream slice

    def rebuild_rows(self) -> None:
        """Drop every row widget and build the visible ones again (e.g. new theme)."""
        for widget in [*self._live.values(), *self._parked.values()]:
            self._dispose(widget)
        self._live.clear()
        self._parked.clear()
        self.viewport().update()  # the background too (it is painted here, not by Qt)
        self.relayout()

    # -- model events ------------------------------------------------------------------

    def _on_reset(self) -> None:
        for widget in [*self._live.values(), *self._parked.values()]:
            self._dispose(widget)
        self._live.clear()
        self._parked.clear()
        self._width = self._row_width()
        self._measure_font()
        self._guess_all()
        self._stick = True
        self._hold = None
        # A long session just opened: rows that take too long are previewed and created
        # in the next turns, so the turn that shows it stays short.
        self._scrolling = (
            len(self._heights) > GUESS_NOW_ROWS or self._model.conversation.older_pending
        )
        self.relayout()

    def _on_rows_inserted(self, _parent: _AnyIndex, first: int, last: int) -> None:
        count = last - first + 1
        held = None if self._stick else self._anchor(self.verticalScrollBar().value())
        if first == 0 and count > GUESS_NOW_ROWS:
            # A long session's older rows put in front of its last ones: guessed like
            # those of an opened session (the nearest now, the others in batches).
            now = 0 if self._unguessed else GUESS_NOW_ROWS
            guesses = [PLACEHOLDER_HEIGHT] * (count - now)
            guesses += [self._guess(self._model.entry(row)) for row in range(count - now, count)]
            self._unguessed = self._unguessed + count if self._unguessed else count - now
            self._guesser.start()
        else:
            guesses = [self._guess(self._model.entry(row)) for row in range(first, last + 1)]
            if first < self._unguessed:
                self._unguessed += count
        self._heights[first:first] = guesses
        self._offsets_valid = False
        if held is not None and first <= held[0]:
            self._hold = (held[0] + count, held[1])  # the rows the user reads stay put
        self.schedule_relayout()

    def _on_rows_removed(self, _parent: _AnyIndex, first: int, last: int) -> None:
        del self._heights[first : last + 1]
        if first < self._unguessed:
            self._unguessed -= min(last + 1, self._unguessed) - first
        self._offsets_valid = False
        self.schedule_relayout()

    def _on_data_changed(self, top_left: _AnyIndex, bottom_right: _AnyIndex, *_: object) -> None:
        for row in range(top_left.row(), bottom_right.row() + 1):
            entry = self._model.entry(row)
            if entry.key not in self._live:
                self._set_height(row, self._guess(entry))  # re-sums only this row's block
        self.schedule_relayout()

    # -- geometry ----------------------------------------------------------------------

    def _row_width(self) -> int:
        available = self._available_width()
        return max(120, min(MAX_CONTENT_WIDTH, available - 2 * SIDE_PAD))

    def _available_width(self) -> int:
        # Reserve the scroll bar's room whether it shows or not: row widths (and so every
        # height) must not flip when it appears.
        bar = self.verticalScrollBar()  # its own width: a style sheet may set it
        extent = bar.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, bar)
        return self.viewport().width() + (0 if bar.isVisible() else -extent)

    def _guess(self, entry: ConversationEntry) -> int:
        known = self._height_cache.get((entry.key, entry.revision, self._width))
        if known is not None:
            return known
        return estimate_height(entry, self._width, *self._metrics)

    def _guess_all(self) -> None:
        """Guess every height: the last rows now, the others in background batches."""
        entries = self._model.conversation.entries
        now_from = max(0, len(entries) - GUESS_NOW_ROWS)
        heights = [PLACEHOLDER_HEIGHT] * now_from
        heights += [self._guess(entries[row]) for row in range(now_from, len(entries))]
        self._heights = heights
        self._unguessed = now_from
        self._offsets_valid = False
        if now_from:
            self._guesser.start()

    def _guess_more(self) -> None:
        """Replace a batch of placeholders (nearest the guessed rows first) by guesses."""
        deadline = time.perf_counter() + GUESS_BUDGET_S
        entries, live = self._model.conversation.entries, self._live
        start = min(self._unguessed, len(self._heights))
        while start and time.perf_counter() < deadline:
            end, start = start, max(0, start - GUESS_BATCH_ROWS)
            for row in range(start, end):
                entry = entries[row]
                if entry.key not in live:  # a shown row's height is measured, not guessed
                    self._heights[row] = self._guess(entry)
        self._unguessed = start
        self._offsets_valid = False
        if start:
            self._guesser.start()
        self.schedule_relayout()

    def _measure_font(self) -> None:
        metrics = QFontMetrics(self.font())
        self._metrics = (max(1, metrics.averageCharWidth()), metrics.lineSpacing())

    def _ensure_offsets(self) -> None:
        heights = self._heights
        if not self._offsets_valid:
            self._block_sums = [
                sum(heights[start : start + _BLOCK]) for start in range(0, len(heights), _BLOCK)
            ]
        elif self._dirty_blocks:
            for block in self._dirty_blocks:
                start = block * _BLOCK
                self._block_sums[block] = sum(heights[start : start + _BLOCK])
        else:
            return
        self._dirty_blocks.clear()
        self._block_starts = list(accumulate(self._block_sums, initial=PAD_TOP))
        self._offsets_valid = True

    def _set_height(self, row: int, height: int) -> None:
        self._heights[row] = height
        self._dirty_blocks.add(row // _BLOCK)

    def _offset(self, row: int) -> int:
        """The content coordinate of the top of ``row`` (``len(rows)``: the end)."""
        self._ensure_offsets()
        block = row // _BLOCK
        if block >= len(self._block_sums):
            return self._block_starts[-1]
        return self._block_starts[block] + sum(self._heights[block * _BLOCK : row])

    def _total_height(self) -> int:
        self._ensure_offsets()
        return self._block_starts[-1] + PAD_BOTTOM

    def _row_at(self, y: int) -> int:
        """The row containing content coordinate ``y`` (clamped to existing rows)."""
        self._ensure_offsets()
        if not self._heights:
            return 0
        block = min(
            max(bisect.bisect_right(self._block_starts, y) - 1, 0), len(self._block_sums) - 1
        )
        start = block * _BLOCK
        tops = list(
            accumulate(self._heights[start : start + _BLOCK], initial=self._block_starts[block])
        )
        row = start + bisect.bisect_right(tops, y) - 1
        return min(max(row, 0), len(self._heights) - 1)

    # -- layout ------------------------------------------------------------------------

    def relayout(self) -> None:
        """Materialize the rows near the viewport, measure them, place them."""
        self._timer.stop()
        release_stream()
        self.relayouts += 1
        width = self._row_width()
        if width != self._width:
            self._width = width
            self._guess_all()
        self._ensure_offsets()
        view_height = self.viewport().height()
        top = self._target_top(view_height, self._hold)
        self._hold = None
        anchor = self._anchor(top)
        first = last = -1
        self._deferred = False
        # One budget per frame: a relayout right after another (a reset, then the resize
        # its scroll bar causes) only creates the rows it must.
        now = time.perf_counter()
        if now - self._budget_start >= CONTINUE_MS / 1000:
            self._budget_start = now
        deadline = self._budget_start + CREATE_BUDGET_S
        for attempt in range(4):
            first, last = self._window(top, view_height)
            # Rows that must exist now: those on screen, unless the user is scrolling.
            shown = (self._row_at(top), self._row_at(top + view_height))
            if self._scrolling:  # none must exist; the nearest the end the view follows first
                start = shown[1] if self._stick else shown[0]
                shown = (start, start - 1)
            # Budgeted rendering goes on once per relayout: the later passes only measure
            # rows that came into view (four budgets in one pass were one long stall).
            if not self._materialize(first, last, attempt == 0, shown, deadline):
                break
            top = self._target_top(view_height, anchor)
        self._release_outside(first, last)
        self._place(first, last, top)
        self._update_scroll_bar(top, view_height)
        if self._deferred or any(widget.pending for widget in self._live.values()):
            self._continue.start()
        if self._deferred:
            hold_stream()  # rows on screen to create: background work waits for them
        else:
            self._scrolling = False

    @property
    def rendering(self) -> bool:
        """Whether a row near the viewport is still to be created, or a visible row
        still has budgeted rendering to do."""
        return self._deferred or any(widget.pending for widget in self._live.values())

    def _target_top(self, view_height: int, anchor: tuple[int, int] | None) -> int:
        limit = max(0, self._total_height() - view_height)
        if self._stick:
            return limit
        if anchor is not None:
            return min(limit, max(0, self._offset(anchor[0]) + anchor[1]))
        return min(limit, self.verticalScrollBar().value())

    def _anchor(self, top: int) -> tuple[int, int] | None:
        if not self._heights:
            return None
        row = self._row_at(top)
        return row, top - self._offset(row)

    def _window(self, top: int, view_height: int) -> tuple[int, int]:
        if not self._heights:
            return 0, -1
        return self._row_at(top - OVERSCAN_PX), self._row_at(top + view_height + OVERSCAN_PX)

    def _materialize(
        self,
        first: int,
        last: int,
        go_on: bool = True,
        shown: tuple[int, int] | None = None,
        deadline: float = float("inf"),
    ) -> bool:
        """Create/refresh/measure rows ``first..last``; whether any height changed.

        ``go_on``: also continue rows whose budgeted rendering is pending. Rows in
        ``shown`` (on screen) are created first and always; the others nearest first,
        until ``deadline`` (``perf_counter``): those left are created in a later turn."""
        changed = False
        low, high = shown if shown is not None else (first, last)
        if low > high:  # nothing must exist: nearest to row ``low`` first
            high = low
            deadline_all = deadline
        else:
            deadline_all = float("inf")
        for row in _nearest_first(first, last, low, high):
            entry = self._model.entry(row)
            widget = self._live.get(entry.key) or self._take_parked(entry.key)
            if widget is None:
                limit = deadline_all if low <= row <= high else deadline
                if time.perf_counter() > limit:
                    self._deferred = True
                    continue
                widget = self._create(entry)
            elif widget.revision != entry.revision or (go_on and widget.pending):
                widget.refresh(entry)
            height = widget.heightForWidth(self._width)
            if height != self._heights[row]:
                self._set_height(row, height)
                changed = True
            if not entry.streaming:
                self._remember_height(entry, height)
        return changed

    def _create(self, entry: ConversationEntry) -> RowWidget:
        widget = create_plan_row(entry, self._ctx, self.viewport()) or create_row(
            entry, self._ctx, self.viewport(), self._width
        )
        widget.size_changed.connect(self.schedule_relayout)
        self._live[entry.key] = widget
        self.rows_created += 1
        return widget

    def _take_parked(self, key: str) -> RowWidget | None:
        widget = self._parked.pop(key, None)
        if widget is not None:
            self._live[key] = widget
        return widget

    def _remember_height(self, entry: ConversationEntry, height: int) -> None:
        if len(self._height_cache) > _HEIGHT_CACHE_LIMIT:
            self._height_cache.clear()
        self._height_cache[(entry.key, entry.revision, self._width)] = height

    def _release_outside(self, first: int, last: int) -> None:
        keep = {self._model.entry(row).key for row in range(first, last + 1)}
        for key in [k for k in self._live if k not in keep]:
            widget = self._live.pop(key)
            if widget.busy():
                widget.hide()
                self._parked[key] = widget
            else:
                self._dispose(widget)
        for key in [k for k, w in self._parked.items() if not w.busy()]:
            self._dispose(self._parked.pop(key))

    @staticmethod
    def _dispose(widget: RowWidget) -> None:
        widget.hide()
        widget.deleteLater()

    def _place(self, first: int, last: int, top: int) -> None:
        # Scrolling moves every row by the same amount: let Qt move them and blit the
        # pixels, so only rows whose geometry really changed (and the exposed strip)
        # repaint — not the whole viewport on every streamed frame.
        shift = self._placed_top - top
        if shift and abs(shift) < self.viewport().height():
            self.viewport().scroll(0, shift)
        self._placed_top = top
        x = max(SIDE_PAD, (self._available_width() - self._width) // 2)
        previews, self._previews = self._previews, []
        for row in range(first, last + 1):
            rect = QRect(x, self._offset(row) - top, self._width, self._heights[row])
            widget = self._live.get(self._model.entry(row).key)
            if widget is None:  # left to a later turn: painted as a preview meanwhile
                self._previews.append((row, rect))
                continue
            if widget.geometry() != rect:
                widget.setGeometry(rect)
            if widget.isHidden():
                widget.show()
        for _row, rect in previews + self._previews:  # the old ones are covered now
            self.viewport().update(rect)

    def _update_scroll_bar(self, top: int, view_height: int) -> None:
        bar = self.verticalScrollBar()
        self._programmatic = True
        try:
            bar.setRange(0, max(0, self._total_height() - view_height))
            bar.setPageStep(view_height)
            bar.setSingleStep(48)
            bar.setValue(top)
        finally:
            self._programmatic = False

    def _set_scroll(self, value: int) -> None:
        self._programmatic = True
        try:
            self.verticalScrollBar().setValue(value)
        finally:
            self._programmatic = False

    # -- Qt events ---------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        """Fill the viewport's exposed area with the chat background (rows paint on top)."""
        painter = QPainter(self.viewport())
        try:
            painter.fillRect(event.rect(), QColor(self._ctx.palette.background))
            if self._previews:
                self._paint_previews(painter, event.rect())
        finally:
            painter.end()

    def _paint_previews(self, painter: QPainter, area: QRect) -> None:
        """Rows not created yet (the user scrolls fast): their text, plain, in muted ink."""
        palette = self._ctx.palette
        ink, border = QColor(palette.muted), QColor(palette.border)
        flags = Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap
        for row, rect in self._previews:
            if not rect.intersects(area) or row >= len(self._heights):
                continue
            entry = self._model.entry(row)
            msg = entry.msg
            text = (msg.get_text_content() if msg is not None else entry.error_text) or "…"
            painter.setPen(border)
            painter.drawRoundedRect(rect.adjusted(0, 0, -1, -9), 10, 10)
            painter.setPen(ink)
            painter.drawText(rect.adjusted(14, 10, -14, -18), flags, text[:PREVIEW_CHARS])

    def _on_scrolled(self, value: int) -> None:
        if self._programmatic:
            return
        self._stick = value >= self.verticalScrollBar().maximum() - 2
        self._scrolling = True  # until a relayout has created every row it shows
        self.relayout()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        """Rows are placed by :meth:`relayout`, not scrolled as pixels."""

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Re-measure for the new width and re-place."""
        super().resizeEvent(event)
        self.relayout()

    def showEvent(self, event: QShowEvent) -> None:
        """Lay out with the real size once shown."""
        super().showEvent(event)
        self.relayout()


def _nearest_first(first: int, last: int, low: int, high: int) -> Iterator[int]:
    """Rows ``first..last``: those in ``low..high`` in order, then the others by their
    distance from that range (below and above alternating)."""
    yield from range(max(first, low), min(last, high) + 1)
    below, above = high + 1, low - 1
    while below <= last or above >= first:
        if below <= last:
            yield below
            below += 1
        if above >= first:
            yield above
            above -= 1
