"""The Settings feature: the dialog and the controller that owns settings and provider."""

from typing import TYPE_CHECKING, Any

from desktop_agent.ui.settings._agent_page import AgentPage
from desktop_agent.ui.settings._settings_controller import SettingsController
from desktop_agent.ui.settings._settings_dialog import SettingsDialog, SettingsPage
from desktop_agent.ui.settings._tools_controller import ToolsController

if TYPE_CHECKING:
    from desktop_agent.ui.settings._data_page import DataPage
    from desktop_agent.ui.settings._tools_page import ToolsPage

__all__ = [
    "AgentPage",
    "DataPage",
    "SettingsController",
    "SettingsDialog",
    "SettingsPage",
    "ToolsController",
    "ToolsPage",
]


def __getattr__(name: str) -> Any:
    """``DataPage`` (it loads the transfer package) and ``ToolsPage`` (the MCP server
    model) are imported when first asked for, not at start-up."""
    if name == "DataPage":
        from desktop_agent.ui.settings._data_page import DataPage

        return DataPage
    if name == "ToolsPage":
        from desktop_agent.ui.settings._tools_page import ToolsPage

        return ToolsPage
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
