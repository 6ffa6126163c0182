"""The main window: sidebar · chat pane (or first-run panel, or the problem panel of a
session that cannot be opened) · composer · status line.

A passive view. Closing it does not quit Qt (``setQuitOnLastWindowClosed(False)``): it
emits ``close_requested`` and the main coroutine shuts down while the loop still runs.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QMainWindow,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.ui._notice import DismissibleNotice
from desktop_agent.ui.composer import Composer
from desktop_agent.ui.sidebar import SessionProblemPanel, Sidebar
from desktop_agent.ui.window._first_run import FirstRunPanel
from desktop_agent.ui.window._status_line import StatusLine


class Banner(DismissibleNotice):
    """A dismissible one-line notice above the chat (e.g. "settings file was unusable")."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("banner", parent=parent)


class MainWindow(QMainWindow):
    """Signals: ``close_requested`` (window closed), ``stop_requested`` (Esc),
    ``first_painted`` (once, after the first paint of the window's content)."""

    close_requested = Signal()
    stop_requested = Signal()
    first_painted = Signal()

    def __init__(self, chat_view: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Desktop Agent")
        self.resize(1100, 760)
        self.sidebar = Sidebar()
        self.chat_view = chat_view
        self.first_run = FirstRunPanel()
        self.banner = Banner()
        self.composer = Composer()
        self.status_line = StatusLine()
        self._pages = QStackedWidget()
        self._pages.addWidget(chat_view)
        self._pages.addWidget(self.first_run)
        self.session_problem = SessionProblemPanel()
        self._pages.addWidget(self.session_problem)
        self._first_run_wanted = False
        self._painted = False
        self._build_layout()
        self.new_chat_shortcut = QShortcut(QKeySequence.StandardKey.New, self)
        self.new_chat_shortcut.activated.connect(self.sidebar.new_chat_requested)
        self.template_shortcut = QShortcut(QKeySequence("Ctrl+T"), self)
        self.template_shortcut.activated.connect(self.sidebar.template_requested)

    def show_first_run(self, shown: bool) -> None:
        """Show the first-run panel instead of the chat (no provider configured)."""
        self._first_run_wanted = shown
        self._pages.setCurrentWidget(self.first_run if shown else self.chat_view)

    def show_session_problem(self, shown: bool) -> None:
        """Show the problem panel of a session instead of the chat, or stop showing it."""
        if shown:
            self._pages.setCurrentWidget(self.session_problem)
        elif self.session_problem_shown:
            self.show_first_run(self._first_run_wanted)

    @property
    def session_problem_shown(self) -> bool:
        """Whether the problem panel of a session is the visible page."""
        return self._pages.currentWidget() is self.session_problem

    @property
    def first_run_shown(self) -> bool:
        """Whether the first-run panel is the visible page."""
        return self._pages.currentWidget() is self.first_run

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Esc from anywhere in the window
        """Esc stops a running turn (keys the focused widget ignores end up here)."""
        if event.key() == Qt.Key.Key_Escape:
            self.stop_requested.emit()
            event.accept()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Ask the application to shut down; it cleans up while the loop still runs."""
        self.close_requested.emit()
        event.accept()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Notice the first paint of the window's content (startup benchmark, prewarm)."""
        if not self._painted and event.type() == QEvent.Type.Paint:
            self._painted = True
            watched.removeEventFilter(self)
            # After this paint completes; `self` as context cancels it if the window goes.
            QTimer.singleShot(0, self, self._announce_first_paint)
        return False

    def _announce_first_paint(self) -> None:
        self.first_painted.emit()

    def _build_layout(self) -> None:
        chat_column = QWidget()
        column = QVBoxLayout(chat_column)
        column.setContentsMargins(12, 8, 12, 4)
        column.setSpacing(6)
        column.addWidget(self.banner)
        column.addWidget(self._pages, 1)
        column.addWidget(self.composer)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.sidebar)
        splitter.addWidget(chat_column)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([260, 840])
        splitter.setChildrenCollapsible(False)
        central = QWidget()
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(splitter, 1)
        outer.addWidget(self.status_line)
        self.setCentralWidget(central)
        central.installEventFilter(self)
