"""Markdown → ``QTextDocument``\\ s, incrementally, with highlighted code.

Qt's own Markdown importer (md4c, C++) builds each document — measured ~5× faster than
markdown-it-py plus Pygments HTML (≈1 ms/KB parse vs ≈6 ms/KB), which is what keeps a flush
inside a frame — and :class:`DocumentStyler` adds the chat look and Pygments highlighting of
closed code fences. A text block is split by :class:`MarkdownSplitter` into chunks of under
a kilobyte, one document each, plus a document for the unfinished tail: a streaming reply
re-renders only what changed since the last unit boundary.
:data:`RENDER_STATS` counts the work so tests and benchmarks can check it stays linear.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field

from PySide6.QtGui import QFontDatabase, QTextDocument

from desktop_agent.ui.chat._doc_style import MARKDOWN_FEATURES, DocumentStyler
from desktop_agent.ui.chat._markdown_split import Chunk, MarkdownSplitter, Unit
from desktop_agent.ui.chat._theme import ChatPalette


@dataclass
class RenderStats:
    """Counters of rendering work (process-wide; tests reset them).

    Attributes:
        full_renders: Text blocks rendered from scratch (first render, or text replaced).
        chunk_renders: Documents built (chunk heads and tails).
        chars_rendered: Markdown characters handed to the importer, in total.
        tail_renders: Documents built for an unfinished tail.
    """

    full_renders: int = 0
    chunk_renders: int = 0
    chars_rendered: int = 0
    tail_renders: int = 0

    def reset(self) -> None:
        """Zero every counter."""
        for name in self.__dataclass_fields__:
            setattr(self, name, 0)


RENDER_STATS = RenderStats()


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
    """

    doc: QTextDocument
    codes: list[str] = field(default_factory=list)


@dataclass
class _ChunkState:
    """What of a chunk is rendered: its complete units (head) and its unfinished tail."""

    chunk: Chunk
    units: int = 0
    last_unit: Unit | None = None
    head: RenderedDoc | None = None
    tail_unit: Unit | None = None
    tail: RenderedDoc | None = None


class TextRender:
    """One text block rendered as documents, updated incrementally.

    Each chunk's complete units form one document, re-rendered only when a unit
    completes; the unfinished tail of the last chunk is a document of its own, re-rendered
    as it grows. So a flush costs about the new text, not the chunk. With a time budget an
    update stops once the budget is spent and :attr:`pending` says more work is due (a huge
    reply appears over a few frames instead of freezing one).
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

    def update(self, text: str, final: bool, budget: float | None = None, width: int = 0) -> bool:
        """Render ``text`` (the block's full current text).

        Args:
            text: The whole current text of the block.
            final: Whether the text is complete (the message finished streaming).
            budget: Seconds of work allowed; ``None`` renders everything now.
            width: The width the documents will be shown at; new documents are laid out
                at it before a view shows them (so they are laid out once).

        Returns:
            Whether any document changed (or documents were added or removed).
        """
        if text is not self._seen_text or final != self._seen_final:
            if self._seen_text is None:
                RENDER_STATS.full_renders += 1
            restarts = self._splitter.restarts
            self._splitter.feed(text, final)
            if self._splitter.restarts != restarts:
                RENDER_STATS.full_renders += 1
            self._seen_text, self._seen_final = text, final
        elif not self.pending:
            return False
        self._width = width
        deadline = None if budget is None else time.perf_counter() + budget
        return self._sync(self._splitter.chunks, deadline)

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
            if worked and deadline is not None and time.perf_counter() > deadline:
                self.pending = True  # at least one chunk per call, so rendering progresses
                break
            self._render_state(state)
            worked = changed = True
        return changed

    def _render_state(self, state: _ChunkState) -> None:
        chunk = state.chunk
        last = chunk.units[-1] if chunk.units else None
        if state.units != len(chunk.units) or state.last_unit is not last:
            state.units, state.last_unit = len(chunk.units), last
            source = "".join(unit.source for unit in chunk.units)
            state.head = self._render_doc(source, open_fence=False) if source else None
        if state.tail_unit != chunk.tail:
            tail = state.tail_unit = chunk.tail
            if tail is None:
                state.tail = None
            else:
                RENDER_STATS.tail_renders += 1
                state.tail = self._render_doc(tail.source, open_fence=tail.kind == "code")

    def _render_doc(self, source: str, open_fence: bool) -> RenderedDoc:
        # A fresh, detached document: styling an attached one would re-layout after every
        # cursor edit. It is laid out once at the view's width, then swapped in.
        RENDER_STATS.chunk_renders += 1
        RENDER_STATS.chars_rendered += len(source)
        doc = new_document(self.styler.palette)
        rendered = RenderedDoc(doc)
        if self.plain:
            doc.setPlainText(source.rstrip("\n"))
        else:
            doc.setMarkdown(source, MARKDOWN_FEATURES)
            rendered.codes = self.styler.style(doc, highlight_last=not open_fence)
        if self._width > 0:
            doc.setTextWidth(self._width)
            doc.size()  # lay out now, detached
        return rendered

    def plain_text(self) -> str:
        """What the documents show, as plain text (for tests and accessibility)."""
        return "\n".join(part.doc.toPlainText() for part in self.parts)


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
