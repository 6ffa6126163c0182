"""The chat header's "Parameters" button (Ctrl+Shift+P): this chat's temperature, max
output tokens, top_p, reasoning effort, context budget and streaming, over the defaults of
Settings → Parameters. They are saved in the chat's session (its setup)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.app import Settings
from desktop_agent.app._chat_params import FIELDS, ChatParams
from desktop_agent.ui.settings._parameters_page import ParametersPage


class ChatParamsDialog(QDialog):
    """Edits the overrides of the chat shown.

    Args:
        params: The chat's overrides.
        defaults: The settings in force (the defaults).
        applied: Called after the overrides changed (re-configure the chat).
    """

    def __init__(
        self,
        params: ChatParams,
        defaults: Settings,
        applied: Callable[[], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(
            QCoreApplication.translate("ChatParamsDialog", "Parameters of this chat")
        )
        self._params, self._defaults, self._applied = params, defaults, applied
        self.temperature = QDoubleSpinBox(minimum=0.0, maximum=2.0, singleStep=0.1, decimals=2)
        self.page = ParametersPage()
        self.page.auto_title.hide()  # a setting of the app, not of a chat
        self.page.note.hide()  # it speaks of the defaults
        shown = params.apply(defaults)
        self.temperature.setValue(shown.temperature)
        self.page.load(shown)
        form = QFormLayout()
        form.addRow(QCoreApplication.translate("ChatParamsDialog", "Temperature"), self.temperature)
        note = QLabel(
            QCoreApplication.translate(
                "ChatParamsDialog",
                "Only this chat; the defaults are in Settings → Parameters. A server that rejects "
                "a parameter says so in the chat; Retry then sends the message without it.",
            )
        )
        note.setWordWrap(True)
        note.setObjectName("caption")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save
            | QDialogButtonBox.StandardButton.RestoreDefaults
            | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        defaults_button = buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults)
        defaults_button.clicked.connect(self.use_defaults)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.page)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def overrides(self) -> dict[str, Any]:
        """The fields whose value differs from the defaults."""
        edited = self.page.apply(self._defaults).model_copy(
            update={"temperature": round(self.temperature.value(), 2)}
        )
        return {
            name: getattr(edited, name)
            for name in FIELDS
            if getattr(edited, name) != getattr(self._defaults, name)
        }

    def accept(self) -> None:
        """Use the edited values for this chat."""
        self._params.set(self.overrides())
        self._applied()
        super().accept()

    def use_defaults(self) -> None:
        """Forget this chat's own values."""
        self._params.set({})
        self._applied()
        super().accept()


def params_button(parent: QWidget | None = None) -> QToolButton:
    """The header's button."""
    button = QToolButton(parent)
    button.setObjectName("chatParams")
    button.setText(QCoreApplication.translate("ChatParamsDialog", "Parameters"))
    button.setAutoRaise(True)
    button.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # a Tab stop (window.tab_stops)
    button.setToolTip(
        QCoreApplication.translate(
            "ChatParamsDialog",
            "Temperature, max output tokens, context budget, … of this chat (Ctrl+Shift+P)",
        )
    )
    return button
