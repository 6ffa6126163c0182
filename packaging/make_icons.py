"""Render the app icon's PNG sizes from its SVG (run when the SVG changes; commit the PNGs).

``.venv/bin/python packaging/make_icons.py`` reads ``resources/icons/desktop-agent.svg``
and writes ``resources/icons/desktop-agent-<size>.png`` for every size in :data:`SIZES`;
sizes up to :data:`SMALL_MAX` come from ``desktop-agent-small.svg`` instead, the same
drawing simplified on a 16-pixel grid (a scaled-down spark blurs into a blob there).
Qt's own SVG renderer (QtSvg) draws them, so no other tool is needed. The PNGs are what
the window icon and the Linux hicolor theme use: small sizes stay crisp, and a desktop
without an SVG loader still shows the icon.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QGuiApplication, QImage, QImageWriter, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"
SOURCE = ICONS / "desktop-agent.svg"
SMALL_SOURCE = ICONS / "desktop-agent-small.svg"
SIZES = (16, 32, 48, 64, 128, 256, 512)
SMALL_MAX = 24


def render(renderer: QSvgRenderer, size: int) -> QImage:
    """The SVG drawn on a transparent ``size``×``size`` image."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    return image.convertToFormat(QImage.Format.Format_ARGB32)


def png_path(size: int) -> Path:
    """Where the PNG of ``size`` pixels goes."""
    return ICONS / f"desktop-agent-{size}.png"


def main() -> int:
    """Write every PNG size; return the exit code."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed
    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderers = {source: QSvgRenderer(str(source)) for source in (SOURCE, SMALL_SOURCE)}
    for source, renderer in renderers.items():
        if not renderer.isValid():
            print(f"make_icons: cannot read {source}", file=sys.stderr)
            return 1
    for size in SIZES:
        target = png_path(size)
        renderer = renderers[SMALL_SOURCE if size <= SMALL_MAX else SOURCE]
        if not QImageWriter(str(target), QByteArray(b"png")).write(render(renderer, size)):
            print(f"make_icons: cannot write {target}", file=sys.stderr)
            return 1
        print(f"wrote {target.relative_to(ICONS.parents[1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
