"""Asks the user whether a tool may touch their files or run a program.

Three answers: allow once, allow for the rest of this chat, deny. Deny is the default
button and what closing the dialog (Esc, window close) means.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.ui._plain import plain_label

Decision = Literal["allow_once", "allow_always", "deny"]


class PermissionDialog(QDialog):
    """Shows the tool, a summary and its arguments; :attr:`decision` holds the answer."""

    def __init__(self, request: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("PermissionDialog", "Allow this tool?"))
        self.setMinimumWidth(480)
        self.decision: Decision = "deny"
        title = QLabel(
            QCoreApplication.translate(
                "PermissionDialog", "The assistant wants to run <b>{tool}</b>."
            ).format(tool=_escape(request.tool_name))
        )
        title.setTextFormat(Qt.TextFormat.RichText)
        self.summary_label = plain_label(request.summary)
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        arguments = json.dumps(request.arguments, indent=2, ensure_ascii=False, default=str)
        self.arguments_view = QPlainTextEdit(arguments)
        self.arguments_view.setReadOnly(True)
        self.arguments_view.setMaximumHeight(180)
        self.arguments_view.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.stop_requested = False
        """Whether the user chose to stop the whole answer (the call is denied too)."""
        self._make_buttons()
        buttons = QDialogButtonBox()
        buttons.addButton(self.stop_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(self.deny_button, QDialogButtonBox.ButtonRole.RejectRole)
        buttons.addButton(self.allow_always_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.allow_once_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.allow_once_button.clicked.connect(lambda: self._answer("allow_once"))
        self.allow_always_button.clicked.connect(lambda: self._answer("allow_always"))
        self.deny_button.clicked.connect(lambda: self._answer("deny"))
        self.stop_button.clicked.connect(self._stop)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(self.summary_label)
        layout.addWidget(QLabel(QCoreApplication.translate("PermissionDialog", "Arguments:")))
        layout.addWidget(self.arguments_view)
        layout.addWidget(buttons)

    def _make_buttons(self) -> None:
        """Deny is focused and the default: Enter, Space and Esc deny. Allowing takes a
        click or its own key (Alt+O, Alt+A); no key pressed by reflex grants anything."""
        self.allow_once_button = QPushButton(
            QCoreApplication.translate("PermissionDialog", "Allow &once")
        )
        self.allow_always_button = QPushButton(
            QCoreApplication.translate("PermissionDialog", "&Always allow in this chat")
        )
        self.stop_button = QPushButton(
            QCoreApplication.translate("PermissionDialog", "&Stop the answer")
        )
        self.stop_button.setToolTip(
            QCoreApplication.translate(
                "PermissionDialog", "Deny this call and stop the assistant's answer"
            )
        )
        for button in (self.allow_once_button, self.allow_always_button, self.stop_button):
            button.setAutoDefault(False)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.allow_once_button.setToolTip(
            QCoreApplication.translate("PermissionDialog", "Allow this call only (Alt+O)")
        )
        self.allow_always_button.setToolTip(
            QCoreApplication.translate(
                "PermissionDialog",
                "Allow this tool until the chat ends; revoke it by the message box (Alt+A)",
            )
        )
        self.deny_button = QPushButton(QCoreApplication.translate("PermissionDialog", "&Deny"))
        self.deny_button.setDefault(True)
        self.deny_button.setAutoDefault(True)

    def showEvent(self, event: QShowEvent) -> None:
        """Focus Deny whenever the dialog appears."""
        super().showEvent(event)
        self.deny_button.setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def _stop(self) -> None:
        self.stop_requested = True
        self._answer("deny")

    def _answer(self, decision: Decision) -> None:
        self.decision = decision
        if decision == "deny":
            self.reject()
        else:
            self.accept()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
