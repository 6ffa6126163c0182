"""The selected module's segments: text editors and variable pickers, in order.

Each :class:`SegmentRow` is a passive view of one segment. The rows are rebuilt when the
list of segments changes (add, remove, reorder) and updated in place when one segment's
value changes, so typing never loses the cursor.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QColor, QSyntaxHighlighter, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.ui.template_editor._document import DraftSegment
from desktop_agent.ui.template_editor._faults import Fault
from desktop_agent.ui.template_editor._widgets import (
    FaultLabel,
    GrowingTextEdit,
    NamePicker,
    mark_fault,
)

Watch = Callable[[QWidget], None]


class SegmentRow(QFrame):
    """One segment: a header (kind, move, remove) and its editor."""

    text_edited = Signal(int, str)
    variable_chosen = Signal(int, str)
    move_requested = Signal(int, int)
    remove_requested = Signal(int)

    def __init__(
        self,
        position: int,
        count: int,
        segment: DraftSegment,
        variables: Mapping[str, str],
        watch: Watch,
    ) -> None:
        """Show ``segment``, the ``position``-th of ``count``.

        Args:
            position: The segment's index.
            count: How many segments the module has.
            segment: The segment shown.
            variables: Known variable names with their descriptions.
            watch: Registers a text widget with the editor's undo-key router.
        """
        super().__init__()
        self.setObjectName("segmentRow")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.position = position
        self.kind = segment.type
        self.fault = FaultLabel()
        self.description = QLabel()
        self.description.setObjectName("caption")
        self.description.setWordWrap(True)
        self.text_editor: GrowingTextEdit | None = None
        self.picker: NamePicker | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 6)
        layout.setSpacing(4)
        layout.addLayout(self._header(count))
        layout.addWidget(self._editor(segment, variables, watch))
        layout.addWidget(self.description)
        layout.addWidget(self.fault)
        self._show_description()

    def _header(self, count: int) -> QHBoxLayout:
        if self.kind == "text":
            title = QCoreApplication.translate("SegmentRow", "<b>{number}.</b> Text")
        else:
            title = QCoreApplication.translate("SegmentRow", "<b>{number}.</b> Variable")
        label = QLabel(title.format(number=self.position + 1))
        row = QHBoxLayout()
        row.addWidget(label)
        row.addStretch(1)
        for text, tip, enabled, slot in (
            (
                "▲",
                QCoreApplication.translate("SegmentRow", "Move this segment up"),
                self.position > 0,
                lambda: self._move(-1),
            ),
            (
                "▼",
                QCoreApplication.translate("SegmentRow", "Move this segment down"),
                self.position < count - 1,
                lambda: self._move(1),
            ),
            (
                "✕",
                QCoreApplication.translate("SegmentRow", "Remove this segment"),
                True,
                self._remove,
            ),
        ):
            button = QToolButton()
            button.setText(text)
            button.setToolTip(tip)
            button.setAutoRaise(True)
            button.setEnabled(enabled)
            button.clicked.connect(slot)
            row.addWidget(button)
        return row

    def _editor(self, segment: DraftSegment, variables: Mapping[str, str], watch: Watch) -> QWidget:
        if self.kind == "text":
            self.text_editor = GrowingTextEdit()
            self.text_editor.setPlaceholderText(
                QCoreApplication.translate("SegmentRow", "Text inserted as is")
            )
            self.trailing_spaces = TrailingSpaceMarker(self.text_editor.document())
            self.text_editor.setPlainText(segment.value)
            self.text_editor.textChanged.connect(self._text_changed)
            name = QCoreApplication.translate("SegmentRow", "Text of segment {number}").format(
                number=self.position + 1
            )
            self.text_editor.setAccessibleName(name)
            watch(self.text_editor)
            return self.text_editor
        self.picker = NamePicker()
        self.picker.set_names(variables, segment.value)
        self.picker.currentIndexChanged.connect(self._picked)
        name = QCoreApplication.translate("SegmentRow", "Variable of segment {number}").format(
            number=self.position + 1
        )
        self.picker.setAccessibleName(name)
        return self.picker

    def update_segment(self, segment: DraftSegment, variables: Mapping[str, str]) -> None:
        """Show a new value of the same kind of segment."""
        if self.text_editor is not None:
            self.text_editor.set_text_quietly(segment.value)
        elif self.picker is not None:
            self.picker.set_names(variables, segment.value)  # drops a fixed unknown name
        self._show_description()

    def show_faults(self, messages: Sequence[str]) -> None:
        """Outline the editor and show the messages under it."""
        editor = self.text_editor or self.picker
        assert editor is not None
        mark_fault(editor, bool(messages))
        self.fault.show_messages(messages)

    def _show_description(self) -> None:
        if self.picker is None:
            self.description.hide()
            return
        # An unknown name has no description; its fault message says what is wrong.
        described = self.picker.description(self.picker.current_name())
        self.description.setText(described)
        self.description.setVisible(bool(described))

    def _text_changed(self) -> None:
        assert self.text_editor is not None
        self.text_edited.emit(self.position, self.text_editor.toPlainText())

    def _picked(self, _index: int) -> None:
        assert self.picker is not None
        self._show_description()
        self.variable_chosen.emit(self.position, self.picker.current_name())

    def _move(self, delta: int) -> None:
        self.move_requested.emit(self.position, delta)

    def _remove(self) -> None:
        self.remove_requested.emit(self.position)


class SegmentsEditor(QWidget):
    """The segments of one module, and buttons to add text or variable segments.

    Signals: ``text_edited(position, text)``, ``variable_chosen(position, name)``,
    ``move_requested(position, delta)``, ``remove_requested(position)``,
    ``add_requested(kind)`` with kind ``"text"`` or ``"variable"``.
    """

    text_edited = Signal(int, str)
    variable_chosen = Signal(int, str)
    move_requested = Signal(int, int)
    remove_requested = Signal(int)
    add_requested = Signal(str)

    def __init__(self, watch: Watch, parent: QWidget | None = None) -> None:
        """Create an empty list; ``watch`` registers text widgets for undo keys."""
        super().__init__(parent)
        self._watch = watch
        self._variables: dict[str, str] = {}
        self.rows: list[SegmentRow] = []
        self.fault = FaultLabel()
        self._rows_layout = QVBoxLayout()
        self._rows_layout.setSpacing(6)
        self.add_text = QPushButton(QCoreApplication.translate("SegmentsEditor", "Add text"))
        self.add_text.setToolTip(
            QCoreApplication.translate("SegmentsEditor", "Add a segment of fixed text")
        )
        self.add_variable = QPushButton(
            QCoreApplication.translate("SegmentsEditor", "Add variable")
        )
        self.add_variable.setToolTip(
            QCoreApplication.translate(
                "SegmentsEditor", "Add a segment filled in from a variable at each turn"
            )
        )
        self.add_text.clicked.connect(lambda: self.add_requested.emit("text"))
        self.add_variable.clicked.connect(lambda: self.add_requested.emit("variable"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_text)
        buttons.addWidget(self.add_variable)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._rows_layout)
        layout.addWidget(self.fault)
        layout.addLayout(buttons)

    def set_variables(self, variables: Mapping[str, str]) -> None:
        """The variables the pickers offer (name → description)."""
        self._variables = dict(variables)

    def variables(self) -> dict[str, str]:
        """The variables the pickers offer (name → description)."""
        return dict(self._variables)

    def show_segments(self, segments: Sequence[DraftSegment]) -> None:
        """Rebuild the rows for ``segments``."""
        for row in self.rows:
            self._rows_layout.removeWidget(row)
            row.deleteLater()
        self.rows = []
        for position, segment in enumerate(segments):
            row = SegmentRow(position, len(segments), segment, self._variables, self._watch)
            row.text_edited.connect(self.text_edited)
            row.variable_chosen.connect(self.variable_chosen)
            row.move_requested.connect(self.move_requested)
            row.remove_requested.connect(self.remove_requested)
            self._rows_layout.addWidget(row)
            self.rows.append(row)

    def update_segment(self, position: int, segment: DraftSegment) -> bool:
        """Show a new value of one segment in place.

        Returns:
            ``False`` when the row cannot show it (another kind, no such row): rebuild.
        """
        if position >= len(self.rows) or self.rows[position].kind != segment.type:
            return False
        self.rows[position].update_segment(segment, self._variables)
        return True

    def show_faults(self, faults: Sequence[Fault]) -> None:
        """Place the faults of this module's segments (``faults`` are the module's)."""
        by_row: dict[int, list[str]] = {}
        general: list[str] = []
        for fault in faults:
            if fault.field != "segments":
                continue
            if fault.segment is not None and fault.segment < len(self.rows):
                by_row.setdefault(fault.segment, []).append(fault.message)
            else:
                general.append(fault.message)
        for position, row in enumerate(self.rows):
            row.show_faults(by_row.get(position, []))
        self.fault.show_messages(general)


def focus_segment_editor(row: SegmentRow) -> None:
    """Put the keyboard focus in a row's editor."""
    editor = row.text_editor or row.picker
    if editor is not None:
        editor.setFocus(Qt.FocusReason.OtherFocusReason)


class TrailingSpaceMarker(QSyntaxHighlighter):
    """Shades spaces and tabs at the end of each line of a text segment.

    They are inserted as is (a segment followed by a variable often needs one), yet are
    invisible in an editor; shaded, the user sees them and can tell "Hello " from "Hello".
    """

    def __init__(self, document: QTextDocument) -> None:
        """Mark trailing spaces in ``document``."""
        super().__init__(document)
        self.marked = QTextCharFormat()
        self.marked.setBackground(QColor(240, 180, 60, 110))
        self.marked.setToolTip(
            QCoreApplication.translate(
                "TrailingSpaceMarker", "Spaces at the end of the line (inserted as is)"
            )
        )

    def highlightBlock(self, text: str) -> None:
        """Shade the trailing whitespace of one line."""
        stripped = len(text.rstrip(" \t"))
        if stripped < len(text):
            self.setFormat(stripped, len(text) - stripped, self.marked)
