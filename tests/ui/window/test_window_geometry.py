"""The window opens within the screen and where the user left it, when that still fits."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel, QMainWindow, QSplitter
from pytestqt.qtbot import QtBot

from desktop_agent.ui.window._geometry import (
    WindowPlacement,
    place_window,
    save_placement,
    state_path,
)


def _window(qtbot: QtBot) -> tuple[QMainWindow, QSplitter]:
    window = QMainWindow()
    splitter = QSplitter()
    splitter.addWidget(QLabel("sidebar"))
    splitter.addWidget(QLabel("chat"))
    window.setCentralWidget(splitter)
    qtbot.addWidget(window)
    return window, splitter


def _available() -> QRect:
    screen = QGuiApplication.primaryScreen()
    assert screen is not None
    return screen.availableGeometry()


def test_the_default_size_is_clamped_to_the_screen(qtbot: QtBot, tmp_path: Path) -> None:
    window, splitter = _window(qtbot)
    assert not place_window(window, splitter, tmp_path / "window.json")
    area = _available()
    assert area.width() < 1100 or area.height() < 760  # the offscreen screen is small
    assert area.contains(window.geometry())


def test_size_position_and_splitter_come_back(qtbot: QtBot, tmp_path: Path) -> None:
    path = tmp_path / "window.json"
    window, splitter = _window(qtbot)
    area = _available()
    window.setGeometry(QRect(area.x() + 10, area.y() + 20, 500, 400))
    window.show()
    splitter.setSizes([150, 350])
    sizes = splitter.sizes()
    save_placement(window, splitter, path)

    again, again_splitter = _window(qtbot)
    assert place_window(again, again_splitter, path)
    assert again.geometry() == QRect(area.x() + 10, area.y() + 20, 500, 400)
    again.show()
    assert again_splitter.sizes() == sizes


def test_a_saved_placement_that_does_not_fit_is_ignored(qtbot: QtBot, tmp_path: Path) -> None:
    path = tmp_path / "window.json"
    area = _available()
    too_big = WindowPlacement(0, 0, area.width() * 2, area.height() * 2)
    path.write_text(json.dumps(too_big.__dict__), encoding="utf-8")
    window, splitter = _window(qtbot)
    assert not place_window(window, splitter, path)
    assert area.contains(window.geometry())


def test_a_broken_state_file_means_the_default(qtbot: QtBot, tmp_path: Path) -> None:
    path = tmp_path / "window.json"
    path.write_text("{not json", encoding="utf-8")
    window, splitter = _window(qtbot)
    assert not place_window(window, splitter, path)
    assert _available().contains(window.geometry())


def test_the_state_file_lives_under_the_data_root(desktop_agent_home: Path) -> None:
    assert state_path() == desktop_agent_home / "window.json"


async def test_the_app_remembers_its_window_across_runs(
    qtbot: QtBot, desktop_agent_home: Path
) -> None:
    from desktop_agent.ui.window import DesktopApp

    first = DesktopApp(environ={}, local_servers=[])
    qtbot.addWidget(first.window)
    await first.start()
    area = _available()
    first.window.setGeometry(QRect(area.x() + 5, area.y() + 5, 760, 500))
    await first.aclose()
    saved = json.loads((desktop_agent_home / "window.json").read_text(encoding="utf-8"))
    assert (saved["width"], saved["height"]) == (760, 500)

    second = DesktopApp(environ={}, local_servers=[])
    qtbot.addWidget(second.window)
    await second.start()
    assert second.window.size().toTuple() == (760, 500)
    await second.aclose()


def test_the_window_fits_a_small_screen_at_double_scale(qtbot: QtBot) -> None:
    from desktop_agent.ui.window import DesktopApp

    app = DesktopApp(environ={}, local_servers=[])
    qtbot.addWidget(app.window)
    minimum = app.window.minimumSizeHint()
    # 1400×900 at QT_SCALE_FACTOR=2 (the screen) leaves 700×450 logical pixels
    assert minimum.width() <= 680 and minimum.height() <= 420
