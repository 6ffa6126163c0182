"""The window with answers a real server cuts short, and with tool permissions: a cut-off
answer with Retry and Continue growing one bubble, a token-limit stop, Stop from the
permission dialog, the chip of tools allowed in this chat."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _window_helpers import send, turn_end
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.app import LocalServer, TurnFinished, TurnInterrupted
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall
from desktop_agent.ui.chat._message_widget import MessageRow
from desktop_agent.ui.permissions import PermissionDialog
from desktop_agent.ui.window import DesktopApp

CUT: dict[str, Any] = {"send_finish": False, "send_done": False, "usage": None}


def _answer_rows(desktop: DesktopApp) -> list[MessageRow]:
    view = desktop.chat_view
    view.flush()
    rows = []
    for index, entry in enumerate(desktop.conversation.entries):
        widget = view.list.row_widget(index)
        if entry.msg is not None and entry.msg.role == "assistant":
            assert isinstance(widget, MessageRow)
            rows.append(widget)
    return rows


async def test_a_cut_off_answer_continues_in_the_same_bubble(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: Callable[..., Any]
) -> None:
    server.add_reply(ScriptedReply("Roses are red, violets", **CUT))
    event = await asyncio.wait_for(send(qtbot, desktop, "a poem"), 5)
    assert isinstance(event, TurnFinished) and event.cut_off
    assert desktop.window.status_line.state_label.text().startswith("Answer cut off")
    (row,) = _answer_rows(desktop)
    assert row.ending_mark.text() == "cut off"
    bar = row.ending_bar
    assert bar is not None and bar.retry_button.isVisible() and bar.continue_button.isVisible()

    server.add_reply(ScriptedReply(" are blue.", chunk_size=2, chunk_delay=0.01))
    ended = turn_end(desktop)
    qtbot.mouseClick(bar.continue_button, Qt.MouseButton.LeftButton)
    assert isinstance(await asyncio.wait_for(ended, 5), TurnFinished)
    (row,) = _answer_rows(desktop)  # still one answer
    assert row.msg.get_text_content() == "Roses are red, violets are blue."
    assert [w.plain_text() for w in row.block_widgets("text")] == [
        "Roses are red, violets are blue."
    ]
    assert not row.ending_mark.isVisible()
    assert desktop.window.status_line.state_label.text() == "Ready"


async def test_a_length_stop_says_so_with_continue(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    server.add_reply(ScriptedReply("Chapter one. It was a dark", finish_reason="length"))
    event = await asyncio.wait_for(send(qtbot, desktop, "a story"), 5)
    assert isinstance(event, TurnFinished) and event.at_token_limit
    (row,) = _answer_rows(desktop)
    assert row.ending_bar is not None
    assert "token limit" in row.ending_bar.text_label.text()
    assert row.ending_bar.continue_button.isVisible()
    assert not row.ending_bar.retry_button.isVisible()
    assert "token limit" in desktop.window.status_line.state_label.text()


async def test_stop_in_the_permission_dialog_denies_and_stops_the_turn(
    qtbot: QtBot,
    desktop: DesktopApp,
    server: OpenAICompatServer,
    wait_until: Callable[..., Any],
    tmp_path: Path,
) -> None:
    marker = tmp_path / "ran"
    code = f"open({str(marker)!r}, 'w').close()"
    server.add_reply(
        ScriptedReply(tool_calls=[ScriptedToolCall("execute_python_code", {"code": code})]),
        "The model must not be asked again.",
    )
    dialogs: list[PermissionDialog] = []
    desktop.permissions.dialog_opened.connect(dialogs.append)
    ended = send(qtbot, desktop, "run it")
    await wait_until(lambda: bool(dialogs))
    qtbot.mouseClick(dialogs[0].stop_button, Qt.MouseButton.LeftButton)
    assert isinstance(await asyncio.wait_for(ended, 5), TurnInterrupted)
    assert not marker.exists()
    assert len(server.chat_requests) == 1
    assert not desktop.window.composer.busy


async def test_always_allowed_tools_show_by_the_composer_and_can_be_revoked(
    qtbot: QtBot,
    desktop: DesktopApp,
    server: OpenAICompatServer,
    wait_until: Callable[..., Any],
) -> None:
    call = ScriptedToolCall("execute_python_code", {"code": "print(1)"})
    server.add_reply(ScriptedReply(tool_calls=[call]), "Done.")
    dialogs: list[PermissionDialog] = []
    desktop.permissions.dialog_opened.connect(dialogs.append)
    chip = desktop.window.composer.allowed_tools
    assert not chip.isVisible()
    ended = send(qtbot, desktop, "run it")
    await wait_until(lambda: bool(dialogs))
    qtbot.mouseClick(dialogs[0].allow_always_button, Qt.MouseButton.LeftButton)
    await asyncio.wait_for(ended, 10)
    await wait_until(chip.isVisible)
    assert chip.text() == "execute_python_code allowed"
    assert chip.revoke_actions() == ["Ask again before execute_python_code"]
    chip.menu().actions()[0].trigger()
    assert desktop.service.allowed_tools == []
    assert not chip.isVisible()


async def test_a_local_server_that_needs_a_key_is_named_on_the_first_run_panel(
    qtbot: QtBot,
) -> None:
    with OpenAICompatServer(api_key="secret") as locked:
        desktop = DesktopApp(environ={}, local_servers=[LocalServer("LM Studio", locked.port)])
        qtbot.addWidget(desktop.window)
        assert await desktop.start() is None
        notes = desktop.window.first_run.notes_label
        assert notes.isVisible()
        assert f"LM Studio on port {locked.port} needs an API key" in notes.text()
        await desktop.aclose()


async def test_the_settings_dialog_has_the_files_and_network_page(
    desktop: DesktopApp, wait_signal: Callable[..., Any]
) -> None:
    opened = wait_signal(desktop.settings.dialog_opened)
    desktop.settings.open_dialog()
    (dialog,) = await opened
    assert "Files & network" in dialog.page_titles()
    dialog.reject()
