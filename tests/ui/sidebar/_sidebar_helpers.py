"""Helpers of the sidebar tests: saved sessions, the window, clicks on rows."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from desktop_agent.app import AgentState, LocalServer, TurnFailed, TurnFinished, TurnInterrupted
from desktop_agent.app.library import SessionLibrary
from desktop_agent.message import Msg
from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.window import DesktopApp

ENDINGS = (TurnFinished, TurnFailed, TurnInterrupted)


def env(server: OpenAICompatServer) -> dict[str, str]:
    """Provider variables pointing at the loopback server."""
    return {
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": "sk-sidebar",
        "DESKTOP_AGENT_MODEL": "test-model",
    }


async def open_desktop(
    qtbot: QtBot,
    server: OpenAICompatServer,
    wait_until: Any,
    *,
    servers: Sequence[LocalServer] = (),
) -> DesktopApp:
    """A shown window whose sidebar is filled (and last session reopened, if any)."""
    app = DesktopApp(environ=env(server), local_servers=list(servers))
    qtbot.addWidget(app.window)
    await app.start()
    await wait_until(lambda: app.sessions.is_ready, timeout=10)
    return app


async def save_session(
    root: Path, texts: Sequence[str], *, title: str | None = None, model: str = "test-model"
) -> str:
    """Save a session whose memory holds ``texts`` (user, assistant, user, ...)."""
    library = SessionLibrary(root)
    state = AgentState("You are a test.")
    for number, text in enumerate(texts):
        role = "user" if number % 2 == 0 else "assistant"
        await state.memory.add(Msg("User" if role == "user" else "Assistant", text, role))
    session_id = await library.create(title=title, model=model)
    await library.save(session_id, agent=state)
    await library.close_all()
    return session_id


def titles(app: DesktopApp) -> list[str]:
    """The titles the sidebar lists, top to bottom."""
    return [summary.display_title for summary in app.window.sidebar.model.summaries()]


def click_row(qtbot: QtBot, app: DesktopApp, session_id: str) -> None:
    """Click a session's row in the sidebar list."""
    view = app.window.sidebar.list
    row = app.window.sidebar.model.row_of(session_id)
    assert row is not None, f"{session_id} is not listed"
    index = app.window.sidebar.model.index(row)
    view.scrollTo(index)
    center: QPoint = view.visualRect(index).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=center)


def turn_end(app: DesktopApp) -> asyncio.Future[Any]:
    """A future for the next event that ends a turn."""
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def on_event(event: object) -> None:
        if isinstance(event, ENDINGS) and not future.done():
            future.set_result(event)
            app.chat.turn_event.disconnect(on_event)

    app.chat.turn_event.connect(on_event)
    return future


def send(qtbot: QtBot, app: DesktopApp, text: str) -> asyncio.Future[Any]:
    """Type ``text`` in the composer and press Enter; a future for the turn's end."""
    ended = turn_end(app)
    qtbot.keyClicks(app.window.composer.input, text)
    qtbot.keyClick(app.window.composer.input, Qt.Key.Key_Return)
    return ended


def shown_texts(app: DesktopApp) -> list[str]:
    """The text of every message row of the conversation."""
    return [
        entry.msg.get_text_content() or ""
        for entry in app.conversation.entries
        if entry.msg is not None
    ]
