"""Built-in tools of the desktop assistant and the permission guard in front of the risky ones."""

from desktop_agent.tool._builtin._calculator import calculate
from desktop_agent.tool._builtin._datetime import get_current_datetime
from desktop_agent.tool._builtin._desktop_tools import register_desktop_tools
from desktop_agent.tool._builtin._files import read_text_file, write_text_file
from desktop_agent.tool._builtin._permissions import (
    AskPermission,
    PermissionDecision,
    PermissionRequest,
    ToolPermissions,
)
from desktop_agent.tool._builtin._process import execute_python_code, execute_shell_command

__all__ = [
    "AskPermission",
    "PermissionDecision",
    "PermissionRequest",
    "ToolPermissions",
    "calculate",
    "execute_python_code",
    "execute_shell_command",
    "get_current_datetime",
    "read_text_file",
    "register_desktop_tools",
    "write_text_file",
]
