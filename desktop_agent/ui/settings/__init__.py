"""The Settings feature: the dialog and the controller that owns settings and provider."""

from typing import Any

from desktop_agent.ui.settings._agent_page import AgentPage
from desktop_agent.ui.settings._settings_controller import SettingsController
from desktop_agent.ui.settings._settings_dialog import SettingsDialog, SettingsPage
from desktop_agent.ui.settings._tools_controller import ToolsController
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
    """``DataPage`` loads the transfer package, so it is imported when first asked for."""
    if name == "DataPage":
        from desktop_agent.ui.settings._data_page import DataPage

        return DataPage
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
