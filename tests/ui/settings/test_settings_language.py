"""The Appearance tab's Language box: the desktop's language or one named in itself, saved
to the settings file, with a note that it applies after a restart (issue 21)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from PySide6.QtCore import QLocale
from pytestqt.qtbot import QtBot

from desktop_agent.app import Settings, load_settings
from desktop_agent.ui.settings import SettingsController


async def test_the_language_is_chosen_saved_and_shown_again(
    qtbot: QtBot, desktop_agent_home: Path
) -> None:
    path = desktop_agent_home / "settings.json"
    controller = SettingsController(load_settings(path), path=path, local_servers=[], environ={})
    dialog = controller.open_dialog()
    qtbot.addWidget(dialog)
    dialog.tabs.setCurrentIndex(dialog.page_titles().index("Appearance"))
    box = dialog.language
    items = [box.combo.itemText(i) for i in range(box.combo.count())]
    assert items == [
        f"System ({QLocale.system().nativeLanguageName() or 'English'})",
        "English",
        "简体中文",
    ]
    assert box.value() == "" and not box.note.isVisible()

    box.combo.setCurrentIndex(box.combo.findText("简体中文"))
    assert box.note.isVisible()
    assert box.note.text() == "Applies after restarting desktop_agent"
    dialog.accept()
    assert json.loads(path.read_text(encoding="utf-8"))["language"] == "zh_CN"
    await asyncio.sleep(0)

    again = controller.open_dialog()
    qtbot.addWidget(again)
    again.tabs.setCurrentIndex(again.page_titles().index("Appearance"))
    assert again.language.combo.currentText() == "简体中文"
    assert not again.language.note.isVisible()  # nothing changed yet in this dialog
    again.language.combo.setCurrentIndex(0)
    assert again.language.note.isVisible()
    assert again.edited_settings().language == ""
    again.reject()
    await controller.aclose()


def test_old_settings_files_load_with_the_desktop_language(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"theme": "dark", "temperature": 0.3}), encoding="utf-8")
    loaded = load_settings(path)
    assert loaded.warning is None
    assert loaded.settings == Settings(theme="dark", temperature=0.3, language="")
