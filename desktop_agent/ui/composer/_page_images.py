"""PDF pages as images for vision models (scanned pages, figures), made in a worker thread.

PDFium renders each page (:func:`desktop_agent.app._documents.render_pdf_pages`); ``QImage``
(reentrant, safe outside the GUI thread) encodes it as JPEG, which keeps a text page around
100–200 KB at 1024 pixels wide, where PNG would be several times larger.
"""

from __future__ import annotations

import base64
import threading
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImage

from desktop_agent.app._documents import render_pdf_pages
from desktop_agent.message import Base64Source, ImageBlock

JPEG_QUALITY = 85


def page_image_blocks(path: Path, cancel: threading.Event) -> tuple[list[ImageBlock], int]:
    """The first pages of the PDF at ``path`` as JPEG image blocks, and its page count."""
    pages, count = render_pdf_pages(path, cancel)
    blocks = []
    for page in pages:
        image = QImage(
            page.pixels, page.width, page.height, page.stride, QImage.Format.Format_BGR888
        )
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "JPEG", JPEG_QUALITY)  # type: ignore[call-overload]
        buffer.close()
        encoded = base64.b64encode(bytes(data.data())).decode("ascii")
        source = Base64Source(type="base64", media_type="image/jpeg", data=encoded)
        blocks.append(ImageBlock(type="image", source=source))
    return blocks, count
