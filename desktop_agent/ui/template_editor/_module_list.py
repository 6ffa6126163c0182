"""The left pane: the template's modules in prompt order.

:class:`ModuleListModel` is a thin ``QAbstractListModel`` over a :class:`TemplateDocument`:
it translates the document's change events into row signals and never changes the
document itself — a drop, a check box or ``moveRows`` becomes a request that the editor
turns into an undoable edit (which then changes the document, which updates the rows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QByteArray,
    QCoreApplication,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListView,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.ui.template_editor._document import Change, DraftModule, TemplateDocument
from desktop_agent.ui.template_editor._faults import Fault

AnyIndex = QModelIndex | QPersistentModelIndex
MODULE_ROW_MIME = "application/x-desktop-agent-template-module"
MoveRequest = Callable[[int, int], None]
EnableRequest = Callable[[int, bool], None]


def inclusion_text(value: bool | str) -> str:
    """How a module's ``importance_func`` reads in the list."""
    if value is True:
        return QCoreApplication.translate("ModuleListModel", "always")
    if value is False:
        return QCoreApplication.translate("ModuleListModel", "disabled")
    return QCoreApplication.translate("ModuleListModel", "when {name}").format(name=value)


class ModuleListModel(QAbstractListModel):
    """The modules of a document, one row each; checkable (enabled) and draggable."""

    def __init__(
        self,
        document: TemplateDocument,
        on_move: MoveRequest,
        on_enable: EnableRequest,
        parent: QWidget | None = None,
    ) -> None:
        """Adapt ``document``.

        Args:
            document: The document shown.
            on_move: Called with ``(source, destination)`` final indexes for a reorder.
            on_enable: Called with ``(row, enabled)`` when a check box is toggled.
            parent: The Qt parent.
        """
        super().__init__(parent)
        self._document = document
        self._on_move = on_move
        self._on_enable = on_enable
        self._faults: dict[int, list[Fault]] = {}
        self._unsubscribe = document.subscribe(self._changed, self._about_to_change)

    def detach(self) -> None:
        """Stop following the document."""
        self._unsubscribe()

    # ------------------------------------------------------------------- read side

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """One row per module (no children)."""
        return 0 if parent.isValid() else len(self._document.modules)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Name and inclusion, check state, fault icon and tooltip of a module."""
        if not index.isValid() or index.row() >= len(self._document.modules):
            return None
        module = self._document.modules[index.row()]
        faults = self._faults.get(index.row(), [])
        return self._role_data(module, faults, role)

    def _role_data(self, module: DraftModule, faults: list[Fault], role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            name = module.module_name or QCoreApplication.translate("ModuleListModel", "(no name)")
            return f"{name}\n{module.role} · {inclusion_text(module.importance_func)}"
        if role == Qt.ItemDataRole.CheckStateRole:
            return Qt.CheckState.Checked if module.enabled else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [module.description or ""] + [f"⚠ {fault.message}" for fault in faults]
            return "\n".join(line for line in lines if line) or None
        if role == Qt.ItemDataRole.DecorationRole and faults:
            style = self._style()
            return style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning) if style else None
        if role == Qt.ItemDataRole.ForegroundRole and not module.enabled:
            return QColor(Qt.GlobalColor.gray)
        if role == Qt.ItemDataRole.FontRole and not module.module_name:
            font = QFont()
            font.setItalic(True)
            return font
        return None

    def _style(self) -> QStyle | None:
        parent = self.parent()
        return parent.style() if isinstance(parent, QWidget) else None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        """Selectable, checkable, draggable rows; drops go between rows."""
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled
        return (
            Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsUserCheckable
            | Qt.ItemFlag.ItemIsDragEnabled
        )

    def set_faults(self, faults: Sequence[Fault]) -> None:
        """Mark the rows that have faults (icon and tooltip)."""
        by_row: dict[int, list[Fault]] = {}
        for fault in faults:
            if fault.module is not None:
                by_row.setdefault(fault.module, []).append(fault)
        if by_row == self._faults:
            return
        self._faults = by_row
        if self.rowCount():
            self.dataChanged.emit(self.index(0), self.index(self.rowCount() - 1))

    # ------------------------------------------------------------------ requests

    def setData(self, index: AnyIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """A toggled check box asks to enable or disable the module."""
        if role != Qt.ItemDataRole.CheckStateRole or not index.isValid():
            return False
        checked = Qt.CheckState(value) == Qt.CheckState.Checked
        self._on_enable(index.row(), checked)
        return True

    def supportedDropActions(self) -> Qt.DropAction:
        """Rows are moved, never copied."""
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        """Only rows of a template's module list can be dropped here."""
        return [MODULE_ROW_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        """The dragged row's number."""
        data = QMimeData()
        rows = sorted({index.row() for index in indexes if index.isValid()})
        data.setData(MODULE_ROW_MIME, QByteArray(str(rows[0] if rows else -1).encode()))
        return data

    def canDropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: AnyIndex
    ) -> bool:
        """Accept a moved module row."""
        return action == Qt.DropAction.MoveAction and data.hasFormat(MODULE_ROW_MIME)

    def dropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: AnyIndex
    ) -> bool:
        """Ask to move the dropped row (used when the view does not move rows itself).

        ``row`` is where it was dropped between rows; a drop onto a row (``parent``)
        takes that row's place; a drop below the last row moves it to the end.
        """
        if not self.canDropMimeData(data, action, row, column, parent):
            return False
        source = int(bytes(data.data(MODULE_ROW_MIME).data()).decode() or -1)
        if parent.isValid():
            before = parent.row() + (1 if parent.row() > source else 0)
        else:
            before = row if row >= 0 else self.rowCount()
        return self.moveRows(QModelIndex(), source, 1, QModelIndex(), before)

    def moveRows(
        self,
        source_parent: AnyIndex,
        source_row: int,
        count: int,
        destination_parent: AnyIndex,
        destination_child: int,
    ) -> bool:
        """Ask to move one row (what ``QListView`` does for an internal drag and drop).

        ``destination_child`` is, as in Qt, the row *before which* to insert, counted
        before the move.
        """
        if count != 1 or source_parent.isValid() or destination_parent.isValid():
            return False
        rows = self.rowCount()
        if not 0 <= source_row < rows or not 0 <= destination_child <= rows:
            return False
        final = destination_child - 1 if destination_child > source_row else destination_child
        if final != source_row:
            self._on_move(source_row, final)
        return True

    # ------------------------------------------------------------- document events

    def _about_to_change(self, change: Change) -> None:
        if change.kind == "reset":
            self.beginResetModel()
        elif change.kind == "module_inserted":
            self.beginInsertRows(QModelIndex(), change.module, change.module)
        elif change.kind == "module_removed":
            self.beginRemoveRows(QModelIndex(), change.module, change.module)
        elif change.kind == "module_moved":
            qt_destination = change.to + 1 if change.to > change.module else change.to
            self.beginMoveRows(
                QModelIndex(), change.module, change.module, QModelIndex(), qt_destination
            )

    def _changed(self, change: Change) -> None:
        if change.kind == "reset":
            self.endResetModel()
        elif change.kind == "module_inserted":
            self.endInsertRows()
        elif change.kind == "module_removed":
            self.endRemoveRows()
        elif change.kind == "module_moved":
            self.endMoveRows()
        elif change.kind == "module_changed":
            index = self.index(change.module)
            self.dataChanged.emit(index, index)


class ModuleListPane(QWidget):
    """The module list with its buttons: add, duplicate, delete, move up, move down.

    Signals carry the selected row: ``add_requested(int)`` (insert after it, ``-1`` when
    none is selected), ``duplicate_requested``, ``delete_requested``, and
    ``step_requested(row, delta)`` for the up/down buttons.
    """

    add_requested = Signal(int)
    duplicate_requested = Signal(int)
    delete_requested = Signal(int)
    step_requested = Signal(int, int)
    current_changed = Signal(int)

    def __init__(self, model: ModuleListModel, parent: QWidget | None = None) -> None:
        """Show ``model``."""
        super().__init__(parent)
        self.model = model
        self.view = _module_view(model)
        self.view.selectionModel().currentRowChanged.connect(self._current_row_changed)
        self.buttons = {
            name: _button(text, tip)
            for name, text, tip in (
                (
                    "add",
                    QCoreApplication.translate("ModuleListPane", "Add"),
                    QCoreApplication.translate(
                        "ModuleListPane", "Add a module after the selected one"
                    ),
                ),
                (
                    "duplicate",
                    QCoreApplication.translate("ModuleListPane", "Duplicate"),
                    QCoreApplication.translate("ModuleListPane", "Copy the selected module"),
                ),
                (
                    "delete",
                    QCoreApplication.translate("ModuleListPane", "Delete"),
                    QCoreApplication.translate("ModuleListPane", "Delete the selected module"),
                ),
                (
                    "up",
                    "▲",
                    QCoreApplication.translate("ModuleListPane", "Move up (earlier in the prompt)"),
                ),
                (
                    "down",
                    "▼",
                    QCoreApplication.translate("ModuleListPane", "Move down (later in the prompt)"),
                ),
            )
        }
        self._connect_buttons()
        self._build_layout()
        self.update_buttons()

    def _connect_buttons(self) -> None:
        self.buttons["add"].clicked.connect(lambda: self.add_requested.emit(self.current_row()))
        self.buttons["duplicate"].clicked.connect(self._emit_with_row(self.duplicate_requested))
        self.buttons["delete"].clicked.connect(self._emit_with_row(self.delete_requested))
        self.buttons["up"].clicked.connect(lambda: self._step(-1))
        self.buttons["down"].clicked.connect(lambda: self._step(1))
        for signal in (self.model.rowsInserted, self.model.rowsRemoved, self.model.modelReset):
            signal.connect(self.update_buttons)
        self.model.rowsMoved.connect(self.update_buttons)

    def _emit_with_row(self, signal: Any) -> Callable[[], None]:
        def emit() -> None:
            if self.current_row() >= 0:
                signal.emit(self.current_row())

        return emit

    def _build_layout(self) -> None:
        title = QLabel(QCoreApplication.translate("ModuleListPane", "Modules"))
        title.setObjectName("templateEditorTitle")
        caption = QLabel(
            QCoreApplication.translate(
                "ModuleListPane", "In prompt order. Drag to reorder; untick to disable."
            )
        )
        caption.setObjectName("caption")
        caption.setWordWrap(True)
        row = QHBoxLayout()
        row.setSpacing(4)
        for name in ("add", "duplicate", "delete"):
            row.addWidget(self.buttons[name])
        row.addStretch(1)
        for name in ("up", "down"):
            self.buttons[name].setFixedWidth(self.buttons[name].sizeHint().height() + 8)
            row.addWidget(self.buttons[name])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(title)
        layout.addWidget(caption)
        layout.addWidget(self.view, 1)
        layout.addLayout(row)

    def current_row(self) -> int:
        """The selected row, or ``-1``."""
        index = self.view.currentIndex()
        return index.row() if index.isValid() else -1

    def select_row(self, row: int) -> None:
        """Select ``row`` (clamped to the rows there are; nothing when there are none)."""
        count = self.model.rowCount()
        if count == 0:
            self.view.setCurrentIndex(QModelIndex())
            self.current_changed.emit(-1)
            return
        self.view.setCurrentIndex(self.model.index(max(0, min(row, count - 1))))

    def update_buttons(self) -> None:
        """Enable the buttons that make sense for the selection."""
        row, count = self.current_row(), self.model.rowCount()
        self.buttons["duplicate"].setEnabled(row >= 0)
        self.buttons["delete"].setEnabled(row >= 0)
        self.buttons["up"].setEnabled(row > 0)
        self.buttons["down"].setEnabled(0 <= row < count - 1)

    def _step(self, delta: int) -> None:
        row = self.current_row()
        if row >= 0 and 0 <= row + delta < self.model.rowCount():
            self.step_requested.emit(row, delta)

    def _current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.update_buttons()
        self.current_changed.emit(current.row() if current.isValid() else -1)


def _module_view(model: ModuleListModel) -> QListView:
    view = QListView()
    view.setModel(model)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    # DragDrop rather than InternalMove: the model only accepts its own rows anyway, and
    # a drop whose source Qt cannot tell (some platforms) still reaches dropMimeData.
    view.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
    view.setDefaultDropAction(Qt.DropAction.MoveAction)
    view.setDragEnabled(True)
    view.setAcceptDrops(True)
    view.setDropIndicatorShown(True)
    view.setUniformItemSizes(True)
    view.setSpacing(1)
    view.setIconSize(QSize(16, 16))
    view.setAccessibleName(QCoreApplication.translate("ModuleListPane", "Template modules"))
    return view


def _button(text: str, tip: str) -> QPushButton:
    button = QPushButton(text)
    button.setToolTip(tip)
    button.setAutoDefault(False)
    return button
