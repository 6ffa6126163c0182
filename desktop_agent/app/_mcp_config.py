"""MCP servers as users configure them: the ``mcpServers`` JSON of Claude Desktop, Cursor
and LM Studio (``mcp.json``), kept in the settings.

A server is either a program (``command``, ``args``, ``env``, ``cwd``) or an endpoint
(``url``, ``headers``; ``type``/``transport`` chooses streamable HTTP or SSE). Values of
``env`` and ``headers`` often hold tokens, so they are ``SecretStr`` like the API key:
masked in reprs, logs and ``model_dump()``, revealed only when the settings file (0600)
is written or when the user edits them.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    FieldSerializationInfo,
    SecretStr,
    ValidationError,
    field_serializer,
)

McpTransport = Literal["stdio", "streamable_http", "sse"]
_REVEAL = "reveal_secrets"  # the serialization context key the settings file writes with
_TRANSPORT_NAMES: dict[str, McpTransport] = {
    "stdio": "stdio",
    "http": "streamable_http",
    "streamable_http": "streamable_http",
    "streamable-http": "streamable_http",
    "streamablehttp": "streamable_http",
    "sse": "sse",
}
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class McpConfigError(ValueError):
    """The pasted or imported MCP configuration is not usable; the message says where."""


class McpServerConfig(BaseModel):
    """One MCP server the user added.

    Attributes:
        name: Its key in ``mcpServers``; shown on tool cards.
        transport: ``"stdio"`` (a program) or ``"streamable_http"`` / ``"sse"`` (a URL).
        enabled: Whether chats get its tools.
        trusted: Its tools run without asking permission.
        disabled_tools: Tools the user switched off.
    """

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64)
    transport: McpTransport = "stdio"
    command: str = ""
    args: list[str] = Field(default_factory=list)
    env: dict[str, SecretStr] = Field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: dict[str, SecretStr] = Field(default_factory=dict)
    enabled: bool = True
    trusted: bool = False
    disabled_tools: list[str] = Field(default_factory=list)

    @field_serializer("env", "headers", when_used="json")
    def _dump_secrets(
        self, values: dict[str, SecretStr], info: FieldSerializationInfo
    ) -> dict[str, str]:
        """Reveal the values only when writing the settings file itself."""
        reveal = bool(info.context and info.context.get(_REVEAL))
        return {k: v.get_secret_value() if reveal else str(v) for k, v in values.items()}

    def revealed_env(self) -> dict[str, str]:
        """``env`` with its values in clear, for starting the server."""
        return {k: v.get_secret_value() for k, v in self.env.items()}

    def revealed_headers(self) -> dict[str, str]:
        """``headers`` in clear, for connecting."""
        return {k: v.get_secret_value() for k, v in self.headers.items()}

    def same_connection(self, other: McpServerConfig) -> bool:
        """Whether ``other`` starts the same server the same way (tool switches aside)."""
        keys = ("transport", "command", "args", "cwd", "url")
        return all(getattr(self, k) == getattr(other, k) for k in keys) and (
            self.revealed_env() == other.revealed_env()
            and self.revealed_headers() == other.revealed_headers()
        )

    def to_entry(self) -> dict[str, Any]:
        """This server as an ``mcpServers`` entry, secrets in clear (for the editor)."""
        entry: dict[str, Any] = {}
        if self.transport == "stdio":
            entry["command"] = self.command
            if self.args:
                entry["args"] = list(self.args)
            if self.env:
                entry["env"] = self.revealed_env()
            if self.cwd:
                entry["cwd"] = self.cwd
        else:
            entry["type"] = "sse" if self.transport == "sse" else "http"
            entry["url"] = self.url
            if self.headers:
                entry["headers"] = self.revealed_headers()
        return entry


def parse_mcp_json(text: str) -> list[McpServerConfig]:
    """The servers of an ``mcp.json`` text.

    Accepts ``{"mcpServers": {...}}`` (Claude Desktop, Cursor, LM Studio),
    ``{"servers": {...}}`` (VS Code) or the bare ``{name: entry}`` map. An entry with
    ``"disabled": true`` comes in disabled.

    Raises:
        McpConfigError: Not JSON, or an entry is malformed (the message names it).
    """
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise McpConfigError(
            f"This is not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}."
        ) from None
    servers = _server_map(document)
    return [_parse_entry(name, entry) for name, entry in servers.items()]


def to_mcp_json(servers: list[McpServerConfig]) -> str:
    """``servers`` as an ``mcpServers`` document (what :func:`parse_mcp_json` reads)."""
    document = {"mcpServers": {s.name: s.to_entry() for s in servers}}
    return json.dumps(document, indent=2, ensure_ascii=False)


def _server_map(document: Any) -> dict[str, Any]:
    if not isinstance(document, dict):
        raise McpConfigError('Expected a JSON object such as {"mcpServers": {...}}.')
    for key in ("mcpServers", "servers"):
        if key in document:
            servers = document[key]
            if not isinstance(servers, dict):
                raise McpConfigError(f'"{key}" must be an object of named servers.')
            return servers
    return document


def _parse_entry(name: str, entry: Any) -> McpServerConfig:
    if not _NAME.match(name):
        raise McpConfigError(f"Server name {name!r}: use 1-64 letters, digits, '_', '-' or '.'.")
    if not isinstance(entry, dict):
        raise McpConfigError(f"Server {name!r}: expected an object with a command or a url.")
    transport = _transport_of(name, entry)
    fields: dict[str, Any] = {
        "name": name,
        "transport": transport,
        "enabled": not entry.get("disabled", False),
    }
    if transport == "stdio":
        if not isinstance(entry.get("command"), str) or not entry["command"].strip():
            raise McpConfigError(f'Server {name!r}: "command" must be a non-empty string.')
        fields.update(
            command=entry["command"],
            args=entry.get("args", []),
            env=entry.get("env", {}),
            cwd=entry.get("cwd"),
        )
    else:
        if not isinstance(entry.get("url"), str) or not entry["url"].strip():
            raise McpConfigError(f'Server {name!r}: "url" must be a non-empty string.')
        fields.update(url=entry["url"], headers=entry.get("headers", {}))
    try:
        return McpServerConfig.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors(include_input=False, include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise McpConfigError(f"Server {name!r}: {where}: {first['msg']}.") from None


def _transport_of(name: str, entry: dict[str, Any]) -> McpTransport:
    declared = entry.get("type", entry.get("transport"))
    if declared is None:
        if "url" in entry and "command" not in entry:
            return "sse" if str(entry["url"]).rstrip("/").endswith("/sse") else "streamable_http"
        return "stdio"
    transport = _TRANSPORT_NAMES.get(str(declared).lower())
    if transport is None:
        raise McpConfigError(
            f"Server {name!r}: unknown type {declared!r} (use stdio, http or sse)."
        )
    return transport
