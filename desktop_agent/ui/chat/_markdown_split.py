"""Incremental splitting of growing Markdown into units and chunks.

Why: re-rendering a whole reply on every flush is quadratic in its length. A streamed text
only ever grows, so we scan each complete line once and cut the text at *safe* boundaries —
a blank line followed by a line that cannot continue the previous block (not indented, not a
list item), and the edges of fenced code blocks. Text between boundaries is a *unit*,
rendered once; only the unfinished tail is re-rendered. Units are grouped into *chunks* of
about ``chunk_chars`` characters, one document each, which bounds what a re-render of the
open chunk costs. Boundaries depend on the text alone, never on how it arrived, so a
streamed render equals a fresh render of the same text. No Qt here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

_FENCE_OPEN = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_LIST_ITEM = re.compile(r"^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")
DEFAULT_CHUNK_CHARS = 700


@dataclass(frozen=True)
class Unit:
    """A piece of Markdown rendered on its own: prose, or one fenced code block.

    Attributes:
        kind: ``"md"`` or ``"code"``.
        text: The Markdown, or the code without fences and fence indentation.
        lang: Code only: the fence's info word (language), may be empty.
        source: The unit's Markdown source as written (with fences for code).
    """

    kind: Literal["md", "code"]
    text: str
    lang: str = ""
    source: str = ""


@dataclass
class Chunk:
    """Consecutive units shown as one document.

    Attributes:
        units: Complete units, each rendered once.
        tail: The unfinished last unit (re-rendered whenever it grows), or ``None``.
        closed: Whether the chunk is full (later text goes to a new chunk).
        version: Bumped on every change, so renderers re-render only what changed.
    """

    units: list[Unit] = field(default_factory=list)
    tail: Unit | None = None
    closed: bool = False
    version: int = 0
    size: int = 0


@dataclass
class _Fence:
    char: str
    length: int
    indent: int
    lang: str
    start: int = 0  # offset of the first code line
    open_start: int = 0  # offset of the opening fence line


def _fence_open(line: str) -> _Fence | None:
    match = _FENCE_OPEN.match(line.rstrip("\r\n"))
    if match is None:
        return None
    indent, marks, info = match.groups()
    if marks[0] == "`" and "`" in info:
        return None
    words = info.split()
    return _Fence(marks[0], len(marks), len(indent), words[0] if words else "")


def _fence_closes(line: str, fence: _Fence) -> bool:
    stripped = line.rstrip("\r\n")
    body = stripped.lstrip(" ")
    if len(stripped) - len(body) > 3:
        return False
    marks = body.rstrip()
    return len(marks) >= fence.length and marks == fence.char * len(marks)


def _dedent(code: str, indent: int) -> str:
    if indent == 0:
        return code
    out = []
    for line in code.split("\n"):
        spaces = len(line) - len(line.lstrip(" "))
        out.append(line[min(spaces, indent) :])
    return "\n".join(out)


def _starts_new_block(line: str) -> bool:
    """Whether a line after a blank line surely starts a new top-level block."""
    return line[:1] not in (" ", "\t") and _LIST_ITEM.match(line) is None


class MarkdownSplitter:
    """Splits a growing Markdown text into :class:`Chunk`\\ s, scanning each line once.

    Feed it the whole text each time (it must extend the previous text; otherwise it starts
    over and counts a restart). ``final=True`` treats a last line without newline as
    complete and closes an unterminated fence, as a Markdown parser would at end of input.
    """

    def __init__(self, chunk_chars: int = DEFAULT_CHUNK_CHARS) -> None:
        """Create a splitter; chunks close once they hold ``chunk_chars`` characters."""
        self._chunk_chars = chunk_chars
        self.restarts = 0
        self._clear()

    def _clear(self) -> None:
        self.chunks: list[Chunk] = []
        self._text = ""
        self._pos = 0
        self._unit_start = 0
        self._fence: _Fence | None = None
        self._prev_blank = False
        self._final = False
        self._pending_space = ""

    def feed(self, text: str, final: bool = False) -> None:
        """Take the current full text; update :attr:`chunks` (bumping changed versions)."""
        if self._final or not text.startswith(self._text):
            if self._text:
                self.restarts += 1
            self._clear()
        self._text = text
        self._scan_lines(text)
        if final:
            self._finish(text)
        else:
            self._set_tail(self._tail_unit(text))

    # -- scanning ----------------------------------------------------------------------

    def _scan_lines(self, text: str) -> None:
        pos = self._pos
        while True:
            end = text.find("\n", pos)
            if end < 0:
                break
            self._scan_line(text, pos, end + 1)
            pos = end + 1
        self._pos = pos

    def _scan_line(self, text: str, start: int, end: int) -> None:
        line = text[start:end]
        if self._fence is not None:
            if _fence_closes(line, self._fence):
                self._close_fence(text, start, end)
            return
        fence = _fence_open(line)
        if fence is not None:
            self._close_md(text, start)
            fence.open_start, fence.start = start, end
            self._fence = fence
            return
        blank = not line.strip()
        if not blank and self._prev_blank and _starts_new_block(line):
            self._close_md(text, start)
        self._prev_blank = blank

    def _close_md(self, text: str, end: int) -> None:
        unit_text = text[self._unit_start : end]
        self._unit_start = end
        if unit_text.strip():
            self._add_unit(
                Unit("md", self._pending_space + unit_text, source=self._pending_space + unit_text)
            )
            self._pending_space = ""
        elif unit_text:
            self._keep_space(unit_text)

    def _keep_space(self, space: str) -> None:
        """Blank lines between units: appended to the previous unit's source (or the next
        unit's, at the start), so sources still reassemble the text exactly."""
        chunk = next((c for c in reversed(self.chunks) if c.units), None)
        if chunk is None:
            self._pending_space += space
            return
        last = chunk.units[-1]
        chunk.units[-1] = replace(last, source=last.source + space)
        chunk.size += len(space)
        chunk.version += 1

    def _close_fence(self, text: str, end: int, next_start: int) -> None:
        fence = self._fence
        assert fence is not None
        code = _fence_code(text[fence.start : end], fence)
        source = self._pending_space + text[fence.open_start : next_start]
        self._pending_space = ""
        self._add_unit(Unit("code", code, fence.lang, source))
        self._fence = None
        self._unit_start = next_start
        self._prev_blank = False

    def _open_chunk(self) -> Chunk:
        if not self.chunks or self.chunks[-1].closed:
            self.chunks.append(Chunk())
        return self.chunks[-1]

    def _add_unit(self, unit: Unit) -> None:
        chunk = self._open_chunk()
        chunk.units.append(unit)
        chunk.size += len(unit.source)
        chunk.tail = None
        chunk.version += 1
        if chunk.size >= self._chunk_chars:
            chunk.closed = True

    # -- the unfinished end ------------------------------------------------------------

    def _tail_unit(self, text: str) -> Unit | None:
        fence = self._fence
        if fence is not None:
            code = _fence_code(text[fence.start :], fence)
            return Unit("code", code, fence.lang, text[fence.open_start :])
        tail = text[self._unit_start :]
        return Unit("md", tail, source=tail) if tail.strip() else None

    def _set_tail(self, tail: Unit | None) -> None:
        last = self.chunks[-1] if self.chunks and not self.chunks[-1].closed else None
        if last is None:
            if tail is None:
                return
            last = self._open_chunk()
        if last.tail != tail:
            last.tail = tail
            last.version += 1

    def _finish(self, text: str) -> None:
        self._final = True
        if self._pos < len(text):
            self._scan_line(text, self._pos, len(text))
            self._pos = len(text)
        if self._fence is not None:
            self._close_fence(text, len(text), len(text))
        self._close_md(text, len(text))
        if self.chunks and not self.chunks[-1].closed:
            last = self.chunks[-1]
            if not last.units:
                self.chunks.pop()
                return
            last.tail = None
            last.closed = True
            last.version += 1


def _fence_code(code: str, fence: _Fence) -> str:
    code = _dedent(code, fence.indent)
    return code[:-1] if code.endswith("\n") else code


def split_markdown(text: str, chunk_chars: int = DEFAULT_CHUNK_CHARS) -> list[Chunk]:
    """Split a complete text (``final=True``) into chunks."""
    splitter = MarkdownSplitter(chunk_chars)
    splitter.feed(text, final=True)
    return splitter.chunks
