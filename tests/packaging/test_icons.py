"""The app icon: every PNG size, drawn from the SVG, set on the application and its window."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon, QImage
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from desktop_agent.ui.app import APP_ID, ICON_SIZES, describe_application
from desktop_agent.ui.window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
ICONS = ROOT / "resources" / "icons"


def _make_icons() -> ModuleType:
    """``packaging/make_icons.py``, the script that draws the PNGs."""
    spec = importlib.util.spec_from_file_location("make_icons", ROOT / "packaging/make_icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_svg_sources_are_valid(qapp: QApplication) -> None:
    for name in ("desktop-agent.svg", "desktop-agent-small.svg"):
        assert QSvgRenderer(str(ICONS / name)).isValid(), name


@pytest.mark.parametrize("size", ICON_SIZES)
def test_png_has_its_size_a_transparent_margin_and_a_drawing(qapp: QApplication, size: int) -> None:
    image = QImage(str(ICONS / f"desktop-agent-{size}.png"))
    assert (image.width(), image.height()) == (size, size)
    assert image.hasAlphaChannel()
    assert image.pixelColor(0, 0).alpha() == 0  # corners are transparent
    assert image.pixelColor(size // 3, size // 3).alpha() == 255  # the bubble is opaque


def _mean_difference(a: QImage, b: QImage) -> float:
    """The mean absolute difference per channel (0-255) of two same-sized images."""
    total = 0
    for y in range(a.height()):
        for x in range(a.width()):
            pa, pb = a.pixelColor(x, y), b.pixelColor(x, y)
            total += abs(pa.red() - pb.red()) + abs(pa.green() - pb.green())
            total += abs(pa.blue() - pb.blue()) + abs(pa.alpha() - pb.alpha())
    return total / (a.width() * a.height() * 4)


def test_pngs_are_up_to_date_with_the_svgs(qapp: QApplication) -> None:
    make_icons = _make_icons()
    for size in (16, 64):
        source = make_icons.SMALL_SOURCE if size <= make_icons.SMALL_MAX else make_icons.SOURCE
        drawn = make_icons.render(QSvgRenderer(str(source)), size)
        committed = QImage(str(make_icons.png_path(size))).convertToFormat(drawn.format())
        # A tolerance for anti-aliasing differences between Qt versions.
        assert _mean_difference(drawn, committed) < 2.0, f"re-run packaging/make_icons.py ({size})"


@pytest.fixture
def described_app(qapp: QApplication) -> Iterator[QApplication]:
    """The application after ``describe_application``; its identity restored afterwards."""
    saved = (
        qapp.applicationName(),
        qapp.applicationDisplayName(),
        qapp.organizationName(),
        qapp.applicationVersion(),
        QApplication.desktopFileName(),
        QApplication.windowIcon(),
    )
    describe_application(qapp)
    yield qapp
    qapp.setApplicationName(saved[0])
    qapp.setApplicationDisplayName(saved[1])
    qapp.setOrganizationName(saved[2])
    qapp.setApplicationVersion(saved[3])
    QApplication.setDesktopFileName(saved[4])
    QApplication.setWindowIcon(saved[5])


def test_application_has_its_name_desktop_id_and_icon(described_app: QApplication) -> None:
    assert described_app.applicationName() == "desktop-agent"
    assert described_app.applicationDisplayName() == "Desktop Agent"
    assert QApplication.desktopFileName() == APP_ID
    icon = QApplication.windowIcon()
    assert sorted(size.width() for size in icon.availableSizes()) == sorted(ICON_SIZES)
    assert icon.pixmap(QSize(48, 48)).size() == QSize(48, 48)


def test_main_window_shows_the_app_icon(described_app: QApplication, qtbot: QtBot) -> None:
    window = MainWindow(QWidget())
    qtbot.addWidget(window)
    window.show()
    icon: QIcon = window.windowIcon()
    assert not icon.isNull()
    assert icon.cacheKey() == QApplication.windowIcon().cacheKey()
