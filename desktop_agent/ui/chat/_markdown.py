"""Markdown → ``QTextDocument``\\ s, incrementally, with highlighted code.

Qt's own Markdown importer (md4c, C++) builds each document — measured ~5× faster than
markdown-it-py plus Pygments HTML (≈1 ms/KB parse vs ≈6 ms/KB), which is what keeps a flush
inside a frame — and :class:`DocumentStyler` adds the chat look and Pygments highlighting of
closed code fences. A text block is split by :class:`MarkdownSplitter` into chunks of under
a kilobyte, one document each, plus a document for the unfinished tail: a streaming reply
re-renders only what changed since the last unit boundary.

A fast stream changes the text on every frame; re-rendering (and repainting) the open chunk
that often costs more than the SDK spends receiving the text. So Markdown is rendered at
most every :data:`RICH_INTERVAL_S`; text arriving in between is appended to the last shown
document as plain text — one cheap edit, laid out and painted incrementally — until the
next Markdown render replaces it. A finished text is always rendered in full.
:data:`RENDER_STATS` counts the work so tests and benchmarks can check it stays linear.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from PySide6.QtGui import (
    QFontDatabase,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)

from desktop_agent.ui.chat._doc_style import MARKDOWN_FEATURES, DocumentStyler, lex_ahead
from desktop_agent.ui.chat._markdown_split import Chunk, MarkdownSplitter, Unit
from desktop_agent.ui.chat._math import insert_math, math_renderer
from desktop_agent.ui.chat._math_detect import protect_math
from desktop_agent.ui.chat._theme import ChatPalette


@dataclass
class RenderStats:
    """Counters of rendering work (process-wide; tests reset them).

    Attributes:
        full_renders: Text blocks rendered from scratch (first render, or text replaced).
        chunk_renders: Documents built (chunk heads and tails).
        chars_rendered: Markdown characters handed to the importer, in total.
        tail_renders: Documents built for an unfinished tail.
        plain_appends: Updates shown by appending plain text (no Markdown render).
    """

    full_renders: int = 0
    chunk_renders: int = 0
    chars_rendered: int = 0
    tail_renders: int = 0
    plain_appends: int = 0

    def reset(self) -> None:
        """Zero every counter."""
        for name in self.__dataclass_fields__:
            setattr(self, name, 0)


RENDER_STATS = RenderStats()

RICH_INTERVAL_S = 0.05
"""Shortest time between two Markdown renders of a growing text (plain appends between)."""


class _RenderCost:
    """Seconds per character a document render takes (a running average), so a budgeted
    update stops *before* a document that would overrun it, not after."""

    per_char = 5e-6

    @classmethod
    def record(cls, chars: int, seconds: float) -> None:
        if chars >= 200:
            cls.per_char += (seconds / chars - cls.per_char) * 0.2

    @classmethod
    def over(cls, deadline: float | None, chars: int) -> bool:
        """Whether rendering ``chars`` characters now would end past ``deadline``."""
        return deadline is not None and time.perf_counter() + chars * cls.per_char > deadline


def new_document(palette: ChatPalette, monospace: bool = False) -> QTextDocument:
    """An empty document for the chat pane."""
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    if monospace:
        doc.setDefaultFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    return doc


@dataclass
class RenderedDoc:
    """One shown document and the code of each of its code blocks.

    Attributes:
        doc: The document (a new one for each render: see :meth:`TextRender._render_doc`).
        codes: The code of each code block in it (``copy:<n>`` links index into this).
        edits: Bumped when plain text is appended to ``doc`` in place (views re-measure).
    """

    doc: QTextDocument
    codes: list[str] = field(default_factory=list)
    edits: int = 0


@dataclass
class _ChunkState:
    """What of a chunk is rendered: its complete units (head) and its unfinished tail."""

    chunk: Chunk
    units: int = 0
    last_unit: Unit | None = None
    head: RenderedDoc | None = None
    tail_unit: Unit | None = None
    tail: RenderedDoc | None = None
    ready_head: tuple[int, Unit | None, RenderedDoc | None] | None = None
    """A new head rendered while the budget ran out before its tail: both are shown
    together, at the next update (a head and a tail of different moments would show a
    paragraph twice, or not at all, for a frame)."""

    def invalidate(self) -> None:
        """Make the next sync render again what plain appends have written into."""
        if self.tail is not None:
            self.tail_unit = _STALE
        else:
            self.units = -1


_STALE = Unit("md", "", source="\0stale")
"""A tail unit no real one equals: its document must be rendered again."""


class TextRender:
    """One text block rendered as documents, updated incrementally.

    Each chunk's complete units form one document, re-rendered only when a unit
    completes; the unfinished tail of the last chunk is a document of its own, re-rendered
    as it grows. So a flush costs about the new text, not the chunk. With a time budget an
    update stops once the budget is spent and :attr:`pending` says more work is due (a huge
    reply appears over a few frames instead of freezing one). Within
    :data:`RICH_INTERVAL_S` of the last render, new text is appended as plain text and
    :attr:`stale` says a render is still owed (:meth:`rich_due_in` says when).
    """

    def __init__(self, styler: DocumentStyler, plain: bool = False) -> None:
        """Create an empty render.

        Args:
            styler: Styles Markdown documents (theme colours, code highlighting).
            plain: Show the text as typed (user messages), not as Markdown.
        """
        self.styler = styler
        self.plain = plain
        self._splitter = MarkdownSplitter()
        self._seen_text: str | None = None
        self._seen_final = False
        self._states: list[_ChunkState] = []
        self.pending = False
        self._width = 0
        self._fed: tuple[str | None, bool] = (None, False)
        self._rich_at = -math.inf
        self._appended: _ChunkState | None = None

    def update(
        self,
        text: str,
        final: bool,
        budget: float | None = None,
        width: int = 0,
        *,
        force: bool = False,
    ) -> bool:
        """Render ``text`` (the block's full current text).

        Args:
            text: The whole current text of the block.
            final: Whether the text is complete (the message finished streaming).
            budget: Seconds of work allowed; ``None`` renders everything now.
            width: The width the documents will be shown at; new documents are laid out
                at it before a view shows them (so they are laid out once).
            force: Render Markdown now, even within :data:`RICH_INTERVAL_S` of the last.

        Returns:
            Whether any document changed (or documents were added or removed).
        """
        if text is not self._seen_text or final != self._seen_final:
            if not force and self._append_plain(text, final):
                return True
            self._seen_text, self._seen_final = text, final
        elif not self.pending and not (self.stale and (force or self.rich_due_in() <= 0)):
            return False
        self._feed(text, final)
        self._width = width
        deadline = None if budget is None else time.perf_counter() + budget
        changed = self._sync(self._splitter.chunks, deadline)
        self._rich_at = time.perf_counter()
        return changed

    @property
    def stale(self) -> bool:
        """Whether plain text was appended since the last Markdown render."""
        return self._appended is not None

    def rich_due_in(self) -> float:
        """Seconds until the next Markdown render is allowed (``<= 0``: now)."""
        return self._rich_at + RICH_INTERVAL_S - time.perf_counter()

    def _feed(self, text: str, final: bool) -> None:
        """Split ``text`` unless the splitter has already seen exactly it."""
        if text is self._fed[0] and final == self._fed[1]:
            return
        if self._fed[0] is None:
            RENDER_STATS.full_renders += 1
        restarts = self._splitter.restarts
        self._splitter.feed(text, final)
        if self._splitter.restarts != restarts:
            RENDER_STATS.full_renders += 1
        self._fed = (text, final)

    def _append_plain(self, text: str, final: bool) -> bool:
        """Show the text added since the last update as plain text, if allowed now."""
        seen = self._seen_text
        if (
            final
            or self.pending
            or not self._states
            or seen is None
            or len(text) <= len(seen)
            or self.rich_due_in() <= 0
            or not text.startswith(seen)
        ):
            return False
        state = self._states[-1]
        part = state.tail or state.head
        if part is None:
            return False
        _append_text(part.doc, text[len(seen) :])
        part.edits += 1
        self._appended = state
        self._seen_text = text
        RENDER_STATS.plain_appends += 1
        return True

    @property
    def parts(self) -> list[RenderedDoc]:
        """The documents to show, in order."""
        out = []
        for state in self._states:
            if state.head is not None:
                out.append(state.head)
            if state.tail is not None:
                out.append(state.tail)
        return out

    def _sync(self, chunks: list[Chunk], deadline: float | None) -> bool:
        if self._appended is not None:
            self._appended.invalidate()
            self._appended = None
        changed = len(chunks) < len(self._states)
        del self._states[len(chunks) :]
        self.pending = False
        worked = False
        for i, chunk in enumerate(chunks):
            if i >= len(self._states) or self._states[i].chunk is not chunk:
                del self._states[i:]
                self._states.append(_ChunkState(chunk))
                changed = True
            state = self._states[i]
            todo = (
                state.units != len(chunk.units)
                or (chunk.units and state.last_unit is not chunk.units[-1])
                or state.tail_unit != chunk.tail
            )
            if not todo:
                continue
            if worked and _RenderCost.over(deadline, chunk.size):
                self.pending = True  # at least one document per call: rendering progresses
                break
            worked = True
            if not self._render_state(state, deadline):
                self.pending = True
                break
            changed = True
        return changed

    def _render_state(self, state: _ChunkState, deadline: float | None = None) -> bool:
        """Render what changed in the chunk; whether it is shown (``False``: the budget
        ran out between its new head and its tail, which follow together next time)."""
        chunk = state.chunk
        last = chunk.units[-1] if chunk.units else None
        if state.units != len(chunk.units) or state.last_unit is not last:
            ready = state.ready_head
            if ready is None or ready[0] != len(chunk.units) or ready[1] is not last:
                if self._lexed_over(chunk, deadline):
                    return False  # the head's code is lexed; its render comes next pass
                source = "".join(unit.source for unit in chunk.units)
                head = self._render_doc(source, open_fence=False) if source else None
                if (
                    ready is None  # split a chunk's work once, so it is shown in the end
                    and chunk.tail is not None
                    and state.tail_unit != chunk.tail
                    and _RenderCost.over(deadline, len(chunk.tail.source))
                ):
                    state.ready_head = (len(chunk.units), last, head)
                    return False
                ready = (len(chunk.units), last, head)
            state.units, state.last_unit, state.head = ready
            state.ready_head = None
        if state.tail_unit != chunk.tail:
            tail = state.tail_unit = chunk.tail
            if tail is None:
                state.tail = None
            else:
                RENDER_STATS.tail_renders += 1
                state.tail = self._render_doc(tail.source, open_fence=tail.kind == "code")
        return True

    def _lexed_over(self, chunk: Chunk, deadline: float | None) -> bool:
        """Lex the chunk's new code blocks first; whether that left too little of the
        budget for the render (which then follows in a pass of its own)."""
        if deadline is None or self.plain:
            return False
        style = self.styler.palette.pygments_style
        lexed = False
        for unit in chunk.units:
            if unit.kind == "code" and unit.text:
                lexed = lex_ahead(unit.text, unit.lang, style) or lexed
        return lexed and _RenderCost.over(deadline, chunk.size)

    def _render_doc(self, source: str, open_fence: bool) -> RenderedDoc:
        # A fresh, detached document: styling an attached one would re-layout after every
        # cursor edit. It is laid out once at the view's width, then swapped in.
        RENDER_STATS.chunk_renders += 1
        RENDER_STATS.chars_rendered += len(source)
        started = time.perf_counter()
        doc = new_document(self.styler.palette)
        rendered = RenderedDoc(doc)
        if self.plain:
            doc.setPlainText(source.rstrip("\n"))
        else:
            source, formulas = protect_math(source)
            doc.setMarkdown(source, MARKDOWN_FEATURES)
            rendered.codes = self.styler.style(doc, highlight_last=not open_fence)
            if formulas:
                colors = self.styler.palette
                insert_math(doc, formulas, math_renderer(), colors.text, colors.muted, rendered)
        if self._width > 0:
            doc.setTextWidth(self._width)
            doc.size()  # lay out now, detached
        _RenderCost.record(len(source), time.perf_counter() - started)
        return rendered

    def plain_text(self) -> str:
        """What the documents show, as plain text (for tests and accessibility)."""
        return "\n".join(part.doc.toPlainText() for part in self.parts)


def _append_text(doc: QTextDocument, text: str) -> None:
    """Append ``text`` at the end of ``doc`` in the default format.

    It continues the last block (a paragraph, list item or code line goes on as written),
    except an empty fixed-height spacer block, which would hide it.
    """
    cursor = QTextCursor(doc)
    cursor.movePosition(QTextCursor.MoveOperation.End)
    block = cursor.block()
    fixed = QTextBlockFormat.LineHeightTypes.FixedHeight.value
    if block.length() <= 1 and block.blockFormat().lineHeightType() == fixed:
        cursor.insertBlock(QTextBlockFormat(), _PLAIN)
    cursor.insertText(text, _PLAIN)


_PLAIN = QTextCharFormat()


class TextRenderCache:
    """An LRU of :class:`TextRender`\\ s by (message id, block index, flavour).

    Finished messages are rendered once and reused when their row scrolls back into view;
    a streaming message's render is the same object, updated in place.
    """

    def __init__(self, capacity: int = 300) -> None:
        """Create an empty cache holding at most ``capacity`` renders."""
        self._capacity = capacity
        self._items: OrderedDict[tuple[str, int, str], TextRender] = OrderedDict()

    def get(self, key: tuple[str, int, str], styler: DocumentStyler, plain: bool) -> TextRender:
        """The render for ``key``, created empty if absent."""
        render = self._items.get(key)
        if render is None:
            render = TextRender(styler, plain)
            self._items[key] = render
            if len(self._items) > self._capacity:
                self._items.popitem(last=False)
        else:
            self._items.move_to_end(key)
        return render

    def clear(self) -> None:
        """Forget every render (e.g. after a theme change)."""
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
