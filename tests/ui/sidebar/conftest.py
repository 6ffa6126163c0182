"""Fixtures of the sidebar tests: the loopback server and a window over a data root."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from _sidebar_helpers import open_desktop
from pytestqt.qtbot import QtBot

from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.window import DesktopApp


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


@pytest.fixture
async def desktop(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: Callable[..., Any]
) -> AsyncIterator[DesktopApp]:
    app = await open_desktop(qtbot, server, wait_until)
    yield app
    await app.aclose()
