"""The shortcut overlay (F1 or Ctrl+/): a card over the window listing every shortcut.

It is a child of the window's central widget rather than a dialog: it dims the window,
closes with Esc, a click or the same keys, and reads :data:`SHORTCUTS` each time it opens
(so shortcuts added later are listed without touching this file).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout, QWidget

from desktop_agent.ui.window._shortcuts import Shortcut, shown_keys


class ShortcutOverlay(QWidget):
    """Covers its parent; a centred card lists the shortcuts."""

    def __init__(self, parent: QWidget) -> None:
        """An overlay over ``parent`` (hidden until :meth:`show_shortcuts`)."""
        super().__init__(parent)
        self.setObjectName("shortcutOverlay")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.card = QFrame(self)
        self.card.setObjectName("shortcutCard")
        self.card.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        column = QVBoxLayout(self.card)
        column.setContentsMargins(20, 16, 20, 16)
        title = QLabel(QCoreApplication.translate("ShortcutOverlay", "Keyboard shortcuts"))
        title.setObjectName("shortcutTitle")
        column.addWidget(title)
        self._grid = QGridLayout()
        self._grid.setHorizontalSpacing(18)
        self._grid.setVerticalSpacing(6)
        column.addLayout(self._grid)
        hint = QLabel(QCoreApplication.translate("ShortcutOverlay", "Esc to close"))
        hint.setObjectName("caption")
        column.addWidget(hint, 0, Qt.AlignmentFlag.AlignRight)
        self.rows: list[tuple[str, str]] = []
        parent.installEventFilter(self)
        self.hide()

    def show_shortcuts(self, shortcuts: list[Shortcut]) -> None:
        """List ``shortcuts`` and show the overlay, with the keyboard focus."""
        while self._grid.count():
            item = self._grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.rows = []
        for row, shortcut in enumerate(shortcuts):
            keys = QLabel(shown_keys(shortcut))
            keys.setObjectName("shortcutKeys")
            keys.setProperty("i18n_data", True)  # key names: Qt's QKeySequence words them
            keys.setTextFormat(Qt.TextFormat.PlainText)
            what = QLabel(QCoreApplication.translate("ShortcutOverlay", shortcut.description))
            what.setTextFormat(Qt.TextFormat.PlainText)
            self._grid.addWidget(keys, row, 0, Qt.AlignmentFlag.AlignRight)
            self._grid.addWidget(what, row, 1)
            self.rows.append((keys.text(), what.text()))
        self._fit()
        self.show()
        self.raise_()
        self.setFocus()

    def toggle(self, shortcuts: list[Shortcut]) -> None:
        """Show the overlay, or close it if it is open (F1 twice)."""
        if self.isVisible():
            self.close_overlay()
        else:
            self.show_shortcuts(shortcuts)

    def close_overlay(self) -> None:
        """Hide; focus goes back where the window wants it (see ``closed`` handlers)."""
        self.hide()
        parent = self.parentWidget()
        if parent is not None:
            window = parent.window()
            focus = getattr(window, "focus_composer", None)
            if callable(focus):
                focus()

    def _fit(self) -> None:
        parent = self.parentWidget()
        if parent is None:
            return
        self.setGeometry(parent.rect())
        self.card.adjustSize()
        card = self.card.rect()
        card.moveCenter(self.rect().center())
        self.card.move(card.topLeft())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Follow the parent's size."""
        if event.type() == QEvent.Type.Resize and self.isVisible():
            self._fit()
        return False

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Esc (or any key but a modifier) closes."""
        if event.key() not in (Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt):
            self.close_overlay()
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """A click anywhere closes."""
        self.close_overlay()
        event.accept()

    def paintEvent(self, event: QPaintEvent) -> None:
        """Dim the window behind the card."""
        painter = QPainter(self)
        try:
            painter.fillRect(event.rect(), QColor(0, 0, 0, 110))
        finally:
            painter.end()
