"""Small widgets the editor's panes share: fault labels, growing text editors, pickers."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFontDatabase, QResizeEvent
from PySide6.QtWidgets import QComboBox, QLabel, QPlainTextEdit, QWidget

UNKNOWN_MARK = "⚠"


class FaultLabel(QLabel):
    """The validator's messages under a field; hidden when there are none."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """Create it hidden."""
        super().__init__(parent)
        self.setObjectName("fieldFault")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()

    def show_messages(self, messages: Sequence[str]) -> None:
        """Show ``messages`` (one per line), or hide when empty."""
        self.setText("\n".join(f"{UNKNOWN_MARK} {message}" for message in messages))
        self.setVisible(bool(messages))


def mark_fault(widget: QWidget, faulty: bool) -> None:
    """Set the ``fault`` property the editor's style sheet outlines in red."""
    if bool(widget.property("fault")) == faulty:
        return
    widget.setProperty("fault", faulty)
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)


class GrowingTextEdit(QPlainTextEdit):
    """A plain-text editor as tall as its text, between ``min_lines`` and ``max_lines``."""

    def __init__(self, min_lines: int = 2, max_lines: int = 12) -> None:
        """Create an empty editor."""
        super().__init__()
        self._min_lines = min_lines
        self._max_lines = max_lines
        self.setUndoRedoEnabled(False)  # the editor's undo stack is the only history
        self.setTabChangesFocus(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self._fit()

    def set_text_quietly(self, text: str) -> None:
        """Replace the text if it differs, keeping the cursor as near as possible."""
        if self.toPlainText() == text:
            return
        position = self.textCursor().position()
        with signals_blocked(self):
            self.setPlainText(text)
            cursor = self.textCursor()
            cursor.setPosition(min(position, len(text)))
            self.setTextCursor(cursor)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Re-fit: a new width re-wraps the text."""
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self._fit()

    def _fit(self, *_args: object) -> None:
        # For a plain-text layout the document's height is its number of (wrapped) lines.
        lines = int(self.document().documentLayout().documentSize().height())
        lines = max(self._min_lines, min(self._max_lines, lines))
        margins = self.contentsMargins()
        frame = int(self.document().documentMargin() * 2) + margins.top() + margins.bottom()
        height = lines * self.fontMetrics().lineSpacing() + frame + 2
        if height != self.height():
            self.setFixedHeight(height)


def monospace_editor() -> QPlainTextEdit:
    """A plain-text editor in the system's fixed-width font, without its own undo."""
    editor = QPlainTextEdit()
    editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    editor.setUndoRedoEnabled(False)
    # Wrapped: template values are long sentences; a line is still a block, for marks.
    editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    return editor


class NamePicker(QComboBox):
    """A combo box of known names (data) with one-line descriptions (tooltips).

    A current value that is not known is kept as a flagged first item, never dropped.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        """Create an empty picker."""
        super().__init__(parent)
        self._known: dict[str, str] = {}
        self.setProperty("i18n_data", True)  # variable names
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(16)

    def set_names(self, known: Mapping[str, str], current: str) -> None:
        """List ``known`` (name → description) and select ``current``."""
        self.blockSignals(True)
        try:
            self.clear()
            self._known = dict(known)
            if current not in self._known:
                unknown = QCoreApplication.translate("NamePicker", "{mark} {name} (unknown)")
                self.addItem(unknown.format(mark=UNKNOWN_MARK, name=current), current)
                tip = QCoreApplication.translate("NamePicker", "Not a known name: pick another.")
                self.setItemData(0, tip, Qt.ItemDataRole.ToolTipRole)
            for name, description in self._known.items():
                self.addItem(name, name)
                self.setItemData(self.count() - 1, description, Qt.ItemDataRole.ToolTipRole)
            self.setCurrentIndex(max(0, self.findData(current)))
        finally:
            self.blockSignals(False)

    def current_name(self) -> str:
        """The selected name."""
        return str(self.currentData())

    def description(self, name: str) -> str:
        """The description of ``name`` ("" when unknown)."""
        return self._known.get(name, "")


@contextmanager
def signals_blocked(*widgets: QWidget) -> Iterator[None]:
    """Block the signals of ``widgets`` for a programmatic update."""
    previous = [widget.blockSignals(True) for widget in widgets]
    try:
        yield
    finally:
        for widget, was in zip(widgets, previous, strict=True):
            widget.blockSignals(was)
