"""Where the window opens: the last size, position and sidebar width, if they still fit.

The window's wanted size is a default in logical pixels; with a large ``QT_SCALE_FACTOR``
(or a small screen) it may not fit, so it is clamped to the screen's available area and
centred there. What the user last had is kept in a small state file under the data root
(``window.json``), not in the settings: it is not a preference, and a broken or stale file
only means the default placement. It is restored only when it fits a current screen.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, field
from pathlib import Path

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QMainWindow, QSplitter

from desktop_agent.app._files import data_dir

logger = logging.getLogger(__name__)

STATE_FILE = "window.json"
DEFAULT_SIZE = QSize(1100, 760)
SCREEN_SHARE = 0.92
"""At most this share of the available screen is taken by the default size."""


@dataclass
class WindowPlacement:
    """The window's normal (not maximized) geometry and sidebar width."""

    x: int
    y: int
    width: int
    height: int
    maximized: bool = False
    splitter: list[int] = field(default_factory=list)

    @property
    def rect(self) -> QRect:
        """The normal geometry."""
        return QRect(self.x, self.y, self.width, self.height)


def state_path(root: Path | None = None) -> Path:
    """The state file under ``root`` (default: the data root)."""
    return (root if root is not None else data_dir()) / STATE_FILE


def load_placement(path: Path) -> WindowPlacement | None:
    """The saved placement, or ``None`` (missing or unreadable file)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return WindowPlacement(
            x=int(data["x"]),
            y=int(data["y"]),
            width=int(data["width"]),
            height=int(data["height"]),
            maximized=bool(data.get("maximized", False)),
            splitter=[int(size) for size in data.get("splitter", [])],
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        if path.exists():
            logger.info("Ignoring the window state in %s: %s", path, exc)
        return None


def save_placement(window: QMainWindow, splitter: QSplitter, path: Path) -> None:
    """Remember ``window``'s normal geometry and the splitter's sizes."""
    rect = window.normalGeometry() if window.isMaximized() else window.geometry()
    placement = WindowPlacement(
        rect.x(), rect.y(), rect.width(), rect.height(), window.isMaximized(), splitter.sizes()
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(placement)), encoding="utf-8")
    except OSError as exc:
        logger.info("Could not save the window state to %s: %s", path, exc)


def fits(rect: QRect, screens: list[QScreen] | None = None) -> bool:
    """Whether ``rect`` lies within the available area of one of the screens."""
    for screen in screens if screens is not None else QGuiApplication.screens():
        if screen.availableGeometry().contains(rect):
            return True
    return False


def default_rect(window: QMainWindow, screen: QScreen | None) -> QRect:
    """The default size, clamped to ``screen``'s available area, centred on it."""
    if screen is None:
        return QRect(0, 0, DEFAULT_SIZE.width(), DEFAULT_SIZE.height())
    area = screen.availableGeometry()
    minimum = window.minimumSizeHint().expandedTo(window.minimumSize())
    width = min(DEFAULT_SIZE.width(), int(area.width() * SCREEN_SHARE))
    height = min(DEFAULT_SIZE.height(), int(area.height() * SCREEN_SHARE))
    # Never below what the window needs, never beyond the screen.
    width = min(max(width, minimum.width()), area.width())
    height = min(max(height, minimum.height()), area.height())
    rect = QRect(0, 0, width, height)
    rect.moveCenter(area.center())
    return rect


def place_window(window: QMainWindow, splitter: QSplitter, path: Path) -> bool:
    """Size and position ``window`` before it is shown; whether the saved state was used."""
    saved = load_placement(path)
    if saved is not None and saved.width > 0 and fits(saved.rect):
        window.setGeometry(saved.rect)
        if len(saved.splitter) == splitter.count() and all(s > 0 for s in saved.splitter):
            splitter.setSizes(saved.splitter)
        if saved.maximized:
            window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)
        return True
    window.setGeometry(default_rect(window, window.screen() or QGuiApplication.primaryScreen()))
    return False
