"""The Model tab's plan checkbox edits ``Settings.plan_mode`` (issue 18)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from desktop_agent.app import Settings
from desktop_agent.ui.settings import SettingsDialog


def test_plan_checkbox_loads_and_saves_plan_mode(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    assert not dialog.plan_mode.isChecked()
    dialog.plan_mode.setChecked(True)
    assert dialog.edited_settings().plan_mode is True

    again = SettingsDialog(Settings(plan_mode=True))
    qtbot.addWidget(again)
    assert again.plan_mode.isChecked()
