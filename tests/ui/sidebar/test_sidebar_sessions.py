"""Sessions through the window: autosave, restore, reopen on start, switching mid-turn."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from _sidebar_helpers import click_row, open_desktop, send, shown_texts, titles
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from desktop_agent.app import TurnFinished, TurnInterrupted
from desktop_agent.app.library._journal import read_with_journal
from desktop_agent.testing import OpenAICompatServer, ScriptedReply
from desktop_agent.ui.window import DesktopApp

WaitUntil = Any
WaitSignal = Any


def _session_file(home: Path, session_id: str) -> dict[str, Any]:
    """The saved session as the app reads it: the file with its journal replayed."""
    return read_with_journal(home / "sessions" / f"{session_id}.json").parts


async def test_a_chat_is_saved_and_comes_back_from_the_sidebar(
    qtbot: QtBot,
    desktop: DesktopApp,
    server: OpenAICompatServer,
    wait_until: WaitUntil,
    desktop_agent_home: Path,
) -> None:
    server.add_reply(ScriptedReply("Paris is the capital of France."))
    assert isinstance(
        await asyncio.wait_for(send(qtbot, desktop, "Capital of France?"), 10), TurnFinished
    )
    await wait_until(lambda: titles(desktop) == ["Capital of France?"])
    first = desktop.sessions.switcher.active_id
    assert first is not None and desktop.window.sidebar.model.active_id == first

    qtbot.keyClick(desktop.window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    await wait_until(lambda: not desktop.conversation.entries)
    assert desktop.sessions.switcher.active_id is None
    server.add_reply(ScriptedReply("Hello there."))
    await asyncio.wait_for(send(qtbot, desktop, "Just saying hi"), 10)
    await wait_until(lambda: titles(desktop) == ["Just saying hi", "Capital of France?"])

    click_row(qtbot, desktop, first)
    await wait_until(lambda: desktop.sessions.switcher.active_id == first)
    assert shown_texts(desktop) == ["Capital of France?", "Paris is the capital of France."]
    memory = await desktop.service.memory.get_memory()
    assert [m.get_text_content() for m in memory] == shown_texts(desktop)
    assert desktop.window.sidebar.model.active_id == first

    server.add_reply(ScriptedReply("About 2.1 million."))
    await asyncio.wait_for(send(qtbot, desktop, "How many people live there?"), 10)
    sent = [m["content"] for m in server.chat_requests[-1].messages if m["role"] != "system"]
    texts = [c if isinstance(c, str) else c[0]["text"] for c in sent]
    assert texts == [
        "Capital of France?",
        "Paris is the capital of France.",
        "How many people live there?",
    ]
    await desktop.sessions.switcher.save_now()
    saved = _session_file(desktop_agent_home, first)
    assert saved["meta"]["message_count"] == 4
    assert "input_module" in saved["agent"] and saved["agent"]["name"] == "Assistant"


async def test_the_last_session_is_reopened_on_start(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: WaitUntil
) -> None:
    first = await open_desktop(qtbot, server, wait_until)
    server.add_reply(ScriptedReply("Noted."))
    await asyncio.wait_for(send(qtbot, first, "Remember the blue door"), 10)
    await wait_until(lambda: first.sessions.switcher.active_id is not None)
    active = first.sessions.switcher.active_id
    await first.aclose()
    first.window.close()

    second = await open_desktop(qtbot, server, wait_until)
    try:
        assert second.sessions.switcher.active_id == active
        assert shown_texts(second) == ["Remember the blue door", "Noted."]
        assert second.window.sidebar.model.active_id == active
        assert titles(second) == ["Remember the blue door"]
    finally:
        await second.aclose()


async def test_a_streaming_reply_is_saved_every_second(
    qtbot: QtBot,
    desktop: DesktopApp,
    server: OpenAICompatServer,
    wait_until: WaitUntil,
    desktop_agent_home: Path,
) -> None:
    server.add_reply(ScriptedReply("word " * 400, chunk_size=5, chunk_delay=0.01))
    ended = send(qtbot, desktop, "Tell me a long story")
    await wait_until(lambda: desktop.sessions.switcher.active_id is not None, timeout=10)
    session_id = desktop.sessions.switcher.active_id

    def partial_saved() -> bool:
        try:
            data = _session_file(desktop_agent_home, session_id)
        except (OSError, ValueError):
            return False
        reply = data.get("unfinished_reply")
        return bool(reply) and "word word" in str(reply["content"])

    await wait_until(partial_saved, timeout=10)
    assert not ended.done()
    assert isinstance(await asyncio.wait_for(ended, 20), TurnFinished)
    await desktop.sessions.switcher.save_now()
    data = _session_file(desktop_agent_home, session_id)
    assert "unfinished_reply" not in data
    assert len(data["agent"]["memory"]["content"]) == 2


async def _running_turn(
    qtbot: QtBot, app: DesktopApp, server: OpenAICompatServer, wait_until: WaitUntil
) -> asyncio.Future[Any]:
    server.add_reply(ScriptedReply("slow " * 500, chunk_size=5, chunk_delay=0.02))
    ended = send(qtbot, app, "Go slowly")
    await wait_until(lambda: app.service.busy and len(app.conversation.entries) == 2)
    return ended


async def test_switching_during_a_turn_asks_first(
    qtbot: QtBot,
    server: OpenAICompatServer,
    wait_until: WaitUntil,
    wait_signal: WaitSignal,
    desktop_agent_home: Path,
) -> None:
    other = await _saved(desktop_agent_home, ["Earlier question", "Earlier answer"])
    app = await open_desktop(qtbot, server, wait_until)
    try:
        ended = await _running_turn(qtbot, app, server, wait_until)
        asked = wait_signal(app.sessions.dialog_opened)
        click_row(qtbot, app, other)
        (box,) = await asked
        assert isinstance(box, QMessageBox) and "still being written" in box.text()
        box.button(QMessageBox.StandardButton.Cancel).click()
        await asyncio.sleep(0.1)
        assert app.service.busy and app.sessions.switcher.active_id != other

        asked = wait_signal(app.sessions.dialog_opened)
        click_row(qtbot, app, other)
        (box,) = await asked
        stop = next(b for b in box.buttons() if "switch" in b.text())
        stop.click()
        assert isinstance(await asyncio.wait_for(ended, 5), TurnInterrupted)
        await wait_until(lambda: app.sessions.switcher.active_id == other)
        assert shown_texts(app) == ["Earlier question", "Earlier answer"]
        await wait_until(lambda: "Go slowly" in titles(app))
    finally:
        await app.aclose()


async def _saved(home: Path, texts: list[str]) -> str:
    from _sidebar_helpers import save_session

    return await save_session(home, texts)
