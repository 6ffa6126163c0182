"""The status line under the composer: model, tokens of the last turn, state."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from desktop_agent.app import TurnUsage


class StatusLine(QWidget):
    """Three captions: which model, how many tokens the last turn used, what is going on."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusLine")
        self.model_label = QLabel(QCoreApplication.translate("StatusLine", "No model"))
        self.model_label.setTextFormat(Qt.TextFormat.PlainText)  # a name a server listed
        self.model_label.setProperty("i18n_data", True)
        self.usage_label = QLabel("")
        self.state_label = QLabel("")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 3, 12, 4)
        layout.addWidget(self.model_label)
        layout.addStretch(1)
        layout.addWidget(self.usage_label)
        layout.addSpacing(16)
        layout.addWidget(self.state_label)

    def set_model(self, text: str) -> None:
        """Show the model (and provider) in use."""
        self.model_label.setText(text)

    def set_usage(self, usage: TurnUsage | None) -> None:
        """Show the last turn's tokens (cleared when ``None``)."""
        if usage is None:
            self.usage_label.setText("")
            return
        total = usage.input_tokens + usage.output_tokens
        self.usage_label.setText(
            QCoreApplication.translate(
                "StatusLine", "Last turn: {input} in · {output} out · {total} tokens"
            ).format(
                input=f"{usage.input_tokens:,}",
                output=f"{usage.output_tokens:,}",
                total=f"{total:,}",
            )
        )

    def set_state(self, text: str) -> None:
        """Show what the app is doing ("Ready", "Answering…", "Stopped", ...)."""
        self.state_label.setText(text)
