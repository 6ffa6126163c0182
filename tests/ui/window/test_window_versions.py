"""The conversation controls in the real window against the loopback server: Edit (Up in an
empty composer, inline editor, Enter), Regenerate (Ctrl+R, with another model), the ‹ 2/3 ›
switchers (Alt+Left/Right), Delete with Undo, editing a running turn."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from _window_helpers import send, turn_end
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.testing import OpenAICompatServer, ScriptedReply
from desktop_agent.ui.chat._message_widget import MessageRow
from desktop_agent.ui.chat._versions import VersionBar
from desktop_agent.ui.window import DesktopApp


def _press(desktop: DesktopApp, keys: str) -> None:
    for shortcuts in desktop.window.shortcuts.bound.values():
        for shortcut in shortcuts:
            if shortcut.key().toString() == keys:
                shortcut.activated.emit()
                return
    raise AssertionError(f"{keys} is not bound")


def _rows(desktop: DesktopApp) -> list[MessageRow]:
    view = desktop.chat_view
    view.flush()
    rows = []
    for index in range(len(desktop.conversation)):
        view.list.scroll_to_row(index)
        view.flush()
        widget = view.list.row_widget(index)
        assert isinstance(widget, MessageRow)
        rows.append(widget)
    return rows


def _bar(row: MessageRow) -> VersionBar:
    assert row.version_bar is not None
    return row.version_bar


def _shown(desktop: DesktopApp) -> list[str]:
    return [
        f"{e.msg.role}: {e.msg.get_text_content()}"
        for e in desktop.conversation.entries
        if e.msg is not None
    ]


def _sent(server: OpenAICompatServer) -> list[str]:
    sent = []
    for message in server.chat_requests[-1].messages:
        content = message["content"]
        if isinstance(content, list):
            content = "".join(part.get("text", "") for part in content)
        if message["role"] != "system":
            sent.append(f"{message['role']}: {content}")
    return sent


async def test_up_edits_the_last_message_and_enter_resends_it(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: Callable[..., Any]
) -> None:
    server.add_reply("A1", "A2")
    await asyncio.wait_for(send(qtbot, desktop, "first try"), 10)
    composer = desktop.window.composer.input
    composer.setFocus()
    qtbot.keyClick(composer, Qt.Key.Key_Up)
    user_row = _rows(desktop)[0]
    editor = _bar(user_row).editor
    assert editor is not None and editor.field.textCursor().selectedText() == "first try"
    ended = turn_end(desktop)
    qtbot.keyClicks(editor.field, "second try")
    qtbot.keyClick(editor.field, Qt.Key.Key_Return)
    await asyncio.wait_for(ended, 10)
    assert _sent(server) == ["user: second try"]
    assert _shown(desktop) == ["user: second try", "assistant: A2"]
    user_bar = _bar(_rows(desktop)[0])
    assert user_bar.version == "2/2"
    qtbot.mouseClick(user_bar.prev_button, Qt.MouseButton.LeftButton)
    await wait_until(lambda: _shown(desktop) == ["user: first try", "assistant: A1"])
    assert _bar(_rows(desktop)[0]).version == "1/2"


async def test_ctrl_r_regenerates_and_alt_arrows_switch_answers(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: Callable[..., Any]
) -> None:
    server.add_reply("R1", "R2")
    await asyncio.wait_for(send(qtbot, desktop, "q"), 10)
    ended = turn_end(desktop)
    _press(desktop, "Ctrl+R")
    await asyncio.wait_for(ended, 10)
    assert _sent(server) == ["user: q"]
    assert _shown(desktop) == ["user: q", "assistant: R2"]
    assert _bar(_rows(desktop)[1]).version == "2/2"
    _press(desktop, "Alt+Left")
    await wait_until(lambda: _shown(desktop) == ["user: q", "assistant: R1"])
    _press(desktop, "Alt+Right")
    await wait_until(lambda: _shown(desktop) == ["user: q", "assistant: R2"])


async def test_regenerate_with_another_model(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: Callable[..., Any]
) -> None:
    server.models = ["test-model", "other-model"]
    server.add_reply("R1", "R2")
    await asyncio.wait_for(send(qtbot, desktop, "q"), 10)
    bar = _bar(_rows(desktop)[1])
    menu = bar.model_button.menu()
    menu.aboutToShow.emit()
    await wait_until(lambda: any("other-model" in a.text() for a in menu.actions()))
    ended = turn_end(desktop)
    next(a for a in menu.actions() if "other-model" in a.text()).trigger()
    await asyncio.wait_for(ended, 10)
    assert server.chat_requests[-1].body["model"] == "other-model"
    assert _shown(desktop) == ["user: q", "assistant: R2"]
    server.add_reply("N")
    await asyncio.wait_for(send(qtbot, desktop, "next"), 10)
    assert server.chat_requests[-1].body["model"] == "test-model"  # just that answer


async def test_delete_and_undo(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: Callable[..., Any]
) -> None:
    server.add_reply("A", "B")
    await asyncio.wait_for(send(qtbot, desktop, "a"), 10)
    await asyncio.wait_for(send(qtbot, desktop, "b"), 10)
    qtbot.mouseClick(_bar(_rows(desktop)[1]).delete_button, Qt.MouseButton.LeftButton)
    await wait_until(lambda: _shown(desktop) == ["user: b", "assistant: B"])
    undo = desktop.versions.undo_bar
    assert undo.isVisible()
    qtbot.mouseClick(undo.undo_button, Qt.MouseButton.LeftButton)
    await wait_until(lambda: len(_shown(desktop)) == 4)
    assert _shown(desktop) == ["user: a", "assistant: A", "user: b", "assistant: B"]


async def test_editing_while_a_turn_runs_stops_it_and_keeps_the_partial_answer(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: Callable[..., Any]
) -> None:
    server.add_reply(ScriptedReply("Half an answ", stall_after_chunks=2), "Whole.")
    send(qtbot, desktop, "long")
    await wait_until(lambda: _shown(desktop)[-1].startswith("assistant: Half"))
    bar = _bar(_rows(desktop)[0])
    bar.start_edit()
    assert bar.editor is not None
    qtbot.keyClicks(bar.editor.field, "short")
    qtbot.keyClick(bar.editor.field, Qt.Key.Key_Return)
    await wait_until(lambda: _shown(desktop) == ["user: short", "assistant: Whole."])
    await wait_until(lambda: not desktop.chat.busy)
    qtbot.mouseClick(_bar(_rows(desktop)[0]).prev_button, Qt.MouseButton.LeftButton)
    await wait_until(lambda: _shown(desktop)[0] == "user: long")
    assert _shown(desktop)[1].startswith("assistant: Half")
