"""Issue 20, item 1: a file is copied when it is attached, not when the message is sent.

Attach an image, delete (or move) the original, then send: the request to the real
loopback server still carries the image, and the chat shows it.
"""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path

from _window_helpers import send
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from desktop_agent.app import TurnFinished
from desktop_agent.testing import OpenAICompatServer, ScriptedReply
from desktop_agent.ui.window import DesktopApp


def _green_png(path: Path) -> bytes:
    image = QImage(24, 24, QImage.Format.Format_RGB32)
    image.fill(QColor("green"))
    assert image.save(str(path))
    return path.read_bytes()


async def _attach(desktop: DesktopApp, path: Path) -> None:
    composer = desktop.window.composer
    assert composer.add_files([path]) == []
    chip = composer.attachment_chips()[-1]
    assert chip.copied is not None
    await asyncio.wait_for(chip.copied, 10)


async def test_deleting_the_original_after_attaching_loses_nothing(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, tmp_path: Path
) -> None:
    path = tmp_path / "green.png"
    data = _green_png(path)
    server.add_reply(ScriptedReply("A green square."))
    await _attach(desktop, path)
    path.unlink()
    ended = send(qtbot, desktop, "describe this")
    assert isinstance(await asyncio.wait_for(ended, 10), TurnFinished)
    parts = server.chat_requests[-1].messages[-1]["content"]
    urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
    assert urls == ["data:image/png;base64," + base64.b64encode(data).decode("ascii")]
    assert desktop.conversation.entries[-1].msg is not None
    assert desktop.conversation.entries[-1].msg.get_text_content() == "A green square."


async def test_a_moved_original_is_still_sent_and_retried(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, tmp_path: Path
) -> None:
    path = tmp_path / "photo.png"
    data = _green_png(path)
    server.add_reply(ScriptedReply.error(500, "Boom."), ScriptedReply("Seen it."))
    await _attach(desktop, path)
    path.rename(tmp_path / "elsewhere.png")
    ended = send(qtbot, desktop, "look")
    assert not isinstance(await asyncio.wait_for(ended, 10), TurnFinished)
    retried: asyncio.Future[object] = asyncio.get_running_loop().create_future()

    def on_event(event: object) -> None:
        if isinstance(event, TurnFinished) and not retried.done():
            retried.set_result(event)

    desktop.chat.turn_event.connect(on_event)
    desktop.chat.retry()
    await asyncio.wait_for(retried, 10)
    encoded = base64.b64encode(data).decode("ascii")
    for request in server.chat_requests[-2:]:
        parts = request.messages[-1]["content"]
        urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
        assert urls == [f"data:image/png;base64,{encoded}"]
