"""What the Tools page and the agent factory know of an MCP server: its state and tools.

Kept apart from the runner so the window imports these small types at start-up without
loading ``desktop_agent.tool`` (the runner, which needs it, loads with the first server).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from desktop_agent._i18n import translate

ServerState = Literal["off", "starting", "connected", "failed"]


@dataclass(frozen=True)
class McpToolInfo:
    """A tool a server offers: its name, description and JSON schema (function form)."""

    name: str
    description: str
    json_schema: dict[str, Any] = field(hash=False, compare=False)


@dataclass(frozen=True)
class McpServerStatus:
    """What the Tools page shows of a server.

    Attributes:
        name: The server.
        state: ``"off"``, ``"starting"``, ``"connected"`` or ``"failed"``.
        tools: Its tools (while connected).
        error: Why it failed, then the last lines it wrote to stderr.
    """

    name: str
    state: ServerState = "off"
    tools: tuple[McpToolInfo, ...] = ()
    error: str = ""

    def describe(self) -> str:
        """One short line: "Connected · 3 tools", "Starting…", "Failed", "Off"."""
        if self.state == "connected":
            count = len(self.tools)
            return translate("McpServerStatus", "Connected · %n tool(s)", None, count)
        if self.state == "starting":
            return translate("McpServerStatus", "Starting…")
        if self.state == "failed":
            return translate("McpServerStatus", "Failed")
        return translate("McpServerStatus", "Off")
