"""``register_desktop_tools``: the six built-in tools, the risky four behind the user's consent."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_agent._i18n import translate
from desktop_agent.tool._builtin._calculator import calculate
from desktop_agent.tool._builtin._datetime import get_current_datetime
from desktop_agent.tool._builtin._files import read_text_file, resolve_path, write_text_file
from desktop_agent.tool._builtin._permissions import ToolPermissions, guard
from desktop_agent.tool._builtin._process import (
    execute_python_code,
    execute_shell_command,
    run_folder,
)

if TYPE_CHECKING:
    from desktop_agent.tool._toolkit import Toolkit


def _path(arguments: dict[str, Any]) -> str:
    """The file the call will really touch: symlinks followed, ``..`` normalised; the
    path as the model wrote it too when that reads differently."""
    given = str(arguments["path"])
    resolved = str(resolve_path(given, str(arguments.get("working_folder") or "")).resolve())
    if resolved == given:
        return resolved
    return translate("ToolPermission", "{path} (given as {given})").format(
        path=resolved, given=repr(given)
    )


def _summarize_read(arguments: dict[str, Any]) -> str:
    return translate("ToolPermission", "Read the file {path} (at most {count} characters).").format(
        path=_path(arguments), count=arguments["max_chars"]
    )


def _summarize_write(arguments: dict[str, Any]) -> str:
    size = len(str(arguments["content"]))
    return translate(
        "ToolPermission", "Write {count} characters to the file {path}, replacing it if it exists."
    ).format(count=size, path=_path(arguments))


def _folder(arguments: dict[str, Any]) -> Path:
    return run_folder(str(arguments.get("working_folder") or ""))


def _summarize_python(arguments: dict[str, Any]) -> str:
    timeout, code = arguments["timeout"], arguments["code"]
    return translate(
        "ToolPermission", "Run this Python code in {folder} (stopped after {seconds} s):\n{code}"
    ).format(folder=_folder(arguments), seconds=timeout, code=code)


def _summarize_shell(arguments: dict[str, Any]) -> str:
    timeout, command = arguments["timeout"], arguments["command"]
    return translate(
        "ToolPermission",
        "Run this shell command in {folder} (stopped after {seconds} s):\n{command}",
    ).format(folder=_folder(arguments), seconds=timeout, command=command)


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
    working_folder: str | Path = "",
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
        working_folder: Where the file tools resolve relative paths and programs run (the
            home folder when empty); a hidden preset argument, shown in the permission
            summary.

    Returns:
        The policy in use (the UI sets its ``ask`` callback).
    """
    if permissions is None:
        permissions = ToolPermissions()
    toolkit.register_tool_function(get_current_datetime, group_name=group_name)
    toolkit.register_tool_function(calculate, group_name=group_name)
    presets = {"working_folder": str(working_folder)}
    for name, (func, summarize) in GUARDED_TOOLS.items():
        toolkit.register_tool_function(
            guard(func, permissions, summarize, name), group_name, preset_kwargs=presets
        )
    return permissions
