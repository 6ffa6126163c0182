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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "with_library: the desktop fixture also opens the session library (which the app "
        "does after its first paint)",
    )


@pytest.fixture
async def desktop(
    qtbot: QtBot, server: OpenAICompatServer, request: pytest.FixtureRequest
) -> AsyncIterator[DesktopApp]:
    """The app's window, started and configured for ``server``; closed afterwards."""
    app = DesktopApp(environ=env_for(server), local_servers=[])
    qtbot.addWidget(app.window)
    await app.start()
    if request.node.get_closest_marker("with_library") is not None:
        await app.sessions.switcher.start()
    yield app
    await app.aclose()
