"""The assistant editor: the list of assistants and the form of the selected one.

The form: icon and name, instructions, context template (one of the saved templates),
model, temperature, and which tools are on — each desktop tool and each MCP server.
New, Duplicate, Delete (the user's own; an edited shipped one goes back to shipped),
Import… and Export… (one assistant as a JSON file), Save (the form into the library).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.app._assistants import Assistant, AssistantLibrary
from desktop_agent.app._tool_selection import DESKTOP_TOOLS

DEFAULT_TEMPERATURE = QT_TRANSLATE_NOOP("AssistantEditor", "Chat default")
TOOL_LABELS = {
    "get_current_datetime": QT_TRANSLATE_NOOP("AssistantEditor", "Date and time"),
    "calculate": QT_TRANSLATE_NOOP("AssistantEditor", "Calculator"),
    "read_text_file": QT_TRANSLATE_NOOP("AssistantEditor", "Read files"),
    "write_text_file": QT_TRANSLATE_NOOP("AssistantEditor", "Write files"),
    "execute_python_code": QT_TRANSLATE_NOOP("AssistantEditor", "Run Python code"),
    "execute_shell_command": QT_TRANSLATE_NOOP("AssistantEditor", "Run shell commands"),
}


class AssistantEditor(QDialog):
    """Edits ``library``; emits ``changed()`` after each change that was saved.

    Args:
        library: The assistants.
        current: The id of the assistant to select first.
        mcp_servers: The configured MCP servers' names (a checkbox each).
        templates: The saved context templates' names (the template choice).
    """

    changed = Signal()

    def __init__(
        self,
        library: AssistantLibrary,
        current: str = "",
        parent: QWidget | None = None,
        *,
        mcp_servers: list[str] | None = None,
        templates: list[str] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("AssistantEditor", "Assistants"))
        self.resize(800, 560)
        self.library = library
        self.list = QListWidget()
        self.list.setProperty("i18n_data", True)  # the assistants' names
        self.list.setMaximumWidth(220)
        self.name = QLineEdit()
        self.icon = QLineEdit()
        self.icon.setMaxLength(8)
        self.icon.setMaximumWidth(60)
        self.prompt = QPlainTextEdit()
        self.model = QLineEdit(
            placeholderText=QCoreApplication.translate(
                "AssistantEditor", "The chat's current model"
            )
        )
        self.temperature = QDoubleSpinBox(minimum=-0.1, maximum=2.0, singleStep=0.1, decimals=2)
        self.temperature.setSpecialValueText(
            QCoreApplication.translate("AssistantEditor", DEFAULT_TEMPERATURE)
        )  # -0.1: not set
        self.template = QComboBox()
        self._templates = list(templates or [])
        self.tools = QCheckBox(
            QCoreApplication.translate("AssistantEditor", "Offer tools to the model")
        )
        self.tool_boxes = {name: _tool_box(name) for name in DESKTOP_TOOLS}
        self.server_boxes = {
            name: QCheckBox(
                QCoreApplication.translate("AssistantEditor", "MCP: {name}").format(name=name)
            )
            for name in mcp_servers or []
        }
        self.tools.toggled.connect(self._enable_tool_boxes)
        self.status = QLabel("")
        self.status.setObjectName("caption")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self._build()
        self._fill(current)

    def _build(self) -> None:
        form_box = QWidget()
        form = QFormLayout(form_box)
        name_row = QHBoxLayout()
        name_row.addWidget(self.icon)
        name_row.addWidget(self.name, 1)
        form.addRow(QCoreApplication.translate("AssistantEditor", "Icon, name"), name_row)
        form.addRow(QCoreApplication.translate("AssistantEditor", "Instructions"), self.prompt)
        form.addRow(
            QCoreApplication.translate("AssistantEditor", "Context template"), self.template
        )
        form.addRow(QCoreApplication.translate("AssistantEditor", "Model"), self.model)
        form.addRow(QCoreApplication.translate("AssistantEditor", "Temperature"), self.temperature)
        form.addRow(QCoreApplication.translate("AssistantEditor", "Tools"), self._tools_box())
        form.addRow("", self.status)
        buttons = QHBoxLayout()
        for label, slot in (
            (QT_TRANSLATE_NOOP("AssistantEditor", "New"), self.new),
            (QT_TRANSLATE_NOOP("AssistantEditor", "Duplicate"), self.duplicate),
            (QT_TRANSLATE_NOOP("AssistantEditor", "Delete"), self.delete),
            (QT_TRANSLATE_NOOP("AssistantEditor", "Import…"), self.ask_import),
            (QT_TRANSLATE_NOOP("AssistantEditor", "Export…"), self.ask_export),
        ):
            button = QPushButton(QCoreApplication.translate("AssistantEditor", label))
            button.setAutoDefault(False)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.save_button = QPushButton(QCoreApplication.translate("AssistantEditor", "Save"))
        self.save_button.clicked.connect(self.save)
        buttons.addWidget(self.save_button)
        body = QHBoxLayout()
        body.addWidget(self.list)
        body.addWidget(form_box, 1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(body, 1)
        layout.addLayout(buttons)
        layout.addWidget(close)
        self.list.currentItemChanged.connect(self._show_selected)

    def selected(self) -> Assistant | None:
        """The assistant selected in the list."""
        item = self.list.currentItem()
        return self.library.get(str(item.data(Qt.ItemDataRole.UserRole))) if item else None

    def new(self) -> None:
        """Add "New assistant" and select it."""
        name = QCoreApplication.translate("AssistantEditor", "New assistant")
        self._after(
            self.library.save(Assistant(name=name, icon="✨")),
            QCoreApplication.translate("AssistantEditor", "Created: {name}"),
        )

    def duplicate(self) -> None:
        """Copy the selected assistant."""
        chosen = self.selected()
        if chosen is not None:
            self._after(
                self.library.duplicate(chosen.id),
                QCoreApplication.translate("AssistantEditor", "Duplicated: {name}"),
            )

    def delete(self) -> None:
        """Delete the selected one (an edited shipped one: back to shipped)."""
        chosen = self.selected()
        if chosen is not None and not chosen.shipped:
            self.library.delete(chosen.id)
            self._after(
                self.library.get(chosen.id),
                QCoreApplication.translate("AssistantEditor", "Deleted: {name}"),
            )

    def save(self) -> None:
        """Put the form into the selected assistant."""
        chosen = self.selected()
        if chosen is None or not self.name.text().strip():
            self.status.setText(
                QCoreApplication.translate("AssistantEditor", "An assistant needs a name.")
            )
            return
        temperature = self.temperature.value()
        edited = chosen.model_copy(
            update={
                "name": self.name.text().strip(),
                "icon": self.icon.text().strip(),
                "system_prompt": self.prompt.toPlainText(),
                "model": self.model.text().strip(),
                "temperature": None if temperature < 0 else round(temperature, 2),
                "tools": self.tools.isChecked(),
                "disabled_tools": tuple(n for n, b in self.tool_boxes.items() if not b.isChecked()),
                "disabled_mcp_servers": self._disabled_servers(chosen),
                "template": str(self.template.currentData() or ""),
            }
        )
        self._after(
            self.library.save(edited),
            QCoreApplication.translate("AssistantEditor", "Saved: {name}"),
        )

    def import_file(self, path: Path) -> None:
        """Add the assistant exported in ``path``."""
        try:
            imported = self.library.import_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            self.status.setText(
                QCoreApplication.translate(
                    "AssistantEditor", "Could not import {file}: {error}"
                ).format(file=path.name, error=exc)
            )
            return
        self._after(imported, QCoreApplication.translate("AssistantEditor", "Imported: {name}"))

    def export_file(self, path: Path) -> None:
        """Write the selected assistant to ``path`` as JSON."""
        chosen = self.selected()
        if chosen is None:
            return
        try:
            path.write_text(self.library.export_json(chosen.id) + "\n", encoding="utf-8")
        except OSError as exc:
            self.status.setText(
                QCoreApplication.translate("AssistantEditor", "Could not export: {error}").format(
                    error=exc.strerror
                )
            )
            return
        self.status.setText(
            QCoreApplication.translate("AssistantEditor", "Exported to {path}").format(path=path)
        )

    def ask_import(self) -> None:
        """Choose a JSON file to import."""
        dialog = QFileDialog(
            self,
            QCoreApplication.translate("AssistantEditor", "Import an assistant"),
            "",
            QCoreApplication.translate("AssistantEditor", "Assistant (*.json)"),
        )
        dialog.fileSelected.connect(lambda name: self.import_file(Path(name)))
        dialog.open()

    def ask_export(self) -> None:
        """Choose where to export the selected assistant."""
        chosen = self.selected()
        if chosen is None:
            return
        dialog = QFileDialog(
            self,
            QCoreApplication.translate("AssistantEditor", "Export the assistant"),
            f"{chosen.name}.json",
        )
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.fileSelected.connect(lambda name: self.export_file(Path(name)))
        dialog.open()

    def _after(self, assistant: Assistant | None, done: str) -> None:
        """Show the library again, ``assistant`` selected, and ``done`` ("Saved: {name}")."""
        self._fill(assistant.id if assistant else "")
        if assistant is not None:
            self.status.setText(done.format(name=assistant.name))
        self.changed.emit()

    def _fill(self, current: str) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        for assistant in self.library.all():
            item = QListWidgetItem(assistant.label)
            item.setData(Qt.ItemDataRole.UserRole, assistant.id)
            self.list.addItem(item)
            if assistant.id == current:
                self.list.setCurrentItem(item)
        if self.list.currentItem() is None and self.list.count():
            self.list.setCurrentRow(0)
        self.list.blockSignals(False)
        self._show_selected()

    def _show_selected(self, *_args: object) -> None:
        chosen = self.selected()
        if chosen is None:
            return
        self.name.setText(chosen.name)
        self.icon.setText(chosen.icon)
        self.prompt.setPlainText(chosen.system_prompt)
        self.model.setText(chosen.model)
        self.temperature.setValue(chosen.temperature if chosen.temperature is not None else -0.1)
        self.tools.setChecked(chosen.tools)
        for name, box in self.tool_boxes.items():
            box.setChecked(name not in chosen.disabled_tools)
        for name, box in self.server_boxes.items():
            box.setChecked(name not in chosen.disabled_mcp_servers)
        self._enable_tool_boxes(chosen.tools)
        self._show_templates(chosen.template)

    def _tools_box(self) -> QGroupBox:
        box = QGroupBox()
        grid = QGridLayout(box)
        grid.addWidget(self.tools, 0, 0, 1, 2)
        boxes = [*self.tool_boxes.values(), *self.server_boxes.values()]
        for index, check in enumerate(boxes):
            grid.addWidget(check, 1 + index // 2, index % 2)
        return box

    def _enable_tool_boxes(self, enabled: bool) -> None:
        for box in [*self.tool_boxes.values(), *self.server_boxes.values()]:
            box.setEnabled(enabled)

    def _disabled_servers(self, chosen: Assistant) -> tuple[str, ...]:
        """The servers switched off: the unchecked boxes, and those not configured now."""
        shown = {n for n, b in self.server_boxes.items() if not b.isChecked()}
        kept = {n for n in chosen.disabled_mcp_servers if n not in self.server_boxes}
        return tuple(sorted(shown | kept))

    def _show_templates(self, current: str) -> None:
        self.template.clear()
        self.template.addItem(QCoreApplication.translate("AssistantEditor", "Default template"), "")
        names = list(self._templates)
        if current and current not in names:
            names.append(current)  # named by the assistant, not saved (any more)
        for name in names:
            self.template.addItem(name, name)
        self.template.setCurrentIndex(max(0, self.template.findData(current)))


def _tool_box(name: str) -> QCheckBox:
    """A desktop tool's checkbox: what it does, its name on hover."""
    box = QCheckBox(QCoreApplication.translate("AssistantEditor", str(TOOL_LABELS.get(name, name))))
    box.setToolTip(QCoreApplication.translate("AssistantEditor", "Tool: {name}").format(name=name))
    return box
