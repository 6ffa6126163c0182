"""Tools and the toolkit (mirror of ``agentscope.tool``), plus the desktop's built-in tools.

``Toolkit`` registers tool functions, builds their JSON schemas and runs tool calls as
streams of cumulative ``ToolResponse`` chunks. ``register_desktop_tools`` adds the built-in
tools; those touching files or running programs ask the user first through
``ToolPermissions`` (default: deny).
"""

from desktop_agent.tool._builtin import (
    AskPermission,
    PermissionDecision,
    PermissionRequest,
    ToolPermissions,
    calculate,
    execute_python_code,
    execute_shell_command,
    get_current_datetime,
    read_text_file,
    register_desktop_tools,
    write_text_file,
)
from desktop_agent.tool._exceptions import ToolError, ToolPermissionDenied
from desktop_agent.tool._response import ToolResponse
from desktop_agent.tool._toolkit import Toolkit
from desktop_agent.tool._types import AgentSkill, RegisteredToolFunction, ToolGroup

__all__ = [
    "AgentSkill",
    "AskPermission",
    "PermissionDecision",
    "PermissionRequest",
    "RegisteredToolFunction",
    "ToolError",
    "ToolGroup",
    "ToolPermissionDenied",
    "ToolPermissions",
    "ToolResponse",
    "Toolkit",
    "calculate",
    "execute_python_code",
    "execute_shell_command",
    "get_current_datetime",
    "read_text_file",
    "register_desktop_tools",
    "write_text_file",
]
