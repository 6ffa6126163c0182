"""``register_desktop_tools``: the six built-in tools, the risky four behind the user's consent."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_agent.tool._builtin._calculator import calculate
from desktop_agent.tool._builtin._datetime import get_current_datetime
from desktop_agent.tool._builtin._files import read_text_file, write_text_file
from desktop_agent.tool._builtin._permissions import ToolPermissions, guard
from desktop_agent.tool._builtin._process import execute_python_code, execute_shell_command

if TYPE_CHECKING:
    from desktop_agent.tool._toolkit import Toolkit


def _path(arguments: dict[str, Any]) -> str:
    return str(Path(str(arguments["path"])).expanduser().absolute())


def _summarize_read(arguments: dict[str, Any]) -> str:
    return f"Read the file {_path(arguments)} (at most {arguments['max_chars']} characters)."


def _summarize_write(arguments: dict[str, Any]) -> str:
    size = len(str(arguments["content"]))
    return f"Write {size} characters to the file {_path(arguments)}, replacing it if it exists."


def _summarize_python(arguments: dict[str, Any]) -> str:
    return f"Run this Python code (stopped after {arguments['timeout']} s):\n{arguments['code']}"


def _summarize_shell(arguments: dict[str, Any]) -> str:
    timeout = arguments["timeout"]
    return f"Run this shell command (stopped after {timeout} s):\n{arguments['command']}"


GUARDED_TOOLS: dict[str, tuple[Callable[..., Any], Callable[[dict[str, Any]], str]]] = {
    "read_text_file": (read_text_file, _summarize_read),
    "write_text_file": (write_text_file, _summarize_write),
    "execute_python_code": (execute_python_code, _summarize_python),
    "execute_shell_command": (execute_shell_command, _summarize_shell),
}
"""Tool name → (function, summary of a call for the permission dialog)."""


def register_desktop_tools(
    toolkit: Toolkit,
    permissions: ToolPermissions | None = None,
    group_name: str = "basic",
) -> ToolPermissions:
    """Register the built-in desktop tools into ``toolkit``.

    ``get_current_datetime`` and ``calculate`` run freely. ``read_text_file``,
    ``write_text_file``, ``execute_python_code`` and ``execute_shell_command`` run only
    when ``permissions`` allows the call; otherwise the model reads
    ``"PermissionDenied: the user did not allow running '<tool>'."``.

    Args:
        toolkit: Where to register them.
        permissions: The session's policy; by default a new one with nobody to ask, which
            denies every guarded call.
        group_name: The tool group (it must exist unless it is ``"basic"``).

    Returns:
        The policy in use (the UI sets its ``ask`` callback).
    """
    if permissions is None:
        permissions = ToolPermissions()
    toolkit.register_tool_function(get_current_datetime, group_name=group_name)
    toolkit.register_tool_function(calculate, group_name=group_name)
    for name, (func, summarize) in GUARDED_TOOLS.items():
        toolkit.register_tool_function(guard(func, permissions, summarize, name), group_name)
    return permissions
