"""PDF export through Qt's own printing: ``QTextDocument`` laid out onto a ``QPdfWriter``.

No browser engine: the conversation's HTML (the ``qt`` flavor, the subset that
``QTextDocument`` lays out) is printed page by page, with images added to the document as
named resources. Works offscreen (the command line sets ``QT_QPA_PLATFORM=offscreen``
when there is no display); it needs a ``QGuiApplication``, made here if there is none.
Text stays text in the PDF (selectable, searchable), fonts embedded by Qt.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QUrl
from PySide6.QtGui import (
    QGuiApplication,
    QImage,
    QPageLayout,
    QPageSize,
    QPdfWriter,
    QTextDocument,
)

_KEEP: list[QGuiApplication] = []
_IMAGE_MAX_WIDTH = 480


def conversation_pdf(conversation: dict[str, Any], *, thinking: bool = True) -> bytes:
    """The PDF bytes of an exported conversation (A4, 15 mm margins).

    Call it on the thread that owns the ``QGuiApplication`` (the GUI thread).
    """
    _ensure_app()
    # Loaded on first export: the transfer package is not needed for the window's first paint.
    from desktop_agent.app.transfer._html import conversation_html

    rendered = conversation_html(conversation, thinking=thinking, flavor="qt")
    document = QTextDocument()
    for name, data in rendered.files.items():
        image = QImage.fromData(data)
        if not image.isNull():
            if image.width() > _IMAGE_MAX_WIDTH:
                image = image.scaledToWidth(_IMAGE_MAX_WIDTH)
            document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image)
    document.setHtml(rendered.text)
    title = str(conversation.get("title") or "Chat")
    document.setMetaInformation(QTextDocument.MetaInformation.DocumentTitle, title)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setTitle(title)
    writer.setCreator("desktop-agent")
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter)
    document.print_(writer)
    del writer  # finishes the file
    buffer.close()
    written: QByteArray = buffer.data()
    return bytes(written.data())


def _ensure_app() -> None:
    if QGuiApplication.instance() is None:
        _KEEP.append(QGuiApplication([]))


async def pdf_in_subprocess(
    root: Path, session_id: str, path: Path, *, thinking: bool = True
) -> None:
    """Print a saved session to ``path`` in a child process (the command line, offscreen).

    The window stays responsive however long the chat: Qt's layout and printing of a
    10,000-message document hold the GIL for tens of seconds.

    Raises:
        RuntimeError: The export failed (the message is the command's own).
    """
    program = (
        [sys.executable]
        if getattr(sys, "frozen", False)
        else [sys.executable, "-m", "desktop_agent"]
    )
    command = [*program, "export", session_id, "--format", "pdf", "-o", str(path)]
    if not thinking:
        command.append("--no-thinking")
    from desktop_agent.app._files import HOME_ENV

    environ = {**os.environ, HOME_ENV: str(root), "QT_QPA_PLATFORM": "offscreen"}
    child = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        env=environ,
    )
    try:
        _, errors = await child.communicate()
    except asyncio.CancelledError:
        child.kill()
        await child.wait()
        raise
    if child.returncode != 0:
        text = errors.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(
            text[-1].removeprefix("desktop-agent: ") if text else "PDF export failed"
        )
