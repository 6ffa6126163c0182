"""The session journal in the window: autosaves append, leaving the app checkpoints."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
from _sidebar_helpers import send, titles
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from desktop_agent.app import TurnFinished
from desktop_agent.message import Msg
from desktop_agent.testing import OpenAICompatServer, ScriptedReply
from desktop_agent.ui.window import DesktopApp

WaitUntil = Any


def _saved_texts(path: Path) -> list[str]:
    parts = orjson.loads(path.read_bytes())  # the file alone, as AgentScope reads it
    memory = parts.get("agent", {}).get("memory", {}).get("content", [])
    return [Msg.from_dict(entry[0]).get_text_content() or "" for entry in memory]


async def test_switching_to_another_app_writes_the_journal_into_the_file(
    qtbot: QtBot,
    desktop: DesktopApp,
    server: OpenAICompatServer,
    wait_until: WaitUntil,
    desktop_agent_home: Path,
) -> None:
    server.add_reply(ScriptedReply("Paris."))
    assert isinstance(await asyncio.wait_for(send(qtbot, desktop, "Capital?"), 10), TurnFinished)
    await wait_until(lambda: titles(desktop) == ["Capital?"])
    session_id = desktop.sessions.switcher.active_id
    file = desktop_agent_home / "sessions" / f"{session_id}.json"
    journal = file.with_suffix(".journal")
    await wait_until(lambda: journal.exists())  # the turn's autosaves were appended

    app = QGuiApplication.instance()
    assert isinstance(app, QGuiApplication)
    app.applicationStateChanged.emit(Qt.ApplicationState.ApplicationInactive)
    await wait_until(lambda: not journal.exists(), timeout=5)  # before the idle one (10 s)
    assert _saved_texts(file) == ["Capital?", "Paris."]
