"""Styling of documents built by Qt's Markdown importer, and code highlighting.

Qt's importer (md4c, C++) parses Markdown about five times faster than any pure-Python
parser and lays out tables, lists and links itself; what it cannot do — syntax highlighting,
code-block backgrounds, inline-code shading, theme link colours, a "Copy" link per code
block, refusing to load images — is one pass over the blocks it produced. Highlighting uses
Pygments tokens (cached per code text) mapped to character formats.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.styles import get_style_by_name
from pygments.token import _TokenType
from pygments.util import ClassNotFound
from PySide6.QtCore import QCoreApplication, Qt, QUrl
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrame,
    QTextFrameFormat,
    QTextImageFormat,
    QTextLength,
    QTextTable,
)

from desktop_agent.ui._plain import sentence
from desktop_agent.ui.chat._markdown_images import MarkdownImages, inline_size, load_link
from desktop_agent.ui.chat._theme import ChatPalette

MARKDOWN_FEATURES = (
    QTextDocument.MarkdownFeature.MarkdownDialectGitHub
    | QTextDocument.MarkdownFeature.MarkdownNoHTML
)
_HEADING_SIZES = {1: 1.45, 2: 1.28, 3: 1.14}
CODE_WRAP_INDENT = 18.0
"""How much further in a wrapped code line continues (so wrapping is visible)."""
_IMPORTER_MARGIN = 6.0  # what Qt's Markdown importer gives paragraphs and list items
_TOKEN_CACHE: OrderedDict[tuple[str, str, str], list[tuple[int, int, QTextCharFormat]]] = (
    OrderedDict()
)
_TOKEN_CACHE_SIZE = 512


_COMMON_LANGUAGES = ("python", "bash", "json", "javascript", "typescript")
_warmed = threading.Event()


def warm_highlighter() -> None:
    """Compile the common lexers in a background thread, once per process.

    A lexer compiles its regular expressions on first use — 50–120 ms on the GUI thread
    for the first Python or JavaScript block otherwise. The thread holds the GIL only in
    short slices, so the GUI stays responsive.
    """
    if _warmed.is_set():
        return
    _warmed.set()

    def warm() -> None:
        for lang in _COMMON_LANGUAGES:
            for _ in _lexer(lang).get_tokens("x = 1\n"):
                pass

    threading.Thread(target=warm, name="pygments-warmup", daemon=True).start()


@lru_cache(maxsize=64)
def _lexer(lang: str) -> Lexer:
    try:
        return get_lexer_by_name(lang.lower(), stripnl=False, ensurenl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)


@lru_cache(maxsize=4096)
def _token_format(style_name: str, token: _TokenType) -> QTextCharFormat | None:
    style = get_style_by_name(style_name).style_for_token(token)
    fmt = QTextCharFormat()
    if style.get("color"):
        fmt.setForeground(QColor(f"#{style['color']}"))
    if style.get("bold"):
        fmt.setFontWeight(QFont.Weight.Bold)
    if style.get("italic"):
        fmt.setFontItalic(True)
    return fmt if fmt.propertyCount() else None


def highlight_runs(code: str, lang: str, style_name: str) -> list[tuple[int, int, QTextCharFormat]]:
    """Formatted ``(start, end, format)`` runs of ``code`` (cached by code, language, style)."""
    key = (code, lang, style_name)
    runs = _TOKEN_CACHE.get(key)
    if runs is not None:
        _TOKEN_CACHE.move_to_end(key)
        return runs
    runs = []
    offset = 0
    for token, value in _lexer(lang).get_tokens(code):
        end = offset + len(value)
        fmt = _token_format(style_name, token)
        if fmt is not None and value.strip():
            if runs and runs[-1][1] == offset and runs[-1][2] is fmt:
                runs[-1] = (runs[-1][0], end, fmt)
            else:
                runs.append((offset, end, fmt))
        offset = end
    _TOKEN_CACHE[key] = runs
    if len(_TOKEN_CACHE) > _TOKEN_CACHE_SIZE:
        _TOKEN_CACHE.popitem(last=False)
    return runs


def lex_ahead(code: str, lang: str, style_name: str) -> bool:
    """Highlight ``code`` into the cache now, unless cached; whether it took any work.

    A render then styles its document with the runs ready: the lexing (a millisecond or
    two per block) can be a step of its own. Code with tabs or carriage returns is left to
    the render (the document holds it changed, so the cache would miss).
    """
    if (code, lang, style_name) in _TOKEN_CACHE or "\t" in code or "\r" in code:
        return False
    highlight_runs(code, lang, style_name)
    return True


@dataclass
class _CodeGroup:
    first: QTextBlock
    last: QTextBlock
    lang: str
    text: str


def _is_code(block: QTextBlock) -> bool:
    fmt = block.blockFormat()
    return fmt.nonBreakableLines() or fmt.hasProperty(QTextFormat.Property.BlockCodeFence)


def _code_groups(doc: QTextDocument) -> list[_CodeGroup]:
    groups: list[_CodeGroup] = []
    block = doc.begin()
    lines: list[str] = []
    while block.isValid():
        if _is_code(block):
            if lines and groups and groups[-1].last.next() == block:
                groups[-1].last = block
            else:
                lang = block.blockFormat().property(QTextFormat.Property.BlockCodeLanguage)
                groups.append(_CodeGroup(block, block, str(lang or ""), ""))
                lines = []
            lines.append(block.text())
            groups[-1].text = "\n".join(lines)
        else:
            lines = []
        block = block.next()
    return groups


class DocumentStyler:
    """Applies one palette to documents produced by ``setMarkdown``."""

    def __init__(self, palette: ChatPalette, images: MarkdownImages | None = None) -> None:
        """Prepare the formats of ``palette``; Markdown images come from ``images``."""
        self.palette = palette
        self.images = images
        self._inline_code = QTextCharFormat()
        self._inline_code.setBackground(QColor(palette.inline_code_bg))
        self._link = QTextCharFormat()
        self._link.setForeground(QColor(palette.link))
        self._link.setFontUnderline(False)
        self._code_block = QTextBlockFormat()
        self._code_block.setNonBreakableLines(False)  # long lines wrap…
        # …and show that they do: continuation lines hang further in than the line start.
        self._code_block.setLeftMargin(CODE_WRAP_INDENT)
        self._code_block.setTextIndent(-CODE_WRAP_INDENT)
        self._code_frame = QTextFrameFormat()
        self._code_frame.setBackground(QColor(palette.code_bg))
        self._code_frame.setBorder(1)
        self._code_frame.setBorderBrush(QColor(palette.code_border))
        self._code_frame.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
        self._code_frame.setPadding(8)
        self._code_frame.setTopMargin(6)
        self._code_frame.setBottomMargin(6)
        self._code_frame.setWidth(QTextLength(QTextLength.Type.PercentageLength, 100))
        self._quote = QTextCharFormat()
        self._quote.setForeground(QColor(palette.muted))
        self._quote.setFontItalic(True)
        self._paragraph = QTextBlockFormat()
        self._paragraph.setTopMargin(4)
        self._paragraph.setBottomMargin(10)
        self._list_item = QTextBlockFormat()
        self._list_item.setTopMargin(3)
        self._list_item.setBottomMargin(3)
        self._spacer_block = QTextBlockFormat()
        self._spacer_block.setLineHeight(1, QTextBlockFormat.LineHeightTypes.FixedHeight.value)
        self._header_block = QTextBlockFormat()
        self._header_block.setAlignment(Qt.AlignmentFlag.AlignRight)
        self._header_block.setBottomMargin(2)
        self._header_chars = QTextCharFormat()
        self._header_chars.setForeground(QColor(palette.muted))
        self._header_chars.setFontPointSize(max(6.0, QFont().pointSizeF() * 0.85))
        self._copy_chars = QTextCharFormat(self._header_chars)
        self._copy_chars.setForeground(QColor(palette.link))
        self._copy_chars.setAnchor(True)

    def style(self, doc: QTextDocument, highlight_last: bool = True) -> list[str]:
        """Style ``doc`` in place.

        Args:
            doc: A document just filled by ``setMarkdown``.
            highlight_last: Whether the last code block is complete (an open fence
                streaming in is shown plain until it closes).

        Returns:
            The code of each code block, in order (``copy:<n>`` links index into it).
        """
        # One edit block: otherwise each cursor move lays out its (possibly huge) block
        # again after the previous format change — 5 s for a 100 KB paragraph, not 20 ms.
        edit = QTextCursor(doc)
        edit.beginEditBlock()
        try:
            self._style_text(doc)
            self._style_tables(doc.rootFrame())
            groups = _code_groups(doc)
            for index in range(len(groups) - 1, -1, -1):
                highlight = highlight_last or index < len(groups) - 1
                self._style_code(doc, groups[index], index, highlight)
            _unbreak_table_headers(doc.rootFrame())
        finally:
            edit.endEditBlock()
        return [group.text for group in groups]

    def set_code(self, doc: QTextDocument, code: str, lang: str) -> None:
        """Fill a monospace document with highlighted ``code``."""
        doc.setPlainText(code)
        cursor = QTextCursor(doc)
        for start, end, fmt in highlight_runs(code, lang, self.palette.pygments_style):
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(fmt)

    def _style_text(self, doc: QTextDocument) -> None:
        cursor = QTextCursor(doc)
        base_size = doc.defaultFont().pointSizeF()
        block = doc.begin()
        while block.isValid():
            if not _is_code(block):
                fmt = block.blockFormat()
                level = fmt.headingLevel()
                if level:
                    self._style_heading(cursor, block, level, base_size)
                elif fmt.hasProperty(QTextFormat.Property.BlockQuoteLevel):
                    cursor.setPosition(block.position())
                    cursor.setPosition(
                        block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor
                    )
                    cursor.mergeCharFormat(self._quote)
                elif fmt.topMargin() == _IMPORTER_MARGIN == fmt.bottomMargin():
                    # Paragraphs and list items (table cells have no margins): the
                    # importer spaces both alike; paragraphs read better further apart.
                    cursor.setPosition(block.position())
                    spacing = self._list_item if block.textList() else self._paragraph
                    cursor.mergeBlockFormat(spacing)
                self._style_fragments(cursor, block)
            block = block.next()

    def _style_heading(
        self, cursor: QTextCursor, block: QTextBlock, level: int, base_size: float
    ) -> None:
        fmt = QTextCharFormat()
        fmt.setFontPointSize(base_size * _HEADING_SIZES.get(level, 1.0))
        fmt.setFontWeight(QFont.Weight.DemiBold)
        cursor.setPosition(block.position())
        cursor.setPosition(block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(fmt)
        spacing = QTextBlockFormat()
        spacing.setTopMargin(10)
        spacing.setBottomMargin(4)
        cursor.mergeBlockFormat(spacing)

    def _style_fragments(self, cursor: QTextCursor, block: QTextBlock) -> None:
        images: list[tuple[int, QTextCharFormat]] = []
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.isImageFormat():
                images.append((fragment.position(), fmt))
            elif fmt.isAnchor() or fmt.fontFixedPitch():
                cursor.setPosition(fragment.position())
                cursor.setPosition(
                    fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor
                )
                cursor.mergeCharFormat(self._link if fmt.isAnchor() else self._inline_code)
            it += 1
        for position, fmt in reversed(images):  # from the end: positions stay valid
            self._replace_image(cursor, position, fmt)

    def _replace_image(self, cursor: QTextCursor, position: int, fmt: QTextCharFormat) -> None:
        # Never let a document load an image by itself: the hub decodes off the GUI thread
        # and fetches remote images only with consent.
        image = fmt.toImageFormat()
        url = image.name()
        alt = str(image.property(QTextFormat.Property.ImageAltText) or "image")
        cursor.setPosition(position)
        cursor.setPosition(position + 1, QTextCursor.MoveMode.KeepAnchor)
        result = self.images.lookup(url) if self.images is not None else None
        if result is not None and result.image is not None and self.images is not None:
            name = self.images.resource_name(url)
            cursor.document().addResource(
                QTextDocument.ResourceType.ImageResource.value, name, result.image
            )
            shown = QTextImageFormat()
            shown.setName(name.toString())
            size = inline_size(result.image.size())
            shown.setWidth(size.width())
            shown.setHeight(size.height())
            shown.setToolTip(alt)
            cursor.insertImage(shown)
            return
        note = QTextCharFormat(self._header_chars)
        if self.images is not None and self.images.waiting_for_consent(url):
            note = QTextCharFormat(self._copy_chars)
            note.setAnchorHref(load_link(url))
            host = QUrl(url).host() or url
            text = QCoreApplication.translate(
                "MarkdownView", "🖼 {alt} — Load image from {host}"
            ).format(alt=alt, host=host)
        elif result is not None:
            text = QCoreApplication.translate(
                "MarkdownView", "🖼 {alt} — could not load the image: {reason}"
            )
            text = sentence(text.format(alt=alt, reason=result.error))
        else:
            text = QCoreApplication.translate(
                "MarkdownView", "🖼 {alt} — loading the image…"
            ).format(alt=alt)
        note.setToolTip(url if len(url) < 200 else url[:200] + "…")
        cursor.insertText(text, note)

    def _style_tables(self, frame: QTextFrame) -> None:
        for child in frame.childFrames():
            if isinstance(child, QTextTable):
                fmt = child.format()
                fmt.setBorderBrush(QBrush(QColor(self.palette.border)))
                fmt.setCellPadding(5)
                fmt.setTopMargin(4)
                fmt.setBottomMargin(4)
                child.setFormat(fmt)
                self._style_table_header(child)
            self._style_tables(child)

    def _style_table_header(self, table: QTextTable) -> None:
        for column in range(table.columns()):
            cell = table.cellAt(0, column)
            fmt = cell.format()
            fmt.setBackground(QColor(self.palette.tool_header))
            cell.setFormat(fmt)

    def _style_code(
        self, doc: QTextDocument, group: _CodeGroup, index: int, highlight: bool
    ) -> None:
        """Highlight a code block and move it into a padded frame under a Copy header."""
        cursor = QTextCursor(doc)
        start = group.first.position()
        end = group.last.position() + group.last.length() - 1
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeBlockFormat(self._code_block)
        if highlight and group.text:
            style = self.palette.pygments_style
            for run_start, run_end, fmt in highlight_runs(group.text, group.lang, style):
                cursor.setPosition(start + run_start)
                cursor.setPosition(start + run_end, QTextCursor.MoveMode.KeepAnchor)
                cursor.mergeCharFormat(fmt)
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        frame = cursor.insertFrame(self._code_frame)  # moves the selection inside
        self._collapse_empty(doc.findBlock(frame.firstPosition() - 1))
        self._collapse_empty(doc.findBlock(frame.lastPosition() + 1))
        cursor.setPosition(frame.firstPosition())
        cursor.insertBlock(self._code_block, QTextCharFormat())
        cursor.setPosition(frame.firstPosition())
        cursor.setBlockFormat(self._header_block)
        cursor.insertText(f"{lang_label(group.lang)}   ", self._header_chars)
        copy = QTextCharFormat(self._copy_chars)
        copy.setAnchorHref(f"copy:{index}")
        cursor.insertText(QCoreApplication.translate("MarkdownView", "Copy"), copy)

    def _collapse_empty(self, block: QTextBlock) -> None:
        """Give an empty spacer block around a frame no height of its own."""
        if block.isValid() and block.length() <= 1:
            cursor = QTextCursor(block)
            cursor.setBlockFormat(self._spacer_block)


def lang_label(lang: str) -> str:
    """The label of a code block's header."""
    return lang or QCoreApplication.translate("MarkdownView", "code")


def _unbreak_table_headers(frame: QTextFrame) -> None:
    """Header cells never break inside a word ("Column 0", not "Colum" / "n 0")."""
    unbroken = QTextBlockFormat()
    unbroken.setNonBreakableLines(True)
    for child in frame.childFrames():
        if isinstance(child, QTextTable):
            cursor = QTextCursor(child.document())
            for column in range(child.columns()):
                cursor.setPosition(child.cellAt(0, column).firstPosition())
                cursor.mergeBlockFormat(unbroken)
        _unbreak_table_headers(child)
