"""Sending while scrolled up shows the new message; "Jump to latest" during a stream."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from _window_helpers import env_for, send
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.app import TurnFinished
from desktop_agent.message import Msg
from desktop_agent.testing import OpenAICompatServer, ScriptedReply
from desktop_agent.ui.window import DesktopApp


@pytest.fixture
async def desktop(qtbot: QtBot, server: OpenAICompatServer) -> AsyncIterator[DesktopApp]:
    app = DesktopApp(environ=env_for(server), local_servers=[])
    qtbot.addWidget(app.window)
    app.window.resize(900, 600)
    await app.start()
    yield app
    await app.aclose()


def _long_history(desktop: DesktopApp) -> None:
    msgs = [
        Msg(
            "user" if i % 2 == 0 else "Friday",
            f"message {i} " + "words " * 40,
            "user" if i % 2 == 0 else "assistant",
        )  # type: ignore[arg-type]
        for i in range(40)
    ]
    desktop.conversation.reset(msgs)
    desktop.chat_view.flush()


async def test_sending_while_scrolled_up_brings_the_view_to_the_new_message(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: Any
) -> None:
    _long_history(desktop)
    chat = desktop.chat_view
    chat.list.scroll_to_row(0)
    assert not chat.list.is_at_bottom()
    server.add_reply(ScriptedReply("The reply."))
    ended = send(qtbot, desktop, "new question")
    assert isinstance(await asyncio.wait_for(ended, 10), TurnFinished)
    chat.flush()
    assert chat.list.is_at_bottom()
    bar = chat.list.verticalScrollBar()
    assert bar.value() == bar.maximum()


async def test_jump_to_latest_appears_when_scrolled_away_during_a_stream(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: Any
) -> None:
    _long_history(desktop)
    chat = desktop.chat_view
    server.add_reply(
        ScriptedReply(" ".join(f"part{i}" for i in range(400)), chunk_size=8, chunk_delay=0.01)
    )
    ended = send(qtbot, desktop, "tell me a lot")
    await wait_until(lambda: desktop.conversation.turn_active and len(desktop.conversation) > 41)
    assert not chat.jump_button.isVisible()  # following the stream: nothing to offer
    chat.list.verticalScrollBar().setValue(0)  # the user scrolls up to read
    await wait_until(chat.jump_button.isVisible)
    qtbot.mouseClick(chat.jump_button, Qt.MouseButton.LeftButton)
    assert chat.list.is_at_bottom()
    assert not chat.jump_button.isVisible()
    await asyncio.wait_for(ended, 10)
    assert not chat.jump_button.isVisible()
