"""Parameters of one chat (the header's Parameters) against the loopback server: they reach
the request body, a new chat starts with the defaults, and an opened chat gets its own back."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from _window_helpers import env_for, send
from pytestqt.qtbot import QtBot

from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.window import DesktopApp


@pytest.fixture
async def desktop(qtbot: QtBot, server: OpenAICompatServer) -> AsyncIterator[DesktopApp]:
    app = DesktopApp(environ=env_for(server), local_servers=[])
    qtbot.addWidget(app.window)
    await app.start()
    await app.sessions.switcher.start()
    yield app
    await app.aclose()


async def _until(condition: object) -> None:
    assert callable(condition)
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met in time")


async def test_a_chats_own_parameters(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    dialog = desktop.open_chat_params()
    dialog.temperature.setValue(1.1)
    dialog.page.max_tokens.setValue(100)
    dialog.page.effort.setCurrentIndex(dialog.page.effort.findData("low"))
    dialog.accept()
    await send(qtbot, desktop, "first")
    body = server.chat_requests[-1].body
    assert (body["temperature"], body["max_tokens"], body["reasoning_effort"]) == (1.1, 100, "low")
    switcher = desktop.sessions.switcher
    await _until(lambda: switcher.active_id is not None)
    first = switcher.active_id
    assert first is not None
    await send(qtbot, desktop, "again")  # the chat became a session: still its parameters
    assert server.chat_requests[-1].body["max_tokens"] == 100

    await switcher.new_chat()
    await send(qtbot, desktop, "a new chat")
    body = server.chat_requests[-1].body
    assert body["temperature"] == 0.7 and "max_tokens" not in body  # the defaults

    await switcher.open(first)
    await send(qtbot, desktop, "back")
    assert server.chat_requests[-1].body["max_tokens"] == 100
    dialog = desktop.open_chat_params()
    assert dialog.page.max_tokens.value() == 100
    dialog.use_defaults()
    await send(qtbot, desktop, "defaults now")
    assert "max_tokens" not in server.chat_requests[-1].body
