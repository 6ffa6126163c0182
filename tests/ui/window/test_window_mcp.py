"""The window with a real MCP server: paste its JSON, watch it connect, let the scripted
model call its tools (asking permission), and stop a slow one."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from _window_helpers import env_for, send
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from desktop_agent.app import (
    Settings,
    TurnFinished,
    TurnInterrupted,
    load_settings,
    parse_mcp_json,
    save_settings,
)
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall
from desktop_agent.ui.chat._audio_view import AudioView
from desktop_agent.ui.chat._media_views import ImageView
from desktop_agent.ui.permissions import PermissionDialog
from desktop_agent.ui.settings import SettingsDialog, ToolsPage
from desktop_agent.ui.window import DesktopApp

SERVER = Path(__file__).resolve().parents[2] / "mcp" / "fast_server.py"
SHOTS = os.environ.get("DESKTOP_AGENT_SHOTS")  # a folder to save screenshots in, if set


def _shoot(widget: Any, name: str) -> None:
    if SHOTS:
        widget.grab().save(str(Path(SHOTS) / f"{name}.png"))


async def _paste_server(
    desktop: DesktopApp, qtbot: QtBot, wait_until: Any
) -> tuple[SettingsDialog, ToolsPage]:
    dialog = desktop.settings.open_dialog()
    dialog.tabs.setCurrentIndex(dialog.page_titles().index("Tools"))
    page = desktop.tools.page
    assert page is not None
    entry = {"command": sys.executable, "args": [str(SERVER), "stdio"]}
    page.json_input.setPlainText(json.dumps({"mcpServers": {"local": entry}}))
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    await wait_until(lambda: desktop.mcp_servers.status("local").state == "connected", timeout=30)
    await wait_until(lambda: page.tool_list.count() > 0)
    return dialog, page


async def test_paste_json_and_watch_it_connect(
    qtbot: QtBot, desktop: DesktopApp, wait_until: Any
) -> None:
    dialog, page = await _paste_server(desktop, qtbot, wait_until)
    assert "Connected ·" in page.server_list.item(0).text()
    assert page.server_status.textFormat() == Qt.TextFormat.PlainText
    assert "echo" in [page.tool_list.item(i).text() for i in range(page.tool_list.count())]
    _shoot(dialog, "tools-connected")
    page.tool_list.item(0).setCheckState(Qt.CheckState.Unchecked)  # switch "echo" off
    dialog.accept()
    saved = load_settings().settings.mcp_servers
    assert [s.name for s in saved] == ["local"]
    assert saved[0].disabled_tools == ["echo"]


async def test_bad_json_says_what_is_wrong(qtbot: QtBot, desktop: DesktopApp) -> None:
    dialog = desktop.settings.open_dialog()
    page = desktop.tools.page
    assert page is not None
    page.json_input.setPlainText('{"mcpServers": {"x": {"args": []}}}')
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    assert '"command" must be a non-empty string' in page.input_error.text()
    assert page.servers == []
    dialog.reject()


async def test_model_calls_an_mcp_tool_and_stop_cancels_a_slow_one(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: Any
) -> None:
    dialog, _page = await _paste_server(desktop, qtbot, wait_until)
    dialog.accept()
    server.add_reply(
        ScriptedReply(tool_calls=[ScriptedToolCall("echo", {"text": "from mcp"})]),
        ScriptedReply("Done."),
    )
    asked: list[PermissionDialog] = []
    desktop.permissions.dialog_opened.connect(asked.append)
    ended = send(qtbot, desktop, "use the tool")
    await wait_until(lambda: bool(asked), timeout=30)
    assert "MCP server 'local'" in asked[0].summary_label.text()
    qtbot.mouseClick(asked[0].allow_once_button, Qt.MouseButton.LeftButton)
    assert isinstance(await asyncio.wait_for(ended, 30), TurnFinished)
    tool_messages = [m for m in server.chat_requests[-1].messages if m["role"] == "tool"]
    assert "from mcp" in json.dumps(tool_messages)
    desktop.chat_view.flush()
    titles = [label.text() for label in desktop.chat_view.findChildren(QLabel)]
    assert "echo · from local" in titles
    _shoot(desktop.window, "window-mcp-turn")

    server.add_reply(ScriptedReply(tool_calls=[ScriptedToolCall("slow", {"seconds": 60})]))
    ended = send(qtbot, desktop, "take your time")
    await wait_until(lambda: len(asked) == 2, timeout=30)
    qtbot.mouseClick(asked[1].allow_once_button, Qt.MouseButton.LeftButton)
    await asyncio.sleep(0.3)  # the call is on its way to the server
    composer = desktop.window.composer
    started = time.perf_counter()
    qtbot.mouseClick(composer.send_button, Qt.MouseButton.LeftButton)  # Stop
    await wait_until(lambda: not composer.busy, timeout=2)
    print(f"Stop -> idle during an MCP call: {(time.perf_counter() - started) * 1000:.1f} ms")
    assert isinstance(await asyncio.wait_for(ended, 2), TurnInterrupted)
    assert desktop.mcp_servers.status("local").state == "connected"  # the server lives on


async def test_image_and_audio_results_render_in_the_card(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: Any
) -> None:
    dialog, page = await _paste_server(desktop, qtbot, wait_until)
    page.trusted.setChecked(True)  # its tools run without asking
    dialog.accept()
    calls = [ScriptedToolCall("picture", {}, id="p1"), ScriptedToolCall("sound", {}, id="s1")]
    server.add_reply(ScriptedReply(tool_calls=calls), ScriptedReply("Here they are."))
    ended = send(qtbot, desktop, "show me")
    assert isinstance(await asyncio.wait_for(ended, 30), TurnFinished)
    desktop.chat_view.flush()
    await wait_until(lambda: bool(desktop.chat_view.findChildren(ImageView)))
    assert desktop.chat_view.findChildren(AudioView)
    _shoot(desktop.window, "window-mcp-media")


async def test_cancel_stops_a_server_that_was_only_tried(
    qtbot: QtBot, desktop: DesktopApp, wait_until: Any
) -> None:
    dialog, _page = await _paste_server(desktop, qtbot, wait_until)
    dialog.reject()
    await wait_until(lambda: desktop.mcp_servers.status("local").state == "off", timeout=15)
    assert desktop.mcp_servers.configs == []
    assert load_settings().settings.mcp_servers == []


async def test_servers_start_with_the_app_when_asked(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: Any, tmp_path: Path
) -> None:
    entry = {"command": sys.executable, "args": [str(SERVER), "stdio"]}
    settings = Settings(
        mcp_servers=parse_mcp_json(json.dumps({"mcpServers": {"early": entry}})),
        mcp_start_at_launch=True,
    )
    path = save_settings(settings, tmp_path / "settings.json")
    app = DesktopApp(settings_path=path, environ=env_for(server), local_servers=[])
    qtbot.addWidget(app.window)
    try:
        await app.start()
        await wait_until(lambda: app.mcp_servers.status("early").state == "connected", timeout=30)
    finally:
        await app.aclose()
    assert app.mcp_servers.status("early").state == "off"
