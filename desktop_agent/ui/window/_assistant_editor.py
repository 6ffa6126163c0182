"""The assistant editor: the list of assistants and the form of the selected one.

New, Duplicate, Delete (the user's own; an edited shipped one goes back to shipped),
Import… and Export… (one assistant as a JSON file), Save (the form into the library).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
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

from desktop_agent.app._assistants import Assistant, AssistantLibrary

DEFAULT_TEMPERATURE = "Chat default"


class AssistantEditor(QDialog):
    """Edits ``library``; emits ``changed()`` after each change that was saved."""

    changed = Signal()

    def __init__(
        self, library: AssistantLibrary, current: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Assistants")
        self.resize(760, 480)
        self.library = library
        self.list = QListWidget()
        self.list.setMaximumWidth(220)
        self.name = QLineEdit()
        self.icon = QLineEdit()
        self.icon.setMaxLength(8)
        self.icon.setMaximumWidth(60)
        self.prompt = QPlainTextEdit()
        self.model = QLineEdit(placeholderText="The chat's current model")
        self.temperature = QDoubleSpinBox(minimum=-0.1, maximum=2.0, singleStep=0.1, decimals=2)
        self.temperature.setSpecialValueText(DEFAULT_TEMPERATURE)  # -0.1: not set
        self.tools = QCheckBox("Offer the desktop tools (files, shell…)")
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
        form.addRow("Icon, name", name_row)
        form.addRow("Instructions", self.prompt)
        form.addRow("Model", self.model)
        form.addRow("Temperature", self.temperature)
        # self.tools is kept (the field round-trips) but not shown: switching the desktop
        # tools off per assistant is not wired into the agent yet (issue 17).
        form.addRow("", self.status)
        buttons = QHBoxLayout()
        for label, slot in (
            ("New", self.new),
            ("Duplicate", self.duplicate),
            ("Delete", self.delete),
            ("Import…", self.ask_import),
            ("Export…", self.ask_export),
        ):
            button = QPushButton(label)
            button.setAutoDefault(False)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.save_button = QPushButton("Save")
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
        self._after(self.library.save(Assistant(name="New assistant", icon="✨")), "Created")

    def duplicate(self) -> None:
        """Copy the selected assistant."""
        chosen = self.selected()
        if chosen is not None:
            self._after(self.library.duplicate(chosen.id), "Duplicated")

    def delete(self) -> None:
        """Delete the selected one (an edited shipped one: back to shipped)."""
        chosen = self.selected()
        if chosen is not None and not chosen.shipped:
            self.library.delete(chosen.id)
            self._after(self.library.get(chosen.id), "Deleted")

    def save(self) -> None:
        """Put the form into the selected assistant."""
        chosen = self.selected()
        if chosen is None or not self.name.text().strip():
            self.status.setText("An assistant needs a name.")
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
            }
        )
        self._after(self.library.save(edited), "Saved")

    def import_file(self, path: Path) -> None:
        """Add the assistant exported in ``path``."""
        try:
            imported = self.library.import_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            self.status.setText(f"Could not import {path.name}: {exc}")
            return
        self._after(imported, "Imported")

    def export_file(self, path: Path) -> None:
        """Write the selected assistant to ``path`` as JSON."""
        chosen = self.selected()
        if chosen is None:
            return
        try:
            path.write_text(self.library.export_json(chosen.id) + "\n", encoding="utf-8")
        except OSError as exc:
            self.status.setText(f"Could not export: {exc.strerror}")
            return
        self.status.setText(f"Exported to {path}")

    def ask_import(self) -> None:
        """Choose a JSON file to import."""
        dialog = QFileDialog(self, "Import an assistant", "", "Assistant (*.json)")
        dialog.fileSelected.connect(lambda name: self.import_file(Path(name)))
        dialog.open()

    def ask_export(self) -> None:
        """Choose where to export the selected assistant."""
        chosen = self.selected()
        if chosen is None:
            return
        dialog = QFileDialog(self, "Export the assistant", f"{chosen.name}.json")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.fileSelected.connect(lambda name: self.export_file(Path(name)))
        dialog.open()

    def _after(self, assistant: Assistant | None, what: str) -> None:
        self._fill(assistant.id if assistant else "")
        if assistant is not None:
            self.status.setText(f"{what}: {assistant.name}")
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
