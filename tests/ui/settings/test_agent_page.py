"""Settings → Files & network: working folder (shown absolute) and stream idle timeout."""

from __future__ import annotations

import json
from pathlib import Path

from pytestqt.qtbot import QtBot

from desktop_agent.app import Settings, load_settings
from desktop_agent.ui.settings import AgentPage, SettingsDialog


def test_the_page_edits_folder_and_timeout(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = SettingsDialog(Settings(stream_idle_timeout=45))
    qtbot.addWidget(dialog)
    page = AgentPage()
    dialog.add_page("Files & network", page)
    assert page.folder.text() == ""
    assert str(Path.home()) in page.resolved.text()  # default: the home folder
    assert page.idle_timeout.value() == 45
    page.folder.setText(str(tmp_path / "work" / ".." / "proj"))
    assert page.resolved.text().endswith("(this folder does not exist)")
    page.idle_timeout.setValue(20)
    saved: list[Settings] = []
    dialog.saved.connect(saved.append)
    dialog.accept()
    assert saved[0].stream_idle_timeout == 20
    assert saved[0].resolved_working_folder() == (tmp_path / "work" / ".." / "proj").absolute()


def test_a_settings_file_from_before_these_fields_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"temperature": 0.2, "theme": "dark"}))
    loaded = load_settings(path)
    assert loaded.warning is None
    assert loaded.settings.stream_idle_timeout == 60.0
    assert loaded.settings.working_folder == ""
    assert loaded.settings.resolved_working_folder() == Path.home()
