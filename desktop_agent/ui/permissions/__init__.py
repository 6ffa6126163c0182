"""Tool permission questions: the dialog and the async callback behind it."""

from desktop_agent.ui.permissions._permission_controller import PermissionController
from desktop_agent.ui.permissions._permission_dialog import PermissionDialog

__all__ = ["PermissionController", "PermissionDialog"]
