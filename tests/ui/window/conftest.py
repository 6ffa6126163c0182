"""Fixtures of the window tests: a loopback model server and the real app window on it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from _window_helpers import env_for
from pytestqt.qtbot import QtBot

from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.window import DesktopApp


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    """An OpenAI-compatible server on 127.0.0.1 (script replies with ``server.script``)."""
    with OpenAICompatServer() as running:
        yield running


@pytest.fixture
async def desktop(qtbot: QtBot, server: OpenAICompatServer) -> AsyncIterator[DesktopApp]:
    """The app's window, started and configured for ``server``; closed afterwards."""
    app = DesktopApp(environ=env_for(server), local_servers=[])
    qtbot.addWidget(app.window)
    await app.start()
    yield app
    await app.aclose()
