"""The main window: sidebar · chat pane (or first-run panel, or the problem panel of a
session that cannot be opened) · composer · status line.

A passive view. Closing it does not quit Qt (``setQuitOnLastWindowClosed(False)``): it
emits ``close_requested`` and the main coroutine shuts down while the loop still runs.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QApplication,
    QHBoxLayout,
    QMainWindow,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.ui._notice import DismissibleNotice
from desktop_agent.ui.composer import Composer
from desktop_agent.ui.sidebar import SessionProblemPanel, Sidebar
from desktop_agent.ui.window._assistant_picker import AssistantPicker
from desktop_agent.ui.window._chat_params_dialog import params_button
from desktop_agent.ui.window._first_run import FirstRunPanel
from desktop_agent.ui.window._model_picker import ModelPicker
from desktop_agent.ui.window._shortcut_overlay import ShortcutOverlay
from desktop_agent.ui.window._shortcuts import ShortcutMap
from desktop_agent.ui.window._status_line import StatusLine
from desktop_agent.ui.window._trash_preview import TrashPreview


class Banner(DismissibleNotice):
    """A dismissible one-line notice above the chat (e.g. "settings file was unusable")."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("banner", parent=parent)
        self.settings_button = QPushButton(QCoreApplication.translate("Banner", "Open Settings"))
        self.settings_button.hide()
        self.add_button(self.settings_button)

    def show_text(self, text: str, error: bool = False, settings: bool = False) -> None:
        """Show ``text``; ``settings`` adds an "Open Settings" button (what to do next)."""
        self.settings_button.setVisible(settings)
        super().show_text(text, error)


class MainWindow(QMainWindow):
    """Signals: ``close_requested`` (window closed), ``stop_requested`` (Esc),
    ``first_painted`` (once, after the first paint of the window's content)."""

    close_requested = Signal()
    stop_requested = Signal()
    first_painted = Signal()
    trash_restore_requested = Signal(str)  # Restore on the trash preview (a session id)

    def __init__(self, chat_view: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("MainWindow", "Desktop Agent"))
        self.resize(1100, 760)  # the app places it on the screen (window/_geometry.py)
        self.sidebar = Sidebar()
        self.chat_view = chat_view
        self.first_run = FirstRunPanel()
        self.banner = Banner()
        self.composer = Composer()
        self.status_line = StatusLine()
        self.model_picker = ModelPicker()  # the chat header (issue 17)
        self.assistant_picker = AssistantPicker()
        self.params_button = params_button()  # this chat's temperature, max tokens, …
        self._pages = QStackedWidget()
        self._pages.addWidget(chat_view)
        self._pages.addWidget(self.first_run)
        self.session_problem = SessionProblemPanel()
        self._pages.addWidget(self.session_problem)
        self._trash_preview: TrashPreview | None = None  # built when first shown (start-up)
        self._first_run_wanted = False
        self._painted = False
        self._build_layout()
        self.shortcut_overlay = ShortcutOverlay(self._central)
        self.shortcuts = ShortcutMap(self)  # the registry: window/_shortcuts.py SHORTCUTS
        self.shortcuts.connect("new_chat", self.sidebar.new_chat_requested.emit)
        self.shortcuts.connect("template", self.sidebar.template_requested.emit)
        self.shortcuts.connect("settings", self.sidebar.settings_requested.emit)
        self.shortcuts.connect("search", self.focus_search)
        self.shortcuts.connect("find", self.open_find)
        self.shortcuts.connect("shortcuts", self.toggle_shortcut_overlay)
        self.shortcuts.connect("model_picker", self.model_picker.open_list)
        self.shortcuts.connect("assistant_picker", self.open_assistant_picker)
        self.shortcuts.connect("chat_params", self.params_button.click)

    def open_assistant_picker(self) -> None:
        """Ctrl+Shift+A: the chat's assistants, the list open and focused."""
        self.assistant_picker.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.assistant_picker.showPopup()

    def focus_composer(self) -> None:
        """Put the keyboard focus in the message field (after a dialog, Stop, a file pick)."""
        if self.composer.input.isEnabled():
            self.composer.input.setFocus(Qt.FocusReason.OtherFocusReason)

    def open_find(self) -> None:
        """Ctrl+F: find in the chat shown (its find bar), if it has one."""
        open_find = getattr(self.chat_view, "open_find", None)
        if callable(open_find):
            open_find()

    def focus_search(self) -> None:
        """Ctrl+K / Ctrl+Shift+F: type to search the chats."""
        self.sidebar.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.sidebar.search.selectAll()

    def toggle_shortcut_overlay(self) -> None:
        """F1 / Ctrl+/: show (or close) the list of every shortcut."""
        self.shortcut_overlay.toggle(self.shortcuts.listed())

    def tab_stops(self) -> list[QWidget]:
        """Where Tab goes, in order: composer, Send, the chat header (assistant, model,
        parameters), the chat (its list, then the buttons of the visible messages top to
        bottom), the sidebar. Message rows come and go as the
        chat scrolls, so the order is computed when Tab is pressed, not fixed at creation."""
        chat: list[QWidget] = []
        chat_list = self.chat_view.focusProxy() or self.chat_view
        if isinstance(chat_list, QAbstractScrollArea):
            viewport = chat_list.viewport()
            buttons = [b for b in viewport.findChildren(QAbstractButton) if _takes_tab(b, viewport)]
            buttons.sort(
                key=lambda b: (b.mapTo(viewport, QPoint()).y(), b.mapTo(viewport, QPoint()).x())
            )
            chat = [chat_list, *buttons]
        composer = [self.composer.input, self.composer.attach_button, self.composer.send_button]
        sidebar = [w for w in self.sidebar.findChildren(QWidget) if _takes_tab(w, self.sidebar)]
        sidebar.sort(
            key=lambda w: (w.mapTo(self.sidebar, QPoint()).y(), w.mapTo(self.sidebar, QPoint()).x())
        )
        header = [self.assistant_picker, self.model_picker, self.params_button]
        stops = [*composer, *header, *chat, *sidebar, *self._page_stops()]
        return [w for w in stops if w.isVisible() and w.isEnabled()]

    def _page_stops(self) -> list[QWidget]:
        page = self._pages.currentWidget()
        if page is self.chat_view or page is None:
            return []
        return [w for w in page.findChildren(QWidget) if _takes_tab(w, page)]

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab / Shift+Tab follow :meth:`tab_stops` (other widgets: Qt's chain)."""
        if self.shortcut_overlay.isVisible():
            return True
        stops = self.tab_stops()
        current = QApplication.focusWidget()
        while current is not None and current not in stops and current is not self:
            current = current.parentWidget()
        if not stops or current not in stops:
            return super().focusNextPrevChild(next)
        index = stops.index(current) + (1 if next else -1)
        stops[index % len(stops)].setFocus(
            Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason
        )
        return True

    def show_first_run(self, shown: bool) -> None:
        """Show the first-run panel instead of the chat (no provider configured)."""
        self._first_run_wanted = shown
        self.composer.setEnabled(True)  # (it is off only while a trashed chat shows)
        self._pages.setCurrentWidget(self.first_run if shown else self.chat_view)

    def show_trash_preview(self, shown: bool) -> None:
        """Show a deleted chat read-only (the composer off), or go back to the chat."""
        if shown:
            self._pages.setCurrentWidget(self.trash_preview)
            self.composer.setEnabled(False)
            self.composer.setToolTip(
                QCoreApplication.translate(
                    "MainWindow", "This chat is in the Trash: restore it to continue."
                )
            )
        elif self.trash_preview_shown:
            self.composer.setToolTip("")
            self.show_first_run(self._first_run_wanted)

    @property
    def trash_preview(self) -> TrashPreview:
        """The read-only view of a deleted chat, built on first use (a second chat view
        costs ~30 ms that the first paint does not need)."""
        if self._trash_preview is None:
            self._trash_preview = TrashPreview()
            self._trash_preview.restore_requested.connect(self.trash_restore_requested)
            self._pages.addWidget(self._trash_preview)
        return self._trash_preview

    @property
    def trash_preview_shown(self) -> bool:
        """Whether a deleted chat is the visible page."""
        current = self._pages.currentWidget()
        return current is not None and current is self._trash_preview

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
        header = QHBoxLayout()  # the chat header: assistant, model
        header.addWidget(self.assistant_picker)
        header.addWidget(self.model_picker)
        header.addWidget(self.params_button)
        header.addStretch(1)
        column.addLayout(header)
        column.addWidget(self.banner)
        column.addWidget(self._pages, 1)
        column.addWidget(self.composer)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.sidebar)
        splitter.addWidget(chat_column)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([260, 840])
        splitter.setChildrenCollapsible(False)
        self.splitter = splitter
        central = QWidget()
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(splitter, 1)
        outer.addWidget(self.status_line)
        self.setCentralWidget(central)
        self._central = central
        central.installEventFilter(self)


def _takes_tab(widget: QWidget, within: QWidget) -> bool:
    """Whether ``widget`` is a visible, enabled Tab stop shown inside ``within``."""
    return (
        bool(widget.focusPolicy().value & Qt.FocusPolicy.TabFocus.value)
        and widget.isVisibleTo(within)
        and widget.isEnabled()
        and widget.focusProxy() is None
    )
