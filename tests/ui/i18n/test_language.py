"""The window's language: chosen by the environment, the setting or the desktop; installed
with Qt's own translations before any widget; right-to-left languages mirror the layout."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QPoint, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

import desktop_agent.ui._i18n as ui_i18n
from desktop_agent import _i18n
from desktop_agent.app import Settings, save_settings
from desktop_agent.ui.window import DesktopApp

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def catalogs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with ``desktop_agent_<lang>.qm`` compiled from the current .ts files."""
    folder = tmp_path_factory.mktemp("i18n")
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = script
    spec.loader.exec_module(script)
    for language in script.LANGUAGES:
        sources = [str(script.ts_path(a, language)) for a in script.AREAS]
        out = folder / f"desktop_agent_{language}.qm"
        subprocess.run([script._tool("lrelease"), "-silent", *sources, "-qm", str(out)], check=True)
    return folder


@pytest.fixture
def languages(catalogs: Path, monkeypatch: pytest.MonkeyPatch, qapp: QApplication) -> Path:
    monkeypatch.setattr(ui_i18n, "translations_dir", lambda: catalogs)
    return catalogs


def test_the_environment_chooses_chinese(languages: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ui_i18n.LANGUAGE_ENV, "zh_CN")
    locale = ui_i18n.install_language("en")  # the environment wins over the setting
    assert locale.name() == "zh_CN" and QLocale().name() == "zh_CN"
    assert QCoreApplication.translate("Sidebar", "Trash") == "回收站"
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"  # Qt's own
    assert _i18n.translate("McpServerStatus", "Connected · %n tool(s)", None, 2) == (
        "已连接 · 2 个工具"
    )
    assert QApplication.layoutDirection() == Qt.LayoutDirection.LeftToRight


def test_the_setting_chooses_when_the_environment_does_not(
    languages: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ui_i18n.LANGUAGE_ENV)
    ui_i18n.install_language("zh_CN")
    assert QCoreApplication.translate("Sidebar", "Trash") == "回收站"
    ui_i18n.install_language("en")  # again: the Chinese translators go
    assert QCoreApplication.translate("Sidebar", "Trash") == "Trash"
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"


def test_the_desktop_locale_is_followed_by_default(
    languages: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class ChineseDesktop(QLocale):
        @staticmethod
        def system() -> QLocale:
            return QLocale("zh_Hans_CN")  # as a desktop names it

    monkeypatch.delenv(ui_i18n.LANGUAGE_ENV)
    monkeypatch.setattr(ui_i18n, "QLocale", ChineseDesktop)
    ui_i18n.install_language("")
    assert QCoreApplication.translate("Sidebar", "Trash") == "回收站"


def test_english_installs_its_plural_forms(
    languages: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ui_i18n.LANGUAGE_ENV, "en")
    ui_i18n.install_language()
    shown = [
        QCoreApplication.translate("McpServerStatus", "Connected · %n tool(s)", None, n)
        for n in (1, 2)
    ]
    assert shown == ["Connected · 1 tool", "Connected · 2 tools"]


def test_a_language_without_a_translation_stays_english(
    languages: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ui_i18n.LANGUAGE_ENV, "ja_JP")
    ui_i18n.install_language()
    assert QCoreApplication.translate("Sidebar", "Trash") == "Trash"


@pytest.fixture
async def arabic_window(
    qtbot: QtBot, languages: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[DesktopApp]:
    monkeypatch.setenv(ui_i18n.LANGUAGE_ENV, "ar")
    app = DesktopApp(environ={}, local_servers=[])
    qtbot.addWidget(app.window)
    await app.start()
    yield app
    await app.aclose()


async def test_an_arabic_desktop_mirrors_the_window(arabic_window: DesktopApp) -> None:
    window = arabic_window.window
    assert QApplication.layoutDirection() == Qt.LayoutDirection.RightToLeft
    assert window.layoutDirection() == Qt.LayoutDirection.RightToLeft
    sidebar_x = window.sidebar.mapTo(window, QPoint(0, 0)).x()
    composer_x = window.composer.mapTo(window, QPoint(0, 0)).x()
    assert sidebar_x > composer_x  # the sidebar is on the right


async def test_the_language_setting_reaches_the_window(
    qtbot: QtBot, languages: Path, monkeypatch: pytest.MonkeyPatch, desktop_agent_home: Path
) -> None:
    monkeypatch.delenv(ui_i18n.LANGUAGE_ENV)
    path = desktop_agent_home / "settings.json"
    save_settings(Settings(language="zh_CN"), path)
    app = DesktopApp(settings_path=path, environ={}, local_servers=[])
    qtbot.addWidget(app.window)
    await app.start()
    try:
        assert app.window.sidebar.trash_button.text() == "回收站"
    finally:
        await app.aclose()


def test_without_a_translation_the_qt_free_layers_keep_their_english_plurals(
    languages: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ui_i18n.LANGUAGE_ENV, "ja_JP")
    ui_i18n.install_language()
    assert _i18n.translate("McpServerStatus", "Connected · %n tool(s)", None, 1) == (
        "Connected · 1 tool"
    )
