"""Finding LaTeX math in Markdown: ``$…$``, ``$$…$$``, ``\\(…\\)`` and ``\\[…\\]``. No Qt here.

The rules are the usual ones (Pandoc's ``tex_math_dollars``): an inline ``$`` opens only if a
non-space follows it and closes only if a non-space precedes it and no digit follows it, so
"$5 and $10" stays text. A formula never spans a blank line, never starts inside a code span
or fenced code block, and an escaped ``\\$`` is a dollar sign. An unclosed delimiter is text:
while a reply streams, ``$$`` shows as written until its closing ``$$`` arrives.

:func:`protect_math` swaps each formula for one private-use character (which Qt's Markdown
importer passes through untouched), so LaTeX such as ``a_1 * b_2`` never becomes emphasis;
the renderer then swaps those characters for the typeset formulas.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PLACEHOLDER_BASE = 0xE000
"""The first private-use code point used for placeholders."""
MAX_FORMULAS = 0xF8FF - PLACEHOLDER_BASE
"""At most this many formulas per protected text (the rest stay text)."""

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
_CANDIDATE = re.compile(r"\$|\\[\\(\[]")


@dataclass(frozen=True)
class MathSpan:
    """One formula found in a text.

    Attributes:
        start: Offset of the opening delimiter.
        end: Offset just past the closing delimiter.
        latex: The LaTeX between the delimiters, stripped.
        display: ``$$…$$`` or ``\\[…\\]`` (centred on a line of its own when alone there).
    """

    start: int
    end: int
    latex: str
    display: bool

    @property
    def source(self) -> str:
        """The formula as written, with its delimiters (what "Copy" gives)."""
        open_, close = ("$$", "$$") if self.display else ("$", "$")
        return f"{open_}{self.latex}{close}"


def _code_ranges(text: str) -> list[tuple[int, int]]:
    """Offsets of fenced code blocks and inline code spans (never math)."""
    ranges: list[tuple[int, int]] = []
    pos = 0
    fence: str | None = None
    fence_start = 0
    prose_start = 0
    for line in text.splitlines(keepends=True):
        match = _FENCE.match(line)
        if fence is None and match:
            ranges += _code_spans(text, prose_start, pos)
            fence, fence_start = match.group(1), pos
        elif (
            fence is not None
            and line.strip().startswith(fence)
            and not line.strip(fence[0]).strip()
        ):
            ranges.append((fence_start, pos + len(line)))
            fence = None
            prose_start = pos + len(line)
        pos += len(line)
    if fence is not None:
        ranges.append((fence_start, len(text)))
    else:
        ranges += _code_spans(text, prose_start, len(text))
    return ranges


def _code_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    pos = start
    while True:
        open_at = text.find("`", pos, end)
        if open_at < 0:
            return spans
        run = open_at
        while run < end and text[run] == "`":
            run += 1
        ticks = text[open_at:run]
        close = re.compile(rf"(?<!`){ticks}(?!`)").search(text, run, end)
        if close is None:
            pos = run  # an unmatched run is literal backticks
            continue
        spans.append((open_at, close.end()))
        pos = close.end()


def _escaped(text: str, index: int) -> bool:
    backslashes = 0
    while index - backslashes - 1 >= 0 and text[index - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def _no_blank_line(body: str) -> bool:
    return re.search(r"\n[ \t]*\n", body) is None


def _match_at(text: str, i: int) -> MathSpan | None:
    """The formula opening at offset ``i``, if one does."""
    two = text[i : i + 2]
    if two == "$$":
        close = text.find("$$", i + 2)
        while close >= 0 and _escaped(text, close):
            close = text.find("$$", close + 1)
        body = text[i + 2 : close] if close >= 0 else ""
        if close >= 0 and body.strip() and _no_blank_line(body):
            return MathSpan(i, close + 2, body.strip(), True)
        return None
    if two in ("\\[", "\\("):
        closer = "\\]" if two == "\\[" else "\\)"
        close = text.find(closer, i + 2)
        body = text[i + 2 : close] if close >= 0 else ""
        if close >= 0 and body.strip() and _no_blank_line(body):
            return MathSpan(i, close + 2, body.strip(), two == "\\[")
        return None
    if text[i] == "$":
        return _inline_dollar(text, i)
    return None


def _inline_dollar(text: str, i: int) -> MathSpan | None:
    if i + 1 >= len(text) or text[i + 1].isspace():
        return None
    close = i + 1
    while True:
        close = text.find("$", close)
        if close < 0:
            return None
        if not _escaped(text, close):
            break
        close += 1
    body = text[i + 1 : close]
    after = text[close + 1 : close + 2]
    if text[close - 1].isspace() or after.isdigit() or after == "$" or not _no_blank_line(body):
        return None  # the first unescaped "$" after the opening one must close it
    return MathSpan(i, close + 1, body.strip(), False)


def find_math(text: str) -> list[MathSpan]:
    """The formulas in Markdown ``text``, in order, outside code."""
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        return []
    code = _code_ranges(text)
    spans: list[MathSpan] = []
    i = 0
    code_index = 0
    while i < len(text):
        while code_index < len(code) and code[code_index][1] <= i:
            code_index += 1
        if code_index < len(code) and code[code_index][0] <= i:
            i = code[code_index][1]
            continue
        candidate = _CANDIDATE.search(text, i)
        if candidate is None:
            break
        if candidate.start() != i:
            i = candidate.start()
            continue
        char = text[i]
        if char == "$" and _escaped(text, i):
            i += 1
            continue
        if char == "\\" and _escaped(text, i):
            i += 1
            continue
        span = _match_at(text, i)
        if span is None or any(start < span.end and span.start < end for start, end in code):
            # "$$" that does not close is text as a pair (never "$" + an inline opening)
            i += 2 if text[i : i + 2] in ("\\\\", "$$") else 1
            continue
        spans.append(span)
        i = span.end
    return spans


def protect_math(markdown: str) -> tuple[str, list[MathSpan]]:
    """Replace each formula of ``markdown`` by a placeholder character.

    Returns:
        The text with placeholders (``chr(PLACEHOLDER_BASE + n)`` for the n-th formula) and
        the formulas. A text that already holds private-use characters is left alone.
    """
    spans = find_math(markdown)
    if not spans or _PRIVATE_USE.search(markdown):
        return markdown, []
    spans = spans[:MAX_FORMULAS]
    out: list[str] = []
    pos = 0
    for n, span in enumerate(spans):
        out += [markdown[pos : span.start], chr(PLACEHOLDER_BASE + n)]
        pos = span.end
    out.append(markdown[pos:])
    return "".join(out), spans


def placeholder_index(char: str) -> int:
    """The formula index a placeholder character stands for (``-1`` if it is none)."""
    index = ord(char) - PLACEHOLDER_BASE if len(char) == 1 else -1
    return index if 0 <= index < MAX_FORMULAS else -1
