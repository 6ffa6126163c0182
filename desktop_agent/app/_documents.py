"""Documents attached to a message: their text, extracted, as a delimited text part.

Text and code files, Markdown, CSV and JSON are decoded as text; PDFs are read with
``pypdfium2`` (Google's PDFium in C: 5× faster than pure-Python ``pypdf`` on the 300-page
benchmark, and it releases the GIL while it works, so the window stays smooth) and Word files
with ``python-docx``. Extraction runs in a worker thread (:func:`extract_document` is
synchronous, checks a cancel flag between pages or paragraphs, and stops early once a
document is too long). A file that is too large, broken or encrypted raises
:class:`DocumentError` whose message says so; nothing is sent for it.

The model receives each document as one text part between ``<document …>`` and
``</document>`` lines naming the file, its type and size (:func:`document_part`); the chat
recognizes that part (:func:`parse_document_part`) and shows a file chip instead of the text.
"""

from __future__ import annotations

import html
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from desktop_agent._i18n import translate
from desktop_agent.formatter import EstimatingTokenCounter

DocumentKind = Literal["text", "pdf", "docx"]

MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
"""Larger files are refused before reading them."""
MAX_DOCUMENT_TOKENS = 1_000_000
"""A document whose text is estimated longer is refused (no model reads it whole); smaller
ones that would not fit the model's context are sent only after a warning."""
MAX_PAGE_IMAGES = 20
"""At most this many PDF pages are sent as images."""
PAGE_IMAGE_WIDTH = 1024
"""The width PDF pages are rendered at for vision models (pixels)."""
DEFAULT_CONTEXT_TOKENS = 128_000
"""The context size assumed when the model's is unknown (the per-message budget)."""

TEXT_SUFFIXES = frozenset(
    [
        ".txt",
        ".md",
        ".markdown",
        ".rst",
        ".csv",
        ".tsv",
        ".json",
        ".jsonl",
        ".yaml",
        ".yml",
        ".toml",
        ".ini",
        ".cfg",
        ".conf",
        ".log",
        ".xml",
        ".html",
        ".htm",
        ".css",
        ".py",
        ".pyi",
        ".js",
        ".mjs",
        ".ts",
        ".tsx",
        ".jsx",
        ".java",
        ".kt",
        ".c",
        ".h",
        ".cc",
        ".cpp",
        ".hpp",
        ".cs",
        ".go",
        ".rs",
        ".rb",
        ".php",
        ".swift",
        ".m",
        ".scala",
        ".sh",
        ".bash",
        ".zsh",
        ".ps1",
        ".bat",
        ".sql",
        ".r",
        ".lua",
        ".pl",
        ".tex",
        ".diff",
        ".patch",
        ".env",
        ".gitignore",
        ".dockerfile",
    ]
)
_MEDIA_TYPES = {
    ".pdf": "application/pdf",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".csv": "text/csv",
    ".tsv": "text/tab-separated-values",
    ".json": "application/json",
    ".jsonl": "application/jsonl",
    ".html": "text/html",
    ".xml": "application/xml",
}
_SNIFF_BYTES = 8192
_BADGES = {".md": "MD", ".markdown": "MD", ".csv": "CSV", ".json": "JSON", ".docx": "DOCX"}
_COUNTER = EstimatingTokenCounter()
_HEADER = re.compile(
    r'^<document name="(?P<name>[^"]*)" type="(?P<type>[^"]*)" size="(?P<size>[^"]*)"'
    r'(?: pages="(?P<pages>\d+)")?>\n'
)


class DocumentError(Exception):
    """A document cannot be attached; the message says why, for the user."""


class ScannedDocument(DocumentError):
    """A PDF without a text layer: its pages are images (they can be sent as images)."""


class ExtractionCancelled(Exception):
    """The user removed the document while its text was being extracted."""


@dataclass(frozen=True)
class ExtractedDocument:
    """A document's text, ready to send.

    Attributes:
        name: The file name.
        kind: ``"text"``, ``"pdf"`` or ``"docx"``.
        media_type: Its MIME type.
        size: Its size in bytes.
        text: The extracted text.
        pages: PDF page count (``0`` for other kinds).
        tokens: Estimated tokens of the text part sent to the model.
    """

    name: str
    kind: DocumentKind
    media_type: str
    size: int
    text: str
    pages: int = 0
    tokens: int = 0

    def part(self) -> str:
        """The text part the model receives (see :func:`document_part`)."""
        return document_part(self)


def document_kind(path: Path) -> DocumentKind | None:
    """What kind of document ``path`` is by its name or first bytes; ``None``: not one."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return "pdf"
    if suffix == ".docx":
        return "docx"
    if suffix in TEXT_SUFFIXES or path.name.lower() in ("makefile", "dockerfile", "readme"):
        return "text"
    try:
        with path.open("rb") as file:
            head = file.read(_SNIFF_BYTES)
    except OSError:
        return None
    if head.startswith(b"%PDF-"):
        return "pdf"
    return "text" if head and _looks_like_text(head) else None


def _looks_like_text(head: bytes) -> bool:
    if b"\0" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3  # a character cut at the end of the sample
    return True


def badge_text(name: str) -> str:
    """The short type label of a document chip (``PDF``, ``DOCX``, ``CSV``, ``TXT``…)."""
    suffix = Path(name).suffix.lower()
    if suffix == ".pdf":
        return "PDF"
    return _BADGES.get(suffix, "TXT" if suffix in ("", ".txt", ".log") else "CODE")


def human_size(size: int) -> str:
    """``size`` bytes for people: ``"812 B"``, ``"14.2 KB"``, ``"3.1 MB"``."""
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / 1024 / 1024:.1f} MB"


def estimate_tokens(text: str) -> int:
    """Estimated model tokens of ``text`` (UTF-8 bytes / 4)."""
    return _COUNTER.count_text(text)


def extract_document(path: Path, cancel: threading.Event | None = None) -> ExtractedDocument:
    """Read ``path``'s text (run it in a worker thread).

    Raises:
        DocumentError: The file is missing, too large, too long, broken or encrypted.
        ExtractionCancelled: ``cancel`` was set.
    """
    kind = document_kind(path)
    if kind is None:
        raise DocumentError(
            translate("DocumentError", "{file} is not a text, PDF or Word document.").format(
                file=path.name
            )
        )
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DocumentError(_unreadable(path.name, exc)) from exc
    if size > MAX_DOCUMENT_BYTES:
        raise DocumentError(
            translate(
                "DocumentError", "{file} is {size}; documents over {limit} are not attached."
            ).format(file=path.name, size=human_size(size), limit=human_size(MAX_DOCUMENT_BYTES))
        )
    flag = cancel or threading.Event()
    pages = 0
    if kind == "pdf":
        text, pages = _pdf_text(path, flag)
    elif kind == "docx":
        text = _docx_text(path, flag)
    else:
        text = _plain_text(path)
    media_type = _MEDIA_TYPES.get(path.suffix.lower(), "text/plain" if kind == "text" else "")
    doc = ExtractedDocument(path.name, kind, media_type, size, text, pages)
    tokens = estimate_tokens(document_part(doc))
    if tokens > MAX_DOCUMENT_TOKENS:
        raise DocumentError(_too_long(path.name, tokens))
    return ExtractedDocument(path.name, kind, media_type, size, text, pages, tokens)


def _too_long(name: str, tokens: int) -> str:
    return translate(
        "DocumentError",
        "{file} is too long: about {tokens} tokens of text, more than the {limit} a document "
        "may have.",
    ).format(file=name, tokens=f"{tokens:,}", limit=f"{MAX_DOCUMENT_TOKENS:,}")


def _unreadable(name: str, exc: OSError) -> str:
    return translate("DocumentError", "{file} cannot be read: {error}.").format(
        file=name, error=exc.strerror or exc
    )


def _check(cancel: threading.Event, name: str, chars: int) -> None:
    if cancel.is_set():
        raise ExtractionCancelled(name)
    if chars // 4 > MAX_DOCUMENT_TOKENS * 1.1:  # stop reading early; the estimate follows
        raise DocumentError(_too_long(name, chars // 4))


def _plain_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError(_unreadable(path.name, exc)) from exc
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16", errors="replace")
    if b"\0" in data[:_SNIFF_BYTES]:
        raise DocumentError(
            translate("DocumentError", "{file} is not a text file (it holds binary data).").format(
                file=path.name
            )
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _pdf_text(path: Path, cancel: threading.Event) -> tuple[str, int]:
    import pypdfium2 as pdfium  # heavy: loaded for the first PDF

    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise DocumentError(_encrypted(path.name)) from exc
        raise DocumentError(
            translate(
                "DocumentError", "{file} is not a readable PDF (damaged, or not a PDF)."
            ).format(file=path.name)
        ) from exc
    try:
        pages: list[str] = []
        chars = 0
        for index in range(len(pdf)):
            _check(cancel, path.name, chars)
            page = pdf[index]
            textpage = page.get_textpage()
            text = textpage.get_text_bounded().replace("\r\n", "\n")
            textpage.close()
            page.close()
            pages.append(text.strip())
            chars += len(text)
        count = len(pages)
    finally:
        pdf.close()
    if not any(pages):
        raise ScannedDocument(
            translate(
                "DocumentError",
                "{file} has no text to extract (its pages are probably scanned images).",
            ).format(file=path.name)
        )
    marked = [f"[page {n}]\n{text}" for n, text in enumerate(pages, start=1)]
    return "\n\n".join(marked), count


@dataclass(frozen=True)
class PageImage:
    """A rendered PDF page: 8-bit BGR pixels, ``stride`` bytes a row."""

    pixels: bytes
    width: int
    height: int
    stride: int


def render_pdf_pages(
    path: Path,
    cancel: threading.Event | None = None,
    max_pages: int = MAX_PAGE_IMAGES,
    width: int = PAGE_IMAGE_WIDTH,
) -> tuple[list[PageImage], int]:
    """The first ``max_pages`` pages of a PDF rendered ``width`` pixels wide, and the page
    count (for vision models: scanned pages, figures). Run it in a worker thread.

    Raises:
        DocumentError: The PDF is broken or encrypted.
        ExtractionCancelled: ``cancel`` was set.
    """
    import pypdfium2 as pdfium  # heavy: loaded for the first PDF
    import pypdfium2.raw

    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        raise DocumentError(
            translate(
                "DocumentError", "{file} is not a readable PDF (damaged, or encrypted)."
            ).format(file=path.name)
        ) from exc
    images = []
    try:
        count = len(pdf)
        for index in range(min(count, max_pages)):
            if cancel is not None and cancel.is_set():
                raise ExtractionCancelled(path.name)
            page = pdf[index]
            scale = width / max(1.0, page.get_width())
            bitmap = page.render(scale=scale, force_bitmap_format=pdfium.raw.FPDFBitmap_BGR)
            pixels = bytes(bitmap.buffer)
            images.append(PageImage(pixels, bitmap.width, bitmap.height, bitmap.stride))
            bitmap.close()
            page.close()
    finally:
        pdf.close()
    return images, count


def _docx_text(path: Path, cancel: threading.Event) -> str:
    import docx  # heavy: loaded for the first Word file
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    try:
        document = docx.Document(str(path))
    except Exception as exc:  # python-docx, zipfile and lxml raise many kinds on bad files
        if _is_encrypted_office(path):
            raise DocumentError(_encrypted(path.name)) from exc
        raise DocumentError(
            translate("DocumentError", "{file} is not a readable Word document.").format(
                file=path.name
            )
        ) from exc
    lines: list[str] = []
    chars = 0
    for item in document.iter_inner_content():
        _check(cancel, path.name, chars)
        if isinstance(item, Paragraph):
            line = _paragraph_line(item)
        elif isinstance(item, Table):
            line = _table_lines(item)
        else:
            continue
        lines.append(line)
        chars += len(line)
    return "\n".join(lines).strip()


def _paragraph_line(paragraph: object) -> str:
    text = str(getattr(paragraph, "text", ""))
    style = str(getattr(getattr(paragraph, "style", None), "name", "") or "")
    if style.startswith("Heading") and style[-1:].isdigit() and text.strip():
        return "#" * int(style[-1]) + " " + text
    if style.startswith("List") and text.strip():
        return "- " + text
    return text


def _table_lines(table: object) -> str:
    rows = []
    for row in getattr(table, "rows", []):
        cells = [" ".join(cell.text.split()) for cell in row.cells]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def _is_encrypted_office(path: Path) -> bool:
    """Encrypted Office files are OLE compound files, not ZIPs."""
    try:
        with path.open("rb") as file:
            return file.read(8) == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
    except OSError:
        return False


def document_part(doc: ExtractedDocument) -> str:
    """The delimited text part of ``doc`` sent to the model."""
    pages = f' pages="{doc.pages}"' if doc.pages else ""
    name = html.escape(doc.name, quote=True)
    body = doc.text.replace("</document>", "<\\/document>")
    return (
        f'<document name="{name}" type="{doc.media_type}" size="{human_size(doc.size)}"{pages}>\n'
        f"{body}\n</document>"
    )


@dataclass(frozen=True)
class DocumentPart:
    """What :func:`parse_document_part` reads back from a text part."""

    name: str
    media_type: str
    size: str
    pages: int
    text: str


def parse_document_part(text: str) -> DocumentPart | None:
    """The document a text part carries, or ``None`` if it is ordinary text."""
    if not text.startswith("<document "):
        return None
    match = _HEADER.match(text)
    if match is None or not text.endswith("\n</document>"):
        return None
    body = text[match.end() : -len("\n</document>")].replace("<\\/document>", "</document>")
    return DocumentPart(
        html.unescape(match["name"]),
        match["type"],
        match["size"],
        int(match["pages"] or 0),
        body,
    )


def budget_warning(tokens: int, context_tokens: int = DEFAULT_CONTEXT_TOKENS) -> str:
    """A warning if attachments of ``tokens`` would not fit the context; ``""`` if they do."""
    if tokens <= context_tokens * 0.8:
        return ""
    return translate(
        "DocumentError",
        "The attached documents come to about {tokens} tokens: more than fits the model's "
        "context (about {context} tokens) with room for an answer.",
    ).format(tokens=f"{tokens:,}", context=f"{context_tokens:,}")


def _encrypted(name: str) -> str:
    return translate("DocumentError", "{file} is encrypted (password-protected).").format(file=name)
