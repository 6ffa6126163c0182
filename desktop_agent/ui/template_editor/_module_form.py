"""The middle pane's form: the selected module's name, role, inclusion, note, segments.

A passive view: it shows a :class:`DraftModule` and emits what the user typed or picked;
the editor turns that into undoable edits. Programmatic updates block the widgets'
signals, so showing a value never echoes back as an edit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.ui.template_editor._document import ROLES, DraftModule
from desktop_agent.ui.template_editor._faults import Fault
from desktop_agent.ui.template_editor._names import translated
from desktop_agent.ui.template_editor._segments import SegmentsEditor
from desktop_agent.ui.template_editor._widgets import (
    UNKNOWN_MARK,
    FaultLabel,
    mark_fault,
    signals_blocked,
)

_ALWAYS, _NEVER, _FUNCTION = "true", "false", "function:"
_ROLE_TIPS = {
    "system": QT_TRANSLATE_NOOP("ModuleForm", "Instructions and context for the model"),
    "user": QT_TRANSLATE_NOOP(
        "ModuleForm", "Spoken by the user (the module holding current_user_input usually is)"
    ),
    "assistant": QT_TRANSLATE_NOOP("ModuleForm", "Spoken by the assistant"),
}


def importance_key(value: bool | str) -> str:
    """The combo box data for an ``importance_func`` value."""
    if value is True:
        return _ALWAYS
    if value is False:
        return _NEVER
    return f"{_FUNCTION}{value}"


def importance_value(key: str) -> bool | str:
    """The ``importance_func`` value for combo box data."""
    if key == _ALWAYS:
        return True
    if key == _NEVER:
        return False
    return key.removeprefix(_FUNCTION)


class ImportancePicker(QComboBox):
    """Always (true), never (false), or one of the known importance functions."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """Create it with no functions."""
        super().__init__(parent)
        self.functions: dict[str, str] = {}

    def show_value(self, value: bool | str) -> None:
        """List the choices and select ``value`` (an unknown function is kept, flagged)."""
        with signals_blocked(self):
            self.clear()
            self.addItem(QCoreApplication.translate("ImportancePicker", "Always (true)"), _ALWAYS)
            self.addItem(
                QCoreApplication.translate("ImportancePicker", "Never (false) — module disabled"),
                _NEVER,
            )
            self.insertSeparator(self.count())
            if isinstance(value, str) and value not in self.functions:
                unknown = QCoreApplication.translate(
                    "ImportancePicker", "{mark} {name} (unknown function)"
                )
                self.addItem(unknown.format(mark=UNKNOWN_MARK, name=value), importance_key(value))
            for name, description in self.functions.items():
                self.addItem(
                    QCoreApplication.translate("ImportancePicker", "When {name}").format(name=name),
                    importance_key(name),
                )
                self.setItemData(self.count() - 1, description, Qt.ItemDataRole.ToolTipRole)
            self.setCurrentIndex(max(0, self.findData(importance_key(value))))

    def value(self) -> bool | str:
        """The selected ``importance_func``."""
        return importance_value(str(self.currentData()))

    def explanation(self) -> str:
        """One line saying what the selected choice does."""
        value = self.value()
        if value is True:
            return QCoreApplication.translate("ImportancePicker", "Always part of the prompt.")
        if value is False:
            return QCoreApplication.translate(
                "ImportancePicker", "Never part of the prompt (the module is disabled)."
            )
        described = self.functions.get(value)
        if described is None:
            unknown = QCoreApplication.translate(
                "ImportancePicker", "“{name}” is not a known importance function."
            )
            return unknown.format(name=value)
        if described:
            return f"{value}: {described}"
        return QCoreApplication.translate(
            "ImportancePicker", "Decided by {name} at each turn."
        ).format(name=value)


class ModuleForm(QWidget):
    """The fields of one module; an empty state when no module is selected.

    Signals: ``name_edited(str)``, ``role_chosen(str)``, ``importance_chosen(object)``
    (``True``, ``False`` or a function name), ``description_edited(str)``; the segment
    signals are those of :attr:`segments`.
    """

    name_edited = Signal(str)
    role_chosen = Signal(str)
    importance_chosen = Signal(object)
    description_edited = Signal(str)

    def __init__(self, watch: Callable[[QWidget], None], parent: QWidget | None = None) -> None:
        """Build the form; ``watch`` registers text widgets with the undo-key router."""
        super().__init__(parent)
        self.name = QLineEdit()
        self.name.setPlaceholderText(
            QCoreApplication.translate("ModuleForm", "Unique name, e.g. persona")
        )
        self.role = QComboBox()
        self.role.setProperty("i18n_data", True)  # the JSON's role names (system, user…)
        for position, role in enumerate(ROLES):
            self.role.addItem(role, role)
            tip = QCoreApplication.translate("ModuleForm", _ROLE_TIPS[role])
            self.role.setItemData(position, tip, Qt.ItemDataRole.ToolTipRole)
        self.importance = ImportancePicker()
        self.importance_caption = _caption()
        self.description = QLineEdit()
        self.description.setPlaceholderText(
            QCoreApplication.translate("ModuleForm", "A note for the template's author; never sent")
        )
        self.segments = SegmentsEditor(watch)
        self.faults = {name: FaultLabel() for name in ("module_name", "role", "importance_func")}
        self.faults["description"] = FaultLabel()
        for widget in (self.name, self.description):
            watch(widget)
        self._pages = QStackedWidget()
        self._pages.addWidget(self._empty_page())
        self._pages.addWidget(self._form_page())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._pages)
        self._connect()

    def _connect(self) -> None:
        self.name.textChanged.connect(self.name_edited)
        self.description.textChanged.connect(self.description_edited)
        self.role.currentIndexChanged.connect(
            lambda _i: self.role_chosen.emit(str(self.role.currentData()))
        )
        self.importance.currentIndexChanged.connect(self._importance_changed)

    def _empty_page(self) -> QWidget:
        label = QLabel(
            QCoreApplication.translate("ModuleForm", "Select a module on the left, or add one.")
        )
        label.setObjectName("caption")
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        return label

    def _form_page(self) -> QWidget:
        page = QWidget()
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(
            QCoreApplication.translate("ModuleForm", "Name"),
            _stack(self.name, self.faults["module_name"]),
        )
        form.addRow(
            QCoreApplication.translate("ModuleForm", "Role"), _stack(self.role, self.faults["role"])
        )
        form.addRow(
            QCoreApplication.translate("ModuleForm", "Included"),
            _stack(self.importance, self.importance_caption, self.faults["importance_func"]),
        )
        form.addRow(
            QCoreApplication.translate("ModuleForm", "Note"),
            _stack(self.description, self.faults["description"]),
        )
        title = QLabel(QCoreApplication.translate("ModuleForm", "Segments"))
        title.setObjectName("templateEditorTitle")
        hint = _caption(
            QCoreApplication.translate(
                "ModuleForm",
                "Joined in order into the module's text; variables are filled in at each turn.",
            )
        )
        layout = QVBoxLayout(page)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(form)
        layout.addSpacing(8)
        layout.addWidget(title)
        layout.addWidget(hint)
        layout.addWidget(self.segments)
        layout.addStretch(1)
        return page

    def set_known_names(self, variables: Mapping[str, str], functions: Mapping[str, str]) -> None:
        """The variables and importance functions the pickers offer (and their descriptions,
        the built-in ones translated)."""
        self.segments.set_variables(translated(variables))
        self.importance.functions = translated(functions)

    def show_module(self, module: DraftModule | None) -> None:
        """Show every field of ``module`` (or the empty state for ``None``)."""
        self._pages.setCurrentIndex(0 if module is None else 1)
        if module is None:
            return
        for name in ("module_name", "role", "importance_func", "description"):
            self.show_field(module, name)
        self.segments.show_segments(module.segments)

    def show_field(self, module: DraftModule, name: str) -> None:
        """Show one field's new value."""
        if name == "module_name" and self.name.text() != module.module_name:
            with signals_blocked(self.name):
                self.name.setText(module.module_name)
        elif name == "description" and self.description.text() != (module.description or ""):
            with signals_blocked(self.description):
                self.description.setText(module.description or "")
        elif name == "role":
            with signals_blocked(self.role):
                self.role.setCurrentIndex(max(0, self.role.findData(module.role)))
        elif name == "importance_func":
            self.importance.show_value(module.importance_func)
            self.importance_caption.setText(self.importance.explanation())

    def show_faults(self, faults: Sequence[Fault]) -> None:
        """Outline the faulty fields of this module and show the messages under them."""
        for name, label in self.faults.items():
            messages = [fault.message for fault in faults if fault.field == name]
            label.show_messages(messages)
            widget = {
                "module_name": self.name,
                "role": self.role,
                "importance_func": self.importance,
                "description": self.description,
            }[name]
            mark_fault(widget, bool(messages))
        self.segments.show_faults(faults)

    def _importance_changed(self, _index: int) -> None:
        self.importance_caption.setText(self.importance.explanation())
        self.importance_chosen.emit(self.importance.value())


def _caption(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName("caption")
    label.setWordWrap(True)
    return label


def _stack(*widgets: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    for widget in widgets:
        layout.addWidget(widget)
    return box
