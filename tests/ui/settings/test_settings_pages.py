"""The Settings dialog's tabs: built-in pages and pages added by features."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from desktop_agent.app import Settings
from desktop_agent.ui.settings import SettingsDialog


class _ImagesPage(QWidget):
    """A feature page that edits one setting."""

    def __init__(self) -> None:
        super().__init__()
        self.box = QCheckBox("Images")
        QVBoxLayout(self).addWidget(self.box)
        self.loaded: Settings | None = None

    def load(self, settings: Settings) -> None:
        self.loaded = settings
        self.box.setChecked(settings.allow_remote_images)

    def apply(self, settings: Settings) -> Settings:
        return settings.model_copy(update={"allow_remote_images": self.box.isChecked()})


def test_dialog_has_model_and_appearance_tabs(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    assert dialog.page_titles() == ["Model", "Appearance"]


def test_added_page_is_loaded_and_its_edits_are_saved(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings(temperature=0.3))
    qtbot.addWidget(dialog)
    page = _ImagesPage()
    dialog.add_page("Images", page)
    assert dialog.page_titles()[-1] == "Images"
    assert page.loaded is not None and page.loaded.temperature == 0.3
    page.box.setChecked(True)
    saved: list[Settings] = []
    dialog.saved.connect(saved.append)
    dialog.accept()
    assert saved[0].allow_remote_images is True
    assert saved[0].temperature == 0.3


def test_an_ampersand_in_a_title_is_shown_not_taken_as_a_shortcut(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.add_page("Files & network", _ImagesPage())
    assert dialog.tabs.tabText(dialog.tabs.count() - 1) == "Files && network"  # Qt's escape
    assert dialog.page_titles()[-1] == "Files & network"


def test_a_widget_that_is_not_a_page_is_refused(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    try:
        dialog.add_page("Bad", QWidget())
    except TypeError as exc:
        assert "SettingsPage" in str(exc)
    else:
        raise AssertionError("a plain widget was accepted as a page")
