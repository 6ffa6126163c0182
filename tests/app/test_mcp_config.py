"""The ``mcpServers`` JSON users paste or import, and how its secrets are kept."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from desktop_agent.app import (
    McpConfigError,
    Settings,
    load_settings,
    parse_mcp_json,
    save_settings,
    to_mcp_json,
)

CLAUDE_DESKTOP = {
    "mcpServers": {
        "filesystem": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
            "env": {"GITHUB_TOKEN": "ghp_secret_value"},
            "cwd": "/tmp",
        },
        "remote": {
            "type": "http",
            "url": "https://example.invalid/mcp",
            "headers": {"Authorization": "Bearer very-secret"},
        },
        "legacy": {"url": "https://example.invalid/sse"},
        "off": {"command": "uvx", "args": ["mcp-server-time"], "disabled": True},
    }
}


def test_claude_desktop_cursor_lm_studio_format() -> None:
    servers = parse_mcp_json(json.dumps(CLAUDE_DESKTOP))
    assert [s.name for s in servers] == ["filesystem", "remote", "legacy", "off"]
    files, remote, legacy, off = servers
    assert (files.transport, files.command, files.cwd) == ("stdio", "npx", "/tmp")
    assert files.args == ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
    assert files.revealed_env() == {"GITHUB_TOKEN": "ghp_secret_value"}
    assert (remote.transport, remote.url) == ("streamable_http", "https://example.invalid/mcp")
    assert remote.revealed_headers() == {"Authorization": "Bearer very-secret"}
    assert legacy.transport == "sse"
    assert off.enabled is False and files.enabled is True


def test_vs_code_servers_and_bare_maps() -> None:
    assert parse_mcp_json('{"servers": {"t": {"type": "stdio", "command": "x"}}}')[0].name == "t"
    bare = parse_mcp_json('{"t": {"transport": "streamable-http", "url": "http://127.0.0.1/mcp"}}')
    assert bare[0].transport == "streamable_http"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON (line 1, column 2)"),
        ("[1]", 'Expected a JSON object such as {"mcpServers"'),
        ('{"mcpServers": {"a": {"args": []}}}', "Server 'a': \"command\" must be"),
        ('{"mcpServers": {"a": {"type": "ws", "url": "x"}}}', "unknown type 'ws'"),
        ('{"mcpServers": {"a b": {"command": "x"}}}', "Server name 'a b'"),
        ('{"mcpServers": {"a": {"command": "x", "args": "y"}}}', "Server 'a': args"),
    ],
)
def test_mistakes_are_named(text: str, message: str) -> None:
    with pytest.raises(McpConfigError) as info:
        parse_mcp_json(text)
    assert message in str(info.value)


def test_round_trip_through_the_editor_text() -> None:
    servers = parse_mcp_json(json.dumps(CLAUDE_DESKTOP))
    again = parse_mcp_json(to_mcp_json(servers))
    assert [s.to_entry() for s in again] == [s.to_entry() for s in servers]


def test_secrets_are_stored_like_the_api_key(tmp_path: Path) -> None:
    settings = Settings(mcp_servers=parse_mcp_json(json.dumps(CLAUDE_DESKTOP)))
    assert "ghp_secret_value" not in repr(settings)
    assert "very-secret" not in json.dumps(settings.model_dump(mode="json"))
    path = save_settings(settings, tmp_path / "settings.json")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert "ghp_secret_value" in path.read_text()
    loaded = load_settings(path).settings
    assert loaded.mcp_servers[1].revealed_headers() == {"Authorization": "Bearer very-secret"}
