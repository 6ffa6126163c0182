"""Settings: a "System" theme choice; "1 model" (not "1 models")."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from desktop_agent.app import Settings
from desktop_agent.ui.settings import SettingsDialog


def test_the_theme_can_follow_the_system(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    labels = [dialog.theme.itemText(i) for i in range(dialog.theme.count())]
    assert labels == ["Light", "Dark", "System"]
    dialog.theme.setCurrentIndex(dialog.theme.findData("system"))
    assert dialog.edited_settings().theme == "system"

    again = SettingsDialog(Settings(theme="system"))
    qtbot.addWidget(again)
    assert again.theme.currentText() == "System"


def test_model_counts_read_right(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.set_models(["only-one"])
    assert dialog.models_status.text() == "1 model available."
    dialog.set_models(["a", "b"])
    assert dialog.models_status.text() == "2 models available."
