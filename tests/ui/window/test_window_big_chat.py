"""A saved 5,000-message chat in the real window (the benchmark opens 100,000): clicking it
in the sidebar shows its last message with only the nearby rows built, Ctrl+F finds a message
far away, and Regenerate and Edit work on its last messages against the loopback server."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from _window_helpers import turn_end
from PySide6.QtCore import QCoreApplication, QEvent, QRect, Qt
from pytestqt.qtbot import QtBot

from desktop_agent.message import Msg
from desktop_agent.module import StateModule
from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._message_widget import MessageRow
from desktop_agent.ui.window import DesktopApp

COUNT = 5_000
FAR_ROW = 5
WORD = "quetzalcoatlite"


class _SavedAgent(StateModule):
    """An agent state given as a dict (a session saved by an earlier run)."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__()
        self._state = state

    def state_dict(self) -> dict[str, Any]:
        return self._state


def _agent_state() -> dict[str, Any]:
    content = []
    for number in range(COUNT):
        if number % 2 == 0:
            msg = Msg("user", f"Question {number}: what about part {number}?", "user")
        else:
            msg = Msg("Friday", f"Answer {number}: part {number} reads the state.", "assistant")
        if number == FAR_ROW:
            msg.content = f"Answer {number}: the {WORD} case."
        content.append([msg.to_dict(), []])
    return {"memory": {"_compressed_summary": "", "content": content}}


async def _open_big_chat(desktop: DesktopApp, wait_until: Callable[..., Any]) -> str:
    switcher = desktop.sessions.switcher
    library = await switcher._library()
    session_id = await library.create(model="test-model")
    await library.save(session_id, agent=_SavedAgent(_agent_state()))
    await library.close(session_id)
    sidebar = desktop.window.sidebar
    await wait_until(lambda: sidebar.model.row_of(session_id) is not None)
    row = sidebar.model.row_of(session_id)
    assert row is not None
    index = sidebar.model.index(row)
    sidebar.scroll_to(session_id)
    center = sidebar.list.visualRect(index).center()
    QtBot.mouseClick(sidebar.list.viewport(), Qt.MouseButton.LeftButton, pos=center)
    await wait_until(lambda: len(desktop.conversation) == COUNT, timeout=20)
    return session_id


async def _settle(view: ChatView) -> None:
    for _ in range(500):
        view.list.relayout()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        await asyncio.sleep(0.002)
        if not view.list.rendering:
            return
    raise AssertionError("the chat pane did not settle")


def _visible(view: ChatView, row: int) -> bool:
    widget = view.list.row_widget(row)
    if widget is None or not widget.isVisible():
        return False
    return view.list.viewport().rect().intersects(QRect(widget.pos(), widget.size()))


def _press(desktop: DesktopApp, keys: str) -> None:
    for shortcuts in desktop.window.shortcuts.bound.values():
        for shortcut in shortcuts:
            if shortcut.key().toString() == keys:
                shortcut.activated.emit()
                return
    raise AssertionError(f"{keys} is not bound")


async def _last_row(desktop: DesktopApp) -> MessageRow:
    view = desktop.chat_view
    view.scroll_to_latest()
    await _settle(view)
    widget = view.list.row_widget(len(desktop.conversation) - 1)
    assert isinstance(widget, MessageRow)
    return widget


def _texts(desktop: DesktopApp, last: int) -> list[str]:
    entries = desktop.conversation.entries[-last:]
    return [e.msg.get_text_content() or "" for e in entries if e.msg is not None]


async def test_a_big_chat_opens_at_its_end_finds_far_away_and_regenerates_and_edits(
    qtbot: QtBot,
    desktop: DesktopApp,
    server: OpenAICompatServer,
    wait_until: Callable[..., Any],
) -> None:
    await _open_big_chat(desktop, wait_until)
    view = desktop.chat_view
    await _settle(view)
    assert _visible(view, COUNT - 1)
    assert 0 < len(view.list.live_rows()) < 40
    _press(desktop, "Ctrl+F")
    bar = view.find_bar
    assert bar.isVisible()
    qtbot.keyClicks(bar.field, WORD)
    await wait_until(lambda: bar.matches == [FAR_ROW] and not bar.searching, timeout=10)
    await _settle(view)
    assert view.highlighted_row == FAR_ROW and _visible(view, FAR_ROW)
    qtbot.keyClick(bar.field, Qt.Key.Key_Escape)
    await _regenerate_and_edit(qtbot, desktop, server)


async def _regenerate_and_edit(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    server.add_reply("Regenerated.", "After the edit.")
    ended = turn_end(desktop)
    _press(desktop, "Ctrl+R")
    await asyncio.wait_for(ended, 15)
    assert len(desktop.conversation) == COUNT
    assert _texts(desktop, 1) == ["Regenerated."]
    bar = (await _last_row(desktop)).version_bar
    assert bar is not None and bar.version == "2/2"
    composer = desktop.window.composer.input
    composer.setFocus()
    qtbot.keyClick(composer, Qt.Key.Key_Up)  # edit the last message the user sent
    user_row = desktop.chat_view.list.row_widget(COUNT - 2)
    assert isinstance(user_row, MessageRow) and user_row.version_bar is not None
    editor = user_row.version_bar.editor
    assert editor is not None
    ended = turn_end(desktop)
    qtbot.keyClicks(editor.field, "Edited question")
    qtbot.keyClick(editor.field, Qt.Key.Key_Return)
    await asyncio.wait_for(ended, 15)
    assert _texts(desktop, 2) == ["Edited question", "After the edit."]
    assert len(desktop.conversation) == COUNT
    sent = server.chat_requests[-1].messages
    assert sent[-1]["content"] in ("Edited question", [{"type": "text", "text": "Edited question"}])
    assert len(sent) >= COUNT - 1  # the whole history went with it
