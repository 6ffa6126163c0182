"""Which tools a chat's agent gets: all of them, none, or all but some (its assistant's).

The toolkit is filled as usual (desktop tools, then the enabled MCP servers' tools) and
then pruned, so a tool added to the app later is on for every assistant that did not
switch it off by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DESKTOP_TOOLS: tuple[str, ...] = (
    "get_current_datetime",
    "calculate",
    "read_text_file",
    "write_text_file",
    "execute_python_code",
    "execute_shell_command",
)
"""The built-in desktop tools, in the order the assistant editor lists them."""


@dataclass(frozen=True)
class ToolSelection:
    """The tools switched off for a chat.

    Attributes:
        enabled: ``False``: no desktop or MCP tool at all.
        disabled_tools: Desktop tools switched off, by name.
        disabled_servers: MCP servers whose tools are switched off, by server name.
    """

    enabled: bool = True
    disabled_tools: frozenset[str] = frozenset()
    disabled_servers: frozenset[str] = frozenset()

    def allows(self, tool_name: str, server: str | None) -> bool:
        """Whether the tool ``tool_name`` (of the MCP server ``server``, if any) stays."""
        if not self.enabled:
            return False
        if server is not None:
            return server not in self.disabled_servers
        return tool_name not in self.disabled_tools

    def prune(self, toolkit: Any) -> list[str]:
        """Remove the tools switched off from ``toolkit``; their names."""
        removed = []
        for name, tool in list(toolkit.tools.items()):
            if name in _TASK_TOOLS and self.enabled:
                continue  # the toolkit's own (background tasks), not a desktop tool
            if not self.allows(name, getattr(tool, "mcp_name", None)):
                toolkit.remove_tool_function(name)
                removed.append(name)
        return removed


_TASK_TOOLS = frozenset({"view_task", "wait_task", "cancel_task"})
