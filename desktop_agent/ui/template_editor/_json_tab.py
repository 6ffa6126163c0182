"""The raw JSON tab: the template as text, kept in sync with the form both ways.

The text is checked ~300 ms after the user stops typing. Text that is not JSON, or not
a structurally valid config, stays in the tab with its faults marked at their lines and
is *not* given to the document (the form keeps the last valid version, and Apply is
blocked while the tab has such faults). Valid text becomes one undoable "Edit JSON"
(a run of such edits merges). A document change made elsewhere rewrites the text —
unless the text already says the same, so the user's formatting survives their own edits.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.app._template_library import parse_template, template_data
from desktop_agent.context import ContextConfigError
from desktop_agent.ui.template_editor._faults import (
    JSON_SYNTAX_PATH,
    Fault,
    error_faults,
    syntax_fault,
    with_lines,
)
from desktop_agent.ui.template_editor._widgets import monospace_editor

CHECK_DELAY_MS = 300
TOO_DEEP = QT_TRANSLATE_NOOP(
    "JsonTab", "the JSON nests too deeply to be read (thousands of levels)"
)
_LINE_ROLE = Qt.ItemDataRole.UserRole


def json_text(data: Mapping[str, Any]) -> str:
    """The text the tab shows for template data."""
    return json.dumps(data, indent=2, ensure_ascii=False)


class JsonTab(QWidget):
    """The JSON text, its faults (clickable, by line) and a status line.

    Signals: ``config_edited(dict)`` with the text's template data when valid text
    differs from the document; ``problems_changed()`` when :attr:`pending_faults` may
    have changed.
    """

    config_edited = Signal(object)
    problems_changed = Signal()

    def __init__(self, watch: Callable[[QWidget], None], parent: QWidget | None = None) -> None:
        """Create the tab; ``watch`` registers the editor with the undo-key router."""
        super().__init__(parent)
        self.editor = monospace_editor()
        self.editor.setAccessibleName(QCoreApplication.translate("JsonTab", "Template JSON"))
        watch(self.editor)
        self.fault_list = QListWidget()
        self.fault_list.setObjectName("faultList")
        self.fault_list.setWordWrap(True)
        self.fault_list.setMaximumHeight(110)
        self.fault_list.itemActivated.connect(self._go_to_fault)
        self.fault_list.itemClicked.connect(self._go_to_fault)
        self.status = QLabel()
        self.status.setObjectName("caption")
        self.status.setWordWrap(True)
        self.pending_faults: list[Fault] = []
        self._document_faults: list[Fault] = []
        self._data: dict[str, Any] = {}
        self._committing = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(CHECK_DELAY_MS)
        self._timer.timeout.connect(self.commit_now)
        self.editor.textChanged.connect(self._timer.start)
        self._build_layout()

    def _build_layout(self) -> None:
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.editor)
        splitter.addWidget(self.fault_list)
        splitter.setStretchFactor(0, 5)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.status)

    # --------------------------------------------------------------------- document

    def show_data(self, data: Mapping[str, Any]) -> None:
        """Show the document's data (unless the text is where it came from)."""
        self._data = dict(data)
        if self._committing:
            return
        self._timer.stop()
        if self._text_data() != self._data:
            self.editor.blockSignals(True)
            try:
                self.editor.setPlainText(json_text(self._data))
            finally:
                self.editor.blockSignals(False)
        self._set_pending([])

    def show_faults(self, faults: Sequence[Fault]) -> None:
        """Mark the document's faults (located in the current text)."""
        self._document_faults = list(faults)
        self._render()

    @property
    def has_uncommitted(self) -> bool:
        """Whether the text changed and was not checked yet."""
        return self._timer.isActive()

    def commit_now(self) -> None:
        """Check the text now; give valid text to the document, mark faults otherwise."""
        self._timer.stop()
        text = self.editor.toPlainText()
        try:
            decoded = json.loads(text)
        except json.JSONDecodeError as exc:
            self._set_pending([syntax_fault(exc)])
            return
        except RecursionError:  # "[[[[…" thousands deep: the decoder gives up
            too_deep = QCoreApplication.translate("JsonTab", TOO_DEEP)
            self._set_pending([Fault(JSON_SYNTAX_PATH, too_deep, line=1)])
            return
        try:
            data = template_data(parse_template(decoded))
        except ContextConfigError as exc:
            self._set_pending(with_lines(error_faults(exc), text))
            return
        self._set_pending([])
        if data != self._data:
            self._committing = True
            try:
                self.config_edited.emit(data)
            finally:
                self._committing = False

    def discard_uncommitted(self) -> None:
        """Forget text edits not given to the document: show the document again."""
        self._timer.stop()
        self.editor.blockSignals(True)
        try:
            self.editor.setPlainText(json_text(self._data))
        finally:
            self.editor.blockSignals(False)
        self._set_pending([])

    # ---------------------------------------------------------------------- faults

    def _text_data(self) -> Any:
        try:
            return json.loads(self.editor.toPlainText())
        except (json.JSONDecodeError, RecursionError):
            return None

    def _set_pending(self, faults: list[Fault]) -> None:
        changed = faults != self.pending_faults
        self.pending_faults = faults
        self._render()
        if changed:
            self.problems_changed.emit()

    def shown_faults(self) -> list[Fault]:
        """The faults listed: the text's own, else the document's (with lines)."""
        if self.pending_faults:
            return self.pending_faults
        return with_lines(self._document_faults, self.editor.toPlainText())

    def _render(self) -> None:
        faults = self.shown_faults()
        self.fault_list.clear()
        for fault in faults:
            item = QListWidgetItem(fault.describe())
            item.setData(_LINE_ROLE, fault.line)
            self.fault_list.addItem(item)
        self.fault_list.setVisible(bool(faults))
        self._mark_lines(sorted({f.line for f in faults if f.line is not None}))
        self.status.setText(self._status_text(faults))

    def _status_text(self, faults: Sequence[Fault]) -> str:
        if self.pending_faults:
            return QCoreApplication.translate(
                "JsonTab",
                "This text is not applied: fix the problems marked above "
                "(the form shows the last valid version).",
            )
        if faults:
            count = len(faults)  # a plain name: lupdate skips a call as the count
            return QCoreApplication.translate(
                "JsonTab", "%n problem(s) in the template; Apply is blocked until fixed.", "", count
            )
        return QCoreApplication.translate(
            "JsonTab", "Valid. Edits here update the form as you type."
        )

    def marked_lines(self) -> list[int]:
        """The 1-based lines marked as faulty."""
        return [selection.cursor.blockNumber() + 1 for selection in self.editor.extraSelections()]

    def _mark_lines(self, lines: Sequence[int]) -> None:
        selections = []
        color = QColor(self.palette().color(self.palette().ColorRole.Text))
        danger = QColor("#e05a4a")
        danger.setAlpha(60 if color.lightness() < 128 else 90)
        for line in lines:
            block = self.editor.document().findBlockByNumber(line - 1)
            if not block.isValid():
                continue
            selection = QTextEdit.ExtraSelection()
            selection.cursor = QTextCursor(block)
            text_format = QTextCharFormat()
            text_format.setBackground(danger)
            text_format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            selection.format = text_format
            selections.append(selection)
        self.editor.setExtraSelections(selections)

    def _go_to_fault(self, item: QListWidgetItem) -> None:
        line = item.data(_LINE_ROLE)
        if not isinstance(line, int):
            return
        block = self.editor.document().findBlockByNumber(line - 1)
        self.editor.setTextCursor(QTextCursor(block))
        self.editor.centerCursor()
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)
