"""Typeset LaTeX math in the chat pane's Markdown documents.

Formulas found by :mod:`._math_detect` are typeset by ``ziamath`` (pure Python, LaTeX →
MathML → SVG paths with its bundled STIX Two Math font) and rasterized by ``QSvgRenderer`` in
a helper process (:mod:`desktop_agent.ui._math_worker`): a formula costs 5–35 ms of Python,
which in a thread of the app starves the GUI through the GIL. Until its image is ready a
formula shows as its LaTeX source; then the waiting documents are patched in place
(:attr:`MathRenderer.changed` tells the pane to re-measure them) and later renders take the
image from the cache.

Inline formulas sit on the text baseline: Qt centres an inline image with ``AlignMiddle``
half an x-height above the baseline, so each image is padded to put the formula's own
baseline exactly there. A formula alone in its paragraph in display style is centred. The
image's tooltip and a click give its LaTeX source, and so does copying a selection holding it.
"""

from __future__ import annotations

import re
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QCoreApplication,
    QObject,
    QRunnable,
    Qt,
    QThreadPool,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontInfo,
    QFontMetrics,
    QGuiApplication,
    QImage,
    QPixmap,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextImageFormat,
)

from desktop_agent.ui._math_worker import RawImage, TypesetProcess, typeset_raw
from desktop_agent.ui.chat._math_detect import MathSpan, placeholder_index

if TYPE_CHECKING:
    from desktop_agent.ui.chat._markdown import RenderedDoc

MATH_SCHEME = "copymath"
"""The scheme of a formula's link: a click copies its LaTeX source."""
MATH_SOURCE = QTextFormat.Property.UserProperty + 16
"""The char-format property holding a formula's LaTeX source (with delimiters)."""
INLINE_SCALE = 1.2
"""Formula size relative to the surrounding text's pixel size (inline math)."""
DISPLAY_SCALE = 1.3
"""Formula size relative to the surrounding text's pixel size (display math)."""
_CACHE_SIZE = 2000
_POLL_MS = 15
_PLACEHOLDER_CHARS = re.compile("[\ue000-\uf8ff]")


@dataclass(frozen=True)
class MathKey:
    """What a formula image depends on."""

    latex: str
    display: bool
    color: str
    pixel_size: int
    half_x: float
    dpr: float


@dataclass
class MathImage:
    """A typeset formula, padded so that ``AlignMiddle`` puts its baseline on the text's.

    Attributes:
        image: The image (``None`` if typesetting failed).
        width: Logical width in pixels.
        height: Logical height in pixels (padding included).
        error: Why typesetting failed.
        pixmap: The image as a pixmap, made on the GUI thread when first shown.
    """

    image: QImage | None
    width: float = 0.0
    height: float = 0.0
    error: str = ""
    pixmap: QPixmap | None = None


@dataclass
class _Waiting:
    rendered: weakref.ref[RenderedDoc]
    cursor: QTextCursor
    span: MathSpan


@dataclass
class MathStats:
    """Counters for tests and benchmarks."""

    typeset: int = 0
    patched: int = 0
    failures: list[str] = field(default_factory=list)


def _image(raw: RawImage | str) -> MathImage:
    if isinstance(raw, str):
        return MathImage(None, error=raw)
    pixels, pixels_w, pixels_h, width, height = raw
    image = QImage(pixels, pixels_w, pixels_h, QImage.Format.Format_ARGB32_Premultiplied).copy()
    return MathImage(image, width, height)


def typeset(key: MathKey) -> MathImage:
    """Typeset ``key`` here, in this process (tests; the fallback without a helper)."""
    result = _image(
        typeset_raw(key.latex, key.display, key.color, key.pixel_size, key.half_x, key.dpr)
    )
    if result.image is not None:
        result.image.setDevicePixelRatio(key.dpr)
    return result


class _Relay(QObject):
    done = Signal(object, object)


class _TypesetJob(QRunnable):
    def __init__(self, relay: _Relay, key: MathKey) -> None:
        super().__init__()
        self._relay, self._key = relay, key

    def run(self) -> None:
        self._relay.done.emit(self._key, typeset(self._key))


class MathRenderer(QObject):
    """Typesets formulas in a helper process, caches them, patches documents that wait.

    Without a helper process (it could not start, or died) formulas are typeset in a
    worker thread instead: slower for the GUI (the GIL), but they still appear.
    """

    changed = Signal()
    """Documents were patched with formulas that became ready: views must re-measure."""

    def __init__(self, parent: QObject | None = None, use_process: bool = True) -> None:
        """Create the renderer; the helper process starts with the first formula."""
        super().__init__(parent)
        self._use_process = use_process
        self._helper: TypesetProcess | None = None
        self._poll = QTimer(self)
        self._poll.setInterval(_POLL_MS)
        self._poll.timeout.connect(self._collect)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)
        self._cache: OrderedDict[MathKey, MathImage] = OrderedDict()
        self._waiting: dict[MathKey, list[_Waiting]] = {}
        self.stats = MathStats()
        self._announce = QTimer(self)
        self._announce.setSingleShot(True)
        self._announce.setInterval(0)
        self._announce.timeout.connect(self.changed)

    def lookup(self, key: MathKey) -> MathImage | None:
        """The typeset formula, or ``None`` while it is being typeset (work starts now)."""
        done = self._cache.get(key)
        if done is not None:
            self._cache.move_to_end(key)
            return done
        if key not in self._waiting:
            self._waiting[key] = []
            self._start(key)
        return None

    def _start(self, key: MathKey) -> None:
        if not self._use_process:
            self._pool.start(_TypesetJob(self._relay, key))
            return
        if self._helper is None:
            self._helper = TypesetProcess()
        args = (key.latex, key.display, key.color, key.pixel_size, key.half_x, key.dpr)
        self._helper.submit(key, args)
        if not self._poll.isActive():
            self._poll.start()

    def _collect(self) -> None:
        """Take finished formulas from the helper process (a timer: no cross-thread signal)."""
        helper = self._helper
        for key, future in helper.take_done() if helper is not None else []:
            assert isinstance(key, MathKey)
            try:
                result = _image(future.result())
            except Exception:  # the helper died: typeset here from now on
                self._use_process = False
                self._pool.start(_TypesetJob(self._relay, key))
                continue
            if result.image is not None:
                result.image.setDevicePixelRatio(key.dpr)
            self._on_done(key, result)
        if helper is None or not helper.pending:
            self._poll.stop()

    def close(self) -> None:
        """Stop the helper process (at exit; formulas in flight are dropped)."""
        if self._helper is not None:
            self._helper.close()
            self._helper = None
        self._poll.stop()

    def wait(
        self, key: MathKey, rendered: RenderedDoc, cursor: QTextCursor, span: MathSpan
    ) -> None:
        """Patch ``cursor``'s selection (the formula's source) in ``rendered`` when ready."""
        self._waiting.setdefault(key, []).append(_Waiting(weakref.ref(rendered), cursor, span))

    def wait_for_done(self, timeout_s: float = 30.0) -> None:
        """Block until every formula asked for is typeset and applied (tests, screenshots)."""
        deadline = time.monotonic() + timeout_s
        while self._helper is not None and self._helper.pending:
            if time.monotonic() > deadline:
                break
            self._helper.wait(max(0.0, deadline - time.monotonic()))
            self._collect()
        self._pool.waitForDone(max(0, int((deadline - time.monotonic()) * 1000)))
        QCoreApplication.sendPostedEvents(self._relay)

    @property
    def busy(self) -> bool:
        """Whether formulas are still being typeset."""
        return bool(self._waiting)

    def _on_done(self, key: MathKey, result: MathImage) -> None:
        self.stats.typeset += 1
        if result.image is None:
            self.stats.failures.append(result.error)
            del self.stats.failures[:-50]
        self._cache[key] = result
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        patched = False
        for waiting in self._waiting.pop(key, []):
            rendered = waiting.rendered()
            cursor = waiting.cursor
            if rendered is None or cursor.selectedText() != shown_source(waiting.span):
                continue  # re-rendered (or dropped) since: the new render has it
            insert_formula(cursor, waiting.span, key, result)
            rendered.edits += 1
            self.stats.patched += 1
            patched = True
        if patched and not self._announce.isActive():
            self._announce.start()


def _pixel_size(font: QFont) -> int:
    return max(6, QFontInfo(font).pixelSize())


def formula_key(span: MathSpan, font: QFont, color: str) -> MathKey:
    """The cache key of ``span`` shown in ``font`` and ``color``."""
    app = QGuiApplication.instance()
    dpr = app.devicePixelRatio() if isinstance(app, QGuiApplication) else 1.0
    # Qt's inline-object layout uses the integer x-height: follow it exactly.
    half_x = QFontMetrics(font).xHeight() / 2
    # STIX Two Math looks smaller than UI sans fonts at the same pixel size.
    size = round(_pixel_size(font) * (DISPLAY_SCALE if span.display else INLINE_SCALE))
    return MathKey(span.latex, span.display, color, size, half_x, dpr)


def shown_source(span: MathSpan) -> str:
    """The formula's source on one line (as shown while it is typeset, or if it fails)."""
    return " ".join(span.source.split("\n"))


def insert_formula(cursor: QTextCursor, span: MathSpan, key: MathKey, result: MathImage) -> None:
    """Replace ``cursor``'s selection by the formula image (or, if it failed, its source)."""
    doc = cursor.document()
    fmt = QTextCharFormat(cursor.charFormat())
    if result.image is None:
        note = QTextCharFormat(fmt)
        note.setFontFixedPitch(True)
        text = QCoreApplication.translate(
            "MarkdownView", "Could not typeset this formula ({error})"
        )
        note.setToolTip(text.format(error=result.error))
        note.setProperty(MATH_SOURCE, span.source)
        cursor.insertText(shown_source(span), note)
        return
    if result.pixmap is None:  # on the GUI thread; a QImage resource would be converted
        result.pixmap = QPixmap.fromImage(result.image)  # to a pixmap on every paint
    name = QUrl(f"math:{abs(hash(key))}")
    doc.addResource(QTextDocument.ResourceType.ImageResource.value, name, result.pixmap)
    shown = QTextImageFormat()
    shown.setFont(fmt.font())
    shown.setName(name.toString())
    shown.setWidth(result.width)
    shown.setHeight(result.height)
    shown.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignMiddle)
    shown.setToolTip(_tooltip(span))
    shown.setAnchor(True)
    shown.setAnchorHref(
        f"{MATH_SCHEME}:{bytes(QUrl.toPercentEncoding(span.source).data()).decode()}"
    )
    shown.setProperty(MATH_SOURCE, span.source)
    cursor.insertImage(shown)


def _tooltip(span: MathSpan) -> str:
    source = span.source if len(span.source) <= 300 else span.source[:300] + "…"
    hint = QCoreApplication.translate("MarkdownView", "(click to copy the LaTeX)")
    return f"{source}\n{hint}"


def insert_math(
    doc: QTextDocument,
    spans: list[MathSpan],
    renderer: MathRenderer | None,
    color: str,
    pending_color: str,
    rendered: RenderedDoc,
) -> None:
    """Swap the placeholders of ``doc`` (made by ``protect_math``) for typeset ``spans``.

    The raw text's offsets are the document's positions; working from the last placeholder
    back keeps the earlier ones where they are (and cursors kept for later patches move
    with the edits).
    """
    cursor = QTextCursor(doc)
    found = [(m.start(), m.group()) for m in _PLACEHOLDER_CHARS.finditer(doc.toRawText())]
    for position, char in reversed(found):
        index = placeholder_index(char)
        if not 0 <= index < len(spans):
            continue
        span = spans[index]
        cursor.setPosition(position)
        cursor.setPosition(position + 1, QTextCursor.MoveMode.KeepAnchor)
        _center_if_alone(cursor, span)
        key = formula_key(span, cursor.charFormat().font(), color)
        result = renderer.lookup(key) if renderer is not None else MathImage(None, error="off")
        if result is not None:
            insert_formula(cursor, span, key, result)
        else:
            _insert_pending(cursor, span, pending_color)
            if renderer is not None:
                renderer.wait(key, rendered, QTextCursor(cursor), span)


def _insert_pending(cursor: QTextCursor, span: MathSpan, color: str) -> None:
    """Show the source while the formula is typeset; leave it selected (to be patched)."""
    start = cursor.selectionStart()
    fmt = QTextCharFormat(cursor.charFormat())
    fmt.setForeground(QColor(color))
    fmt.setProperty(MATH_SOURCE, span.source)
    shown = shown_source(span)
    cursor.insertText(shown, fmt)
    cursor.setPosition(start)
    cursor.setPosition(start + len(shown), QTextCursor.MoveMode.KeepAnchor)


def _center_if_alone(cursor: QTextCursor, span: MathSpan) -> None:
    if span.display and cursor.block().text().strip() == cursor.selectedText():
        block = QTextBlockFormat()
        block.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        cursor.mergeBlockFormat(block)


def selection_text(cursor: QTextCursor) -> str:
    """The plain text of ``cursor``'s selection with each formula as its LaTeX source."""
    doc = cursor.document()
    start, end = cursor.selectionStart(), cursor.selectionEnd()
    out: list[str] = []
    block = doc.findBlock(start)
    while block.isValid() and block.position() <= end:
        if out:
            out.append("\n")
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            lo, hi = (
                max(start, fragment.position()),
                min(end, fragment.position() + fragment.length()),
            )
            if lo < hi:
                source = fragment.charFormat().property(MATH_SOURCE)
                if fragment.charFormat().isImageFormat() and source:
                    out.append(str(source) * (hi - lo))
                else:
                    out.append(fragment.text()[lo - fragment.position() : hi - fragment.position()])
            it += 1
        block = block.next()
    return "".join(out)


def latex_of_link(url: QUrl) -> str:
    """The LaTeX source a formula's ``copymath:`` link stands for."""
    return QUrl.fromPercentEncoding(url.path().encode())


_RENDERER: MathRenderer | None = None


def math_renderer() -> MathRenderer:
    """The process-wide renderer (its cache serves every chat pane)."""
    global _RENDERER
    if _RENDERER is None:
        _RENDERER = MathRenderer()
    return _RENDERER
