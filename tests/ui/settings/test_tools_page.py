"""The Tools tab on its own: servers from pasted or imported JSON, switches, statuses."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.app import McpServerConfig, McpServerStatus, McpToolInfo, Settings
from desktop_agent.ui.settings import SettingsDialog, ToolsPage

CONFIG = {
    "mcpServers": {
        "time": {"command": "uvx", "args": ["mcp-server-time"]},
        "web": {"url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer t0ken"}},
    }
}


def _page(qtbot: QtBot, settings: Settings | None = None) -> tuple[SettingsDialog, ToolsPage]:
    dialog = SettingsDialog(settings or Settings())
    qtbot.addWidget(dialog)
    page = ToolsPage()
    dialog.add_page("Tools", page)
    return dialog, page


def _connected(name: str, *tools: str) -> McpServerStatus:
    return McpServerStatus(name, "connected", tuple(McpToolInfo(t, f"{t} tool", {}) for t in tools))


def test_pasted_json_adds_servers_and_is_saved(qtbot: QtBot) -> None:
    dialog, page = _page(qtbot)
    edits: list[list[McpServerConfig]] = []
    page.servers_changed.connect(edits.append)
    page.json_input.setPlainText(json.dumps(CONFIG))
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    assert [s.name for s in edits[-1]] == ["time", "web"]
    assert page.server_list.count() == 2
    assert "Not started" in page.server_status.text() or "web" in page.server_name.text()
    saved: list[Settings] = []
    dialog.saved.connect(saved.append)
    dialog.accept()
    assert saved[0].mcp_servers[1].revealed_headers() == {"Authorization": "Bearer t0ken"}


def test_statuses_tools_and_switches(qtbot: QtBot) -> None:
    servers = [McpServerConfig(name="time", command="uvx", args=["mcp-server-time"])]
    _dialog, page = _page(qtbot, Settings(mcp_servers=servers))
    page.show_status(_connected("time", "get_current_time", "convert_time"))
    assert "Connected · 2 tools" in page.server_list.item(0).text()
    assert page.tool_list.count() == 2
    page.tool_list.item(1).setCheckState(Qt.CheckState.Unchecked)
    page.trusted.setChecked(True)
    page.server_list.item(0).setCheckState(Qt.CheckState.Unchecked)
    (server,) = page.servers
    assert server.disabled_tools == ["convert_time"]
    assert server.trusted and not server.enabled
    page.show_status(McpServerStatus("time"))  # the controller stopped it
    assert "Disabled" in page.server_list.item(0).text()
    applied = page.apply(Settings())
    assert applied.mcp_servers == page.servers


def test_failure_shows_what_the_server_said(qtbot: QtBot) -> None:
    servers = [McpServerConfig(name="gh", command="docker", args=["run", "x"])]
    _dialog, page = _page(qtbot, Settings(mcp_servers=servers))
    page.show_status(McpServerStatus("gh", "failed", error="docker: <b>daemon</b> not running"))
    assert page.error_view.toPlainText() == "docker: <b>daemon</b> not running"
    assert not page.error_view.isHidden()
    assert page.server_name.textFormat() == Qt.TextFormat.PlainText


def test_bad_json_edit_remove_and_import(qtbot: QtBot, tmp_path: Path) -> None:
    _dialog, page = _page(qtbot)
    assert not page.add_from_json("{nope")
    assert "not valid JSON" in page.input_error.text()
    mcp_json = tmp_path / "mcp.json"
    mcp_json.write_text(json.dumps(CONFIG))
    assert page.import_file(str(mcp_json))
    page.select_server("time")
    qtbot.mouseClick(page.edit_button, Qt.MouseButton.LeftButton)
    assert json.loads(page.json_input.toPlainText()) == {
        "mcpServers": {"time": CONFIG["mcpServers"]["time"]}
    }
    qtbot.mouseClick(page.remove_button, Qt.MouseButton.LeftButton)
    assert [s.name for s in page.servers] == ["web"]
