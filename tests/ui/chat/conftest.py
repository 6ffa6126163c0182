"""Fixtures for the chat pane: a shown ``ChatView`` and generated media.

The tests are synchronous ``qtbot`` tests (no asyncio loop needed: the pane never awaits).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from _chat_helpers import png_bytes
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.ui.chat import RENDER_STATS, ChatView


@pytest.fixture(autouse=True)
def _fresh_render_stats() -> None:
    RENDER_STATS.reset()


@pytest.fixture
def conversation() -> Conversation:
    """An empty conversation."""
    return Conversation()


@pytest.fixture
def chat_view(qtbot: QtBot, conversation: Conversation) -> Iterator[ChatView]:
    """A shown 800×600 chat pane over ``conversation``."""
    view = ChatView(conversation)
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.show()
    qtbot.waitExposed(view)
    yield view
    view.context.images.wait_for_done()


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        server: Any = self.server
        server.requests.append(self.path)
        body = server.body
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: Any) -> None:
        return


@pytest.fixture
def image_server() -> Iterator[Any]:
    """A loopback HTTP server serving a 40×30 PNG at any path; ``.requests`` lists paths."""
    server: Any = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.requests = []
    server.body = png_bytes(40, 30)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
