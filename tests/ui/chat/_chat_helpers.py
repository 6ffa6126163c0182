"""Helpers for the chat pane tests: generated media, settling the view, finding rows."""

from __future__ import annotations

import base64
import io
import math
import struct
import wave

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QEvent, QIODevice
from PySide6.QtGui import QColor, QImage

from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._message_widget import MessageRow, RowWidget


def png_bytes(width: int = 64, height: int = 48, color: str = "#3366cc") -> bytes:
    """A solid PNG of the given size."""
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(color))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def png_base64(width: int = 64, height: int = 48) -> str:
    """Base64 of :func:`png_bytes`."""
    return base64.b64encode(png_bytes(width, height)).decode()


def wav_bytes(seconds: float = 2.0, rate: int = 8000) -> bytes:
    """A mono 16-bit sine WAV lasting ``seconds``."""
    out = io.BytesIO()
    with wave.open(out, "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(rate)
        handle.writeframes(
            b"".join(
                struct.pack("<h", int(6000 * math.sin(2 * math.pi * 440 * i / rate)))
                for i in range(int(seconds * rate))
            )
        )
    return out.getvalue()


def settle(view: ChatView) -> None:
    """Apply pending updates and finish rendering, as the next frames would."""
    view.flush()
    QCoreApplication.processEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    view.flush()


def row(view: ChatView, index: int) -> RowWidget:
    """The materialized row widget at ``index`` (scrolled into view if needed)."""
    settle(view)
    widget = view.list.row_widget(index)
    if widget is None:
        view.list.scroll_to_row(index)
        settle(view)
        widget = view.list.row_widget(index)
    assert widget is not None, f"row {index} is not materialized"
    return widget


def message_row(view: ChatView, index: int) -> MessageRow:
    """:func:`row`, asserting it is a message."""
    widget = row(view, index)
    assert isinstance(widget, MessageRow)
    return widget
