"""Typesetting LaTeX into image bytes, run in a helper process by the chat pane's math.

ziamath is pure Python: typesetting one formula holds the GIL for 5–35 ms, and in a thread of
the app it starved the GUI thread (measured with 200 formulas streaming: GUI stall p99 63 ms,
the stream 4× slower). So formulas are typeset in a process of their own, at a lower CPU
priority, which also rasterizes them (QtGui and QtSvg work without a ``QGuiApplication`` for
paths); the app receives raw premultiplied ARGB32 pixels. Here, outside ``ui.chat``, so the
helper process imports only this module, ziamath and QtGui/QtSvg.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import warnings
from types import ModuleType

RawImage = tuple[bytes, int, int, float, float]
"""Pixels (ARGB32 premultiplied), pixel width and height, logical width and height."""


def init_worker() -> None:
    """Run the helper process below the GUI's priority (where the OS allows it)."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(10)


@functools.cache
def _ziamath() -> ModuleType:
    """Import ziamath (once; ~0.25 s) set up for ``QSvgRenderer``."""
    with warnings.catch_warnings():
        # ziafont 0.11 calls importlib.resources.path (deprecated) at import time.
        warnings.simplefilter("ignore", DeprecationWarning)
        import ziamath

    ziamath.config.svg2 = False  # QSvgRenderer reads SVG 1.1 / Tiny (xlink:href)
    return ziamath


def typeset_raw(
    latex: str, display: bool, color: str, pixel_size: int, half_x: float, dpr: float
) -> RawImage | str:
    """Typeset ``latex``; its pixels, or why it failed (raises nothing).

    The image is padded so that Qt, which gives an ``AlignMiddle`` inline image ascent
    ``(h + half_x) / 2`` and descent ``(h - half_x) / 2``, puts the formula's baseline on
    the text's baseline.
    """
    try:
        formula = _ziamath().Latex(latex, size=pixel_size, color=color, inline=not display)
        svg = formula.svg()
        bbox, margin = formula.node.bbox, formula.margin
    except Exception as exc:  # ziamath raises many kinds on bad LaTeX
        return f"{type(exc).__name__}: {exc}"[:200]
    from PySide6.QtCore import QByteArray, QRectF, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    ascent, descent = bbox.ymax + margin, -bbox.ymin + margin
    width = bbox.xmax - bbox.xmin + 2 * margin
    excess = (ascent - descent) - half_x
    top, bottom = max(0.0, -excess), max(0.0, excess)
    height = ascent + descent + top + bottom
    pixels_w, pixels_h = max(1, math.ceil(width * dpr)), max(1, math.ceil(height * dpr))
    image = QImage(pixels_w, pixels_h, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    target = QRectF(0, top * dpr, width * dpr, (ascent + descent) * dpr)
    QSvgRenderer(QByteArray(svg.encode())).render(painter, target)
    painter.end()
    return bytes(image.constBits()), pixels_w, pixels_h, width, height
