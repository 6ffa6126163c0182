"""The Settings feature: the dialog and the controller that owns settings and provider."""

from desktop_agent.ui.settings._settings_controller import SettingsController
from desktop_agent.ui.settings._settings_dialog import SettingsDialog, SettingsPage

__all__ = ["SettingsController", "SettingsDialog", "SettingsPage"]
