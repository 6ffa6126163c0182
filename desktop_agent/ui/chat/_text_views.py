"""Widgets for text-like blocks: Markdown (with code blocks), thinking, plain output.

A Markdown block is a column of chunk views — prose documents and code blocks with a header
and a Copy button — mirroring its :class:`TextRender`; updating the text touches only the
chunks that changed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QSize, Qt, QTimer
from PySide6.QtGui import QCursor, QResizeEvent, QShowEvent, QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QSizePolicy,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from desktop_agent._utils._pacing import hold_stream, release_stream
from desktop_agent.ui.chat._capped_text import (
    RENDER_CAP_CHARS,
    SHOW_MORE_FACTOR,
    CapBar,
    capped,
)
from desktop_agent.ui.chat._context import RenderContext
from desktop_agent.ui.chat._document_view import AutoHeightDocumentView, DocumentView
from desktop_agent.ui.chat._markdown import TextRender, new_document

COPIED_FEEDBACK_MS = 1200
DOCUMENT_SPACING = 8
THINKING_INDENT = 12
RENDER_BUDGET_S = 0.004
"""Markdown rendering allowed per refresh of one block; the rest follows next frame. (A
refresh also shows and places the new documents, about as long again, then paints: the
stream's ~5 ms slices run in turns of their own, see ``_utils/_pacing.py``.)"""
SYNC_DEFER_SHARE = 0.5
"""A render that took more than this share of its budget shows its documents next pass."""
_SPARE_VIEWS = 2
"""Hidden document views a block keeps for reuse; a streaming block makes them ahead, each
in an event of its own (creating one costs 1-3 ms, as much as a render)."""
SPARE_DELAY_MS = 20
"""How long after a view was taken the next spare is made: not in the turn right after the
frame that took it (two jobs back to back are one long stall)."""
NEW_VIEWS_PER_SYNC = 1
"""Document views created per budgeted refresh (each costs about a millisecond, more with
its first layout); the rest follow in the next frames, like a render cut by its budget."""


def _column(widget: QWidget, spacing: int = 6) -> QVBoxLayout:
    layout = QVBoxLayout(widget)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(spacing)
    return layout


def _hfw_policy(widget: QWidget) -> None:
    policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
    policy.setHeightForWidth(True)
    widget.setSizePolicy(policy)


class CopyButton(QToolButton):
    """A small "Copy" button that puts some text on the clipboard and says so."""

    def __init__(self, text_source: Callable[[], str], parent: QWidget | None = None) -> None:
        """Create a button copying ``text_source()`` (read at click time) when clicked."""
        super().__init__(parent)
        self._source = text_source
        self._copy_text = QCoreApplication.translate("CopyButton", "Copy")
        self.setText(self._copy_text)
        self.setToolTip(QCoreApplication.translate("CopyButton", "Copy to clipboard"))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.clicked.connect(self._copy)
        self._reset = QTimer(self)
        self._reset.setSingleShot(True)
        self._reset.setInterval(COPIED_FEEDBACK_MS)
        self._reset.timeout.connect(lambda: self.setText(self._copy_text))

    def _copy(self) -> None:
        RenderContext.copy_text(self._source())
        self.setText(QCoreApplication.translate("CopyButton", "Copied"))
        self._reset.start()


class MarkdownView(QWidget):
    """A Markdown text block as a column of documents, one per chunk of its render.

    The column is placed by hand rather than by a ``QLayout``: a long reply has hundreds
    of chunks, and a layout would ask every one of them for its height (a Python call
    each) whenever the last one grows. Here heights are cached per width and only chunks
    that changed are measured again. Code blocks live inside the documents with a "Copy"
    link (``copy:<n>``), which copies exactly the code between the fences.
    """

    def __init__(self, render: TextRender, width_hint: int = 0) -> None:
        """Show ``render`` (kept up to date with :meth:`update_text`).

        Args:
            render: The block's render (shared with later views of the same block).
            width_hint: The width the view will probably get, to lay documents out once.
        """
        super().__init__()
        self.text_render = render
        self._width_hint = width_hint
        self._views: list[DocumentView] = []
        self._spare: list[DocumentView] = []
        self._heights: list[int] = []
        self._edits: list[int] = []
        self._measured_width = -1
        self._placed_width = -1
        self._placed: list[tuple[int, int]] = []
        self._text: tuple[str, bool] | None = None  # the whole text, when it is kept
        self._drawn: tuple[str, bool] | None = None  # what is rendered of it, and if final
        self._total = 0
        self._cap = RENDER_CAP_CHARS
        self._shown_chars = 0
        self._shown_text = ""
        self.cap_bar: CapBar | None = None  # made when a text first exceeds the cap
        self._ideal: tuple[int, int] | None = None
        self._views_owed = False
        self._sync_deferred = False
        self._fresh = True  # no render yet (see _first_render_later)
        self._deferred_sync = QTimer(self)
        self._deferred_sync.setSingleShot(True)
        self._deferred_sync.setInterval(1)
        self._deferred_sync.timeout.connect(self._show_deferred)
        self._view_ideals: list[tuple[tuple[object, int, int], int]] = []
        self._catch_up = QTimer(self)
        self._catch_up.setSingleShot(True)
        self._catch_up.timeout.connect(self._render_owed_soon)
        self._owed_now = QTimer(self)
        self._owed_now.setSingleShot(True)
        self._owed_now.setInterval(0)
        self._owed_now.timeout.connect(self._render_owed)
        self._refill = QTimer(self)
        self._refill.setSingleShot(True)
        self._refill.timeout.connect(self._make_spare)
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents)  # transparent; children paint
        _hfw_policy(self)
        self._sync()

    def update_text(
        self,
        text: str,
        final: bool,
        budget: float | None = RENDER_BUDGET_S,
        *,
        force: bool = False,
    ) -> None:
        """Render the block's current full text; only changed chunks are touched.

        Within ``RICH_INTERVAL_S`` of the last Markdown render new text is appended as
        plain text, and a timer renders it as Markdown when the interval is over — an
        event of its own, so the render and the next update's work never add up to one
        long stall. ``force`` renders Markdown now.

        A streaming text drawn only in part is not kept: holding it kept an older copy of
        a huge reply alive while the model made the next one. The whole text is kept once
        it is final (for Show more and Save to file…).
        """
        shown, shown_final = capped(text, final, self._cap)
        if shown is not text and len(shown) == len(self._shown_text):
            shown = self._shown_text  # the same cut: the render sees an unchanged text
        self._text = (text, final) if final or shown is text else None
        self._total = len(text)
        self._render(shown, shown_final, budget, force)

    def _render(
        self, shown: str, final: bool, budget: float | None = RENDER_BUDGET_S, force: bool = False
    ) -> None:
        """Render ``shown`` (the drawn part of the text) and show the cap bar if it is cut."""
        self._drawn = (shown, final)
        if self.width() > 0 and self.isVisible():
            self._width_hint = self.width()
        self._shown_text = shown
        self._shown_chars = len(shown)
        bar_changed = self._show_cap_bar(len(shown), self._total)
        limit = None if budget is None else NEW_VIEWS_PER_SYNC
        if self._first_render_later(final, budget):
            return
        deferred, self._sync_deferred = self._sync_deferred, False  # shown now, if owed
        started = time.perf_counter()
        changed = self.text_render.update(shown, final, budget, self._width_hint, force=force)
        if changed and not deferred and self._defer_sync(started, budget):
            changed = False
        if changed or (self._views_owed and not self._sync_deferred):
            self._sync(limit)
        elif bar_changed:
            self._ideal = None
            self._place()
            self.updateGeometry()
        if self.text_render.stale and not self._catch_up.isActive():
            self._catch_up.start(max(1, math.ceil(self.text_render.rich_due_in() * 1000)))

    def _first_render_later(self, final: bool, budget: float | None) -> bool:
        """Whether a new streaming block leaves its first render to the next frame.

        Its row was just made, which costs about as much as the render: the two in one
        frame were a stream's longest stall. A block with documents rendered already (a
        row made again for a cached render) shows them at once.
        """
        fresh, self._fresh = self._fresh, False
        if not fresh or budget is None or final or self.text_render.parts:
            return False
        self._views_owed = True  # pending: the list renders it in its next pass
        self._refill.start(0)  # views for its first documents, made meanwhile
        return True

    def _defer_sync(self, started: float, budget: float | None) -> bool:
        """Whether to show the new documents by a timer event of their own.

        When rendering took most of the budget, the two halves of the work are then two
        short stalls, not one long one. Never twice in a row (nor with views owed): a fast
        stream cannot starve the view.
        """
        if budget is None or self._views_owed:
            return False
        if time.perf_counter() - started <= budget * SYNC_DEFER_SHARE:
            return False
        self._views_owed = self._sync_deferred = True
        self._deferred_sync.start()
        hold_stream()
        return True

    def _show_deferred(self) -> None:
        """Show the documents a budgeted render left for a pass of their own."""
        release_stream()
        if self._sync_deferred:
            self._sync_deferred = False
            self._sync(NEW_VIEWS_PER_SYNC)

    def render_now(self) -> None:
        """Render as Markdown what was shown as plain text (tests, demos)."""
        if self._drawn is not None and self.text_render.stale:
            self._render(*self._drawn, budget=None, force=True)

    def _render_owed_soon(self) -> None:
        """Render what is owed in the next turn of the loop, the stream held until then
        (a render right after a stream slice was one long stall)."""
        hold_stream()
        self._owed_now.start()

    def _render_owed(self) -> None:
        release_stream()
        if self._drawn is not None and self.text_render.stale:
            self._render(*self._drawn)

    @property
    def pending(self) -> bool:
        """Whether rendering was cut short by its time budget and must continue."""
        return self.text_render.pending or self._views_owed

    @property
    def is_capped(self) -> bool:
        """Whether only the start of the text is rendered (the bar offers the rest)."""
        return self._drawn is not None and self._shown_chars < self._total

    @property
    def rendered_chars(self) -> int:
        """How many characters of the text are rendered."""
        return self._shown_chars

    def show_more(self) -> None:
        """Render more of a capped text (four times as much; a streaming text, from its
        next update on)."""
        self._cap *= SHOW_MORE_FACTOR
        if self._text is not None:
            self.update_text(*self._text)

    def _show_cap_bar(self, shown: int, total: int) -> bool:
        """Show (or hide) the bar under a capped text; whether its visibility changed."""
        bar = self.cap_bar
        if shown >= total:
            if bar is None or bar.isHidden():
                return False
            bar.hide()
            return True
        if bar is None:
            bar = self.cap_bar = CapBar(lambda: self._text[0] if self._text else "", self)
            bar.more_requested.connect(self.show_more)
            bar.hide()
        bar.show_sizes(shown, total)
        bar.set_complete(self._text is not None)
        if not bar.isHidden():
            return False
        bar.show()
        return True

    def _bar_height(self) -> int:
        bar = self.cap_bar
        return 0 if bar is None or bar.isHidden() else bar.sizeHint().height() + DOCUMENT_SPACING

    def _sync(self, new_views: int | None = None) -> None:
        self._ideal = None
        parts = self.text_render.parts
        self._drop_views_from(len(parts))
        self._views_owed = False
        for i, part in enumerate(parts):
            if i == len(self._views):
                if new_views is not None and new_views <= 0:
                    self._views_owed = True
                    break
                new_views = None if new_views is None else new_views - 1
                view = self._new_view()
                view.show_document(part.doc)
                view.show()
                self._views.append(view)
                self._heights.append(-1)
                self._edits.append(part.edits)
                continue
            view = self._views[i]
            if view.shown_document is not part.doc:
                view.show_document(part.doc)
                self._heights[i] = -1
            elif self._edits[i] != part.edits:
                view.content_changed()
                self._heights[i] = -1
            self._edits[i] = part.edits
        if self.width() > 0:
            self._place()  # no resize follows when the total height stays the same
        self.updateGeometry()
        growing = self.pending or (self._drawn is not None and not self._drawn[1])
        if growing and len(self._spare) < _SPARE_VIEWS and not self._refill.isActive():
            self._refill.start(SPARE_DELAY_MS)  # streaming, or rendering over frames

    def _new_view(self) -> DocumentView:
        return self._spare.pop() if self._spare else self._make_view()

    def _make_view(self) -> DocumentView:
        view = DocumentView(self, self._width_hint)
        view.copy_requested.connect(self._copy_code)
        return view

    def _make_spare(self) -> None:
        """Make one more spare view for a growing block's next documents (polished, so
        showing it costs little), one per event."""
        if len(self._spare) >= _SPARE_VIEWS:
            return
        view = self._make_view()
        view.ensurePolished()
        self._spare.append(view)
        if len(self._spare) < _SPARE_VIEWS:
            self._refill.start(SPARE_DELAY_MS)

    def _drop_views_from(self, count: int) -> None:
        """Hide the views after the first ``count``; keep a few for reuse (a tail comes
        and goes as units complete, and creating a view costs more than its render)."""
        for view in self._views[count:]:
            view.hide()
            if len(self._spare) < _SPARE_VIEWS:
                self._spare.append(view)
            else:
                view.deleteLater()
        del self._views[count:]
        del self._heights[count:]
        del self._edits[count:]
        del self._placed[count:]

    # -- geometry ----------------------------------------------------------------------

    def _measure(self, width: int) -> list[int]:
        if width != self._measured_width:
            self._measured_width = width
            self._heights = [-1] * len(self._views)
        heights = self._heights
        for i, height in enumerate(heights):
            if height < 0:
                heights[i] = self._views[i].height_at(width)
        return heights

    def hasHeightForWidth(self) -> bool:
        """Heights follow widths."""
        return True

    def heightForWidth(self, width: int) -> int:
        """The column's height at ``width``."""
        heights = self._measure(width)
        return sum(heights) + DOCUMENT_SPACING * max(0, len(heights) - 1) + self._bar_height()

    def sizeHint(self) -> QSize:
        """The width laid out at (or expected), and the height there.

        Never measures at another width: a document has one layout at a time, and
        re-laying out hundreds of chunks for a size hint is what this view avoids.
        """
        width = self._measured_width if self._measured_width > 0 else self._width_hint or 400
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        """Narrow widths are fine; the height comes from :meth:`heightForWidth`."""
        return QSize(40, 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Stack the documents at the new width."""
        super().resizeEvent(event)
        self._place()

    def _place(self) -> None:
        """Stack the documents; only those whose place or height changed are moved."""
        width = self.width()
        heights = self._measure(width)
        if width != self._placed_width:
            self._placed.clear()
        placed = self._placed
        y = 0
        for i, (view, height) in enumerate(zip(self._views, heights, strict=True)):
            if i >= len(placed) or placed[i] != (y, height):
                view.setGeometry(0, y, width, height)
                del placed[i:]
                placed.append((y, height))
            y += height + DOCUMENT_SPACING
        bar = self.cap_bar
        if bar is not None and not bar.isHidden():
            bar.setGeometry(0, y, width, bar.sizeHint().height())
        self._placed_width = width

    def showEvent(self, event: QShowEvent) -> None:
        """Place the documents if they changed while hidden."""
        super().showEvent(event)
        if self._placed_width != self.width():
            self._place()

    # -- content -----------------------------------------------------------------------

    def _copy_code(self, view: DocumentView, code_index: int) -> None:
        for part in self.text_render.parts:
            if part.doc is view.shown_document:
                if 0 <= code_index < len(part.codes):
                    RenderContext.copy_text(part.codes[code_index])
                    QToolTip.showText(
                        QCursor.pos(), QCoreApplication.translate("CopyButton", "Copied")
                    )
                return

    def ideal_width(self, max_width: int) -> int:
        """The width the content needs, up to ``max_width`` (kept until it changes: the
        row asks on every update, and each ask re-wraps every document twice)."""
        if self._ideal is not None and self._ideal[0] == max_width:
            return self._ideal[1]
        known = self._view_ideals
        del known[len(self._views) :]
        widths = []
        for i, view in enumerate(self._views):
            key = (view.shown_document, self._edits[i], max_width)
            if i < len(known) and known[i][0] == key:
                widths.append(known[i][1])
                continue
            width = view.ideal_width(max_width)  # re-wraps this document only
            if i < len(self._heights):
                self._heights[i] = -1
            if i < len(known):
                known[i] = (key, width)
            else:
                known.append((key, width))
            widths.append(width)
        self._ideal = (max_width, max(widths, default=0))
        return self._ideal[1]

    def documents(self) -> list[DocumentView]:
        """The document views, in order."""
        return list(self._views)

    def plain_text(self) -> str:
        """What the block shows, as plain text."""
        return self.text_render.plain_text()

    def refresh_edits(self) -> None:
        """Re-measure documents edited in place (formulas typeset after the render)."""
        self._sync()


class ThinkingView(QWidget):
    """The model's reasoning: a toggle and, when expanded, the reasoning text.

    Expanded while it streams; collapsed once the answer starts or the message ends, unless
    the user chose otherwise (remembered per message and block, across scrolling).
    """

    def __init__(
        self, ctx: RenderContext, state_key: tuple[str, int], render: TextRender, width_hint: int
    ) -> None:
        """Create the view for the thinking block identified by ``state_key``."""
        super().__init__()
        self._ctx, self._state_key = ctx, state_key
        self._streaming = False
        layout = _column(self, 4)
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("thinkingToggle")
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setCursor(Qt.CursorShape.PointingHandCursor)
        self.toggle.clicked.connect(self._on_clicked)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.frame = QFrame(self)
        self.frame.setObjectName("thinkingBody")
        frame_layout = QVBoxLayout(self.frame)
        frame_layout.setContentsMargins(THINKING_INDENT, 0, 0, 0)
        self.body = MarkdownView(render, max(0, width_hint - THINKING_INDENT - 2))
        self.body.setObjectName("thinkingText")
        frame_layout.addWidget(self.body)
        layout.addWidget(self.frame)

    def update_block(self, thinking: str, streaming: bool, answer_started: bool) -> None:
        """Show the current reasoning and apply the expand/collapse rule."""
        self._streaming = streaming and not answer_started
        self.body.update_text(thinking, final=not streaming)
        override = self._ctx.expanded.get(self._state_key)
        self._apply(self._streaming if override is None else override)

    @property
    def expanded(self) -> bool:
        """Whether the reasoning text is shown."""
        return self.toggle.isChecked()

    def _on_clicked(self, checked: bool) -> None:
        self._ctx.expanded[self._state_key] = checked
        self._apply(checked)

    def _apply(self, expanded: bool) -> None:
        self.toggle.setChecked(expanded)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        if self._streaming:
            self.toggle.setText(QCoreApplication.translate("ThinkingView", "Thinking…"))
        else:
            self.toggle.setText(QCoreApplication.translate("ThinkingView", "Thoughts"))
        if self.frame.isHidden() == expanded:
            self.frame.setVisible(expanded)
            self.updateGeometry()


class PlainTextView(AutoHeightDocumentView):
    """Monospace plain text that grows by appending (streamed tool output)."""

    def __init__(self, ctx: RenderContext, parent: QWidget | None = None) -> None:
        """Create an empty view."""
        super().__init__(parent)
        self._shown = ""
        self.show_document(new_document(ctx.palette, monospace=True))

    def set_text(self, text: str) -> None:
        """Show ``text``; an extension of what is shown is appended, not re-set."""
        if text == self._shown:
            return
        doc = self.document()
        if self._shown and text.startswith(self._shown):
            cursor = QTextCursor(doc)
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(text[len(self._shown) :])
        else:
            doc.setPlainText(text)
        self._shown = text
        self.content_changed()
