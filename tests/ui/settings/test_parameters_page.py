"""Settings → Parameters: max output tokens, top_p, reasoning effort, streaming."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from desktop_agent.app import Settings
from desktop_agent.ui.settings import SettingsDialog
from desktop_agent.ui.settings._parameters_page import NOT_SENT, ParametersPage


def test_the_page_edits_the_parameters(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings(top_p=0.8))
    qtbot.addWidget(dialog)
    page = ParametersPage()
    dialog.add_page("Parameters", page)
    assert page.max_tokens.text() == NOT_SENT
    assert page.top_p.value() == 0.8
    assert page.stream.isChecked()
    page.max_tokens.setValue(1024)
    page.top_p.setValue(0.0)  # back to "not sent"
    page.effort.setCurrentIndex(page.effort.findData("high"))
    page.stream.setChecked(False)
    assert not page.auto_title.isChecked()  # opt-in
    page.auto_title.setChecked(True)
    saved: list[Settings] = []
    dialog.saved.connect(saved.append)
    dialog.accept()
    assert saved[0].max_output_tokens == 1024
    assert saved[0].top_p is None
    assert saved[0].reasoning_effort == "high"
    assert saved[0].stream is False
    assert saved[0].auto_title is True
