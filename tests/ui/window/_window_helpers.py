"""Helpers shared by the window tests: environment, sending, waiting for a turn's end."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.app import TurnFailed, TurnFinished, TurnInterrupted
from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.window import DesktopApp

ENDINGS = (TurnFinished, TurnFailed, TurnInterrupted)


def env_for(server: OpenAICompatServer) -> dict[str, str]:
    """Provider variables pointing at the loopback server."""
    return {
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": "sk-window",
        "DESKTOP_AGENT_MODEL": "test-model",
    }


def turn_end(desktop: DesktopApp) -> asyncio.Future[Any]:
    """A future for the next event that ends a turn."""
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def on_event(event: object) -> None:
        if isinstance(event, ENDINGS) and not future.done():
            future.set_result(event)
            desktop.chat.turn_event.disconnect(on_event)

    desktop.chat.turn_event.connect(on_event)
    return future


def send(qtbot: QtBot, desktop: DesktopApp, text: str) -> asyncio.Future[Any]:
    """Type ``text`` in the composer and press Enter; the turn's end."""
    ended = turn_end(desktop)
    qtbot.keyClicks(desktop.window.composer.input, text)
    qtbot.keyClick(desktop.window.composer.input, Qt.Key.Key_Return)
    return ended
