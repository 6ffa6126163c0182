"""Editing a sent message in place: its text in an editor inside the bubble, selected.

Enter resends (as a new version of the message), Shift+Enter breaks the line, Esc cancels.
The window's Esc (Stop) and other shortcuts do not see these keys while the editor has
focus. Plain text only: pasted rich text arrives as text.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
_NEWLINE_MODIFIERS = (
    Qt.KeyboardModifier.ShiftModifier
    | Qt.KeyboardModifier.ControlModifier
    | Qt.KeyboardModifier.AltModifier
)
MAX_LINES = 12


class _EditField(QPlainTextEdit):
    """The text field: Enter submits, Esc cancels, Shift+Enter is a new line."""

    submitted = Signal()
    cancelled = Signal()

    def event(self, event: QEvent) -> bool:
        """Claim Enter and Esc before window shortcuts (Esc stops a turn elsewhere)."""
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() in (*_ENTER, Qt.Key.Key_Escape)
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter submits; Shift/Ctrl/Alt+Enter inserts a newline; Esc cancels."""
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
            event.accept()
            return
        if event.key() in _ENTER:
            if event.modifiers() & _NEWLINE_MODIFIERS:
                self.textCursor().insertText("\n")
            else:
                self.submitted.emit()
            event.accept()
            return
        super().keyPressEvent(event)


class InlineEditor(QWidget):
    """The editor shown in a user's bubble instead of its text.

    Signals:
        submitted(str): Enter (or "Send"): the new text, stripped, never empty.
        cancelled(): Esc (or "Cancel").
    """

    submitted = Signal(str)
    cancelled = Signal()

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        """Show ``text``, all of it selected, with the cursor in the field."""
        super().__init__(parent)
        self.setObjectName("inlineEditor")
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(6)
        self.field = _EditField(self)
        self.field.setObjectName("inlineEditField")
        self.field.setTabChangesFocus(True)
        self.field.setPlainText(text)
        self.field.selectAll()
        self.field.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.field.document().contentsChanged.connect(self._fit_height)
        column.addWidget(self.field)
        row = QHBoxLayout()
        row.setSpacing(6)
        hint = QLabel(
            QCoreApplication.translate(
                "InlineEditor", "Enter to resend as a new version · Esc to cancel"
            ),
            self,
        )
        hint.setTextFormat(Qt.TextFormat.PlainText)
        hint.setObjectName("caption")
        row.addWidget(hint, 1)
        self.cancel_button = QPushButton(QCoreApplication.translate("InlineEditor", "Cancel"), self)
        self.cancel_button.setObjectName("cancelEdit")
        self.send_button = QPushButton(QCoreApplication.translate("InlineEditor", "Send"), self)
        self.send_button.setObjectName("sendEdit")
        self.send_button.setDefault(True)
        row.addWidget(self.cancel_button)
        row.addWidget(self.send_button)
        column.addLayout(row)
        self.field.submitted.connect(self._submit)
        self.send_button.clicked.connect(self._submit)
        self.field.cancelled.connect(self.cancelled)
        self.cancel_button.clicked.connect(self.cancelled)
        self._fit_height()

    def text(self) -> str:
        """What the field holds now."""
        return self.field.toPlainText()

    def focus(self) -> None:
        """Put the keyboard focus in the field (the text stays selected)."""
        self.field.setFocus(Qt.FocusReason.OtherFocusReason)
        if not self.field.textCursor().hasSelection():
            self.field.moveCursor(QTextCursor.MoveOperation.End)

    def _submit(self) -> None:
        text = self.text().strip()
        if text:
            self.submitted.emit(text)

    def _fit_height(self) -> None:
        """As tall as the text (up to :data:`MAX_LINES` lines, then it scrolls)."""
        metrics = self.field.fontMetrics()
        lines = max(1, min(MAX_LINES, self.field.document().blockCount()))
        wrapped = max(lines, self.field.document().lineCount())
        height = metrics.lineSpacing() * min(MAX_LINES, wrapped) + 14
        self.field.setFixedHeight(height)

    def sizeHint(self) -> QSize:
        """Wide enough to edit comfortably."""
        hint = super().sizeHint()
        return QSize(max(hint.width(), 360), hint.height())
