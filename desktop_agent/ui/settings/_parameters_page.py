"""Settings → Parameters: what every chat request sends besides the temperature.

A :class:`SettingsPage` editing ``max_output_tokens``, ``top_p``, ``reasoning_effort`` and
``stream``. Unset values are not sent at all (the server's defaults apply), so servers
that do not know a parameter are not bothered with it.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QWidget,
)

from desktop_agent.app import Settings

PARAMETERS_PAGE_TITLE = "Parameters"
NOT_SENT = "Server default"
EFFORTS = ("", "minimal", "low", "medium", "high")


class ParametersPage(QWidget):
    """Max output tokens, top_p, reasoning effort, streaming."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """Create the page; :meth:`load` fills it."""
        super().__init__(parent)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(0, 1_000_000)
        self.max_tokens.setSingleStep(256)
        self.max_tokens.setSpecialValueText(NOT_SENT)  # 0: not sent
        self.max_tokens.setToolTip("The longest answer, in tokens (max_tokens)")
        self.top_p = QDoubleSpinBox()
        self.top_p.setRange(0.0, 1.0)
        self.top_p.setSingleStep(0.05)
        self.top_p.setDecimals(2)
        self.top_p.setSpecialValueText(NOT_SENT)  # 0: not sent
        self.top_p.setToolTip("Nucleus sampling: only the most likely tokens up to this mass")
        self.effort = QComboBox()
        for effort in EFFORTS:
            self.effort.addItem(effort.capitalize() if effort else NOT_SENT, effort)
        self.effort.setToolTip("For reasoning models that take it (o-series, GPT-5, …)")
        self.stream = QCheckBox("Show answers as they are written (streaming)")
        self.auto_title = QCheckBox("Let the model title new chats (one small request)")
        self.auto_title.setToolTip("After the first answer; a title you gave is never replaced")
        form = QFormLayout(self)
        form.addRow("Max output tokens", self.max_tokens)
        form.addRow("Top p", self.top_p)
        form.addRow("Reasoning effort", self.effort)
        form.addRow("", self.stream)
        form.addRow("", self.auto_title)
        self.note = note = QLabel(
            "These are the defaults of every chat. A server that rejects a parameter says so "
            "in the chat; Retry then sends the message without it."
        )
        note.setObjectName("caption")
        note.setWordWrap(True)
        form.addRow("", note)

    def load(self, settings: Settings) -> None:
        """Show ``settings``."""
        self.max_tokens.setValue(settings.max_output_tokens or 0)
        self.top_p.setValue(settings.top_p or 0.0)
        self.effort.setCurrentIndex(max(0, self.effort.findData(settings.reasoning_effort)))
        self.stream.setChecked(settings.stream)
        self.auto_title.setChecked(settings.auto_title)

    def apply(self, settings: Settings) -> Settings:
        """``settings`` with this page's fields."""
        return settings.model_copy(
            update={
                "max_output_tokens": self.max_tokens.value() or None,
                "top_p": self.top_p.value() or None,
                "reasoning_effort": str(self.effort.currentData() or ""),
                "stream": self.stream.isChecked(),
                "auto_title": self.auto_title.isChecked(),
            }
        )
