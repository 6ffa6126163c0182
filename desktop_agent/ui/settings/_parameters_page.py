"""Settings → Parameters: what every chat request sends besides the temperature.

A :class:`SettingsPage` editing ``max_output_tokens``, ``top_p``, ``reasoning_effort``,
``context_budget`` and ``stream``. Unset values are not sent at all (the server's defaults
apply), so servers that do not know a parameter are not bothered with it. The context
budget is not sent: attached documents are checked against it in the composer.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QWidget,
)

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.app import Settings

PARAMETERS_PAGE_TITLE = QT_TRANSLATE_NOOP("SettingsDialog", "Parameters")
NOT_SENT = QT_TRANSLATE_NOOP("ParametersPage", "Server default")
EFFORTS = ("", "minimal", "low", "medium", "high")
EFFORT_NAMES = {  # what the reasoning effort box shows for each value
    "": NOT_SENT,
    "minimal": QT_TRANSLATE_NOOP("ParametersPage", "Minimal"),
    "low": QT_TRANSLATE_NOOP("ParametersPage", "Low"),
    "medium": QT_TRANSLATE_NOOP("ParametersPage", "Medium"),
    "high": QT_TRANSLATE_NOOP("ParametersPage", "High"),
}


class ParametersPage(QWidget):
    """Max output tokens, top_p, reasoning effort, streaming."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """Create the page; :meth:`load` fills it."""
        super().__init__(parent)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(0, 1_000_000)
        self.max_tokens.setSingleStep(256)
        not_sent = QCoreApplication.translate("ParametersPage", NOT_SENT)
        self.max_tokens.setSpecialValueText(not_sent)  # 0: not sent
        self.max_tokens.setToolTip(
            QCoreApplication.translate(
                "ParametersPage", "The longest answer, in tokens (max_tokens)"
            )
        )
        self.top_p = QDoubleSpinBox()
        self.top_p.setRange(0.0, 1.0)
        self.top_p.setSingleStep(0.05)
        self.top_p.setDecimals(2)
        self.top_p.setSpecialValueText(not_sent)  # 0: not sent
        self.top_p.setToolTip(
            QCoreApplication.translate(
                "ParametersPage", "Nucleus sampling: only the most likely tokens up to this mass"
            )
        )
        self.effort = QComboBox()
        for effort in EFFORTS:
            self.effort.addItem(
                QCoreApplication.translate("ParametersPage", EFFORT_NAMES[effort]), effort
            )
        self.effort.setToolTip(
            QCoreApplication.translate(
                "ParametersPage", "For reasoning models that take it (o-series, GPT-5, …)"
            )
        )
        self.context_budget = QSpinBox()
        self.context_budget.setRange(1_000, 10_000_000)
        self.context_budget.setSingleStep(1_000)
        self.context_budget.setGroupSeparatorShown(True)
        self.context_budget.setSuffix(QCoreApplication.translate("ParametersPage", " tokens"))
        self.context_budget.setToolTip(
            QCoreApplication.translate(
                "ParametersPage",
                "How much the chat's context may take (the model's context length, or less):"
                " attached documents are checked against it before they are sent",
            )
        )
        self.stream = QCheckBox(
            QCoreApplication.translate(
                "ParametersPage", "Show answers as they are written (streaming)"
            )
        )
        self.auto_title = QCheckBox(
            QCoreApplication.translate(
                "ParametersPage", "Let the model title new chats (one small request)"
            )
        )
        self.auto_title.setToolTip(
            QCoreApplication.translate(
                "ParametersPage", "After the first answer; a title you gave is never replaced"
            )
        )
        form = QFormLayout(self)
        form.addRow(
            QCoreApplication.translate("ParametersPage", "Max output tokens"), self.max_tokens
        )
        form.addRow(QCoreApplication.translate("ParametersPage", "Top p"), self.top_p)
        form.addRow(QCoreApplication.translate("ParametersPage", "Reasoning effort"), self.effort)
        form.addRow(
            QCoreApplication.translate("ParametersPage", "Context budget"), self.context_budget
        )
        form.addRow("", self.stream)
        form.addRow("", self.auto_title)
        self.note = note = QLabel(
            QCoreApplication.translate(
                "ParametersPage",
                "These are the defaults of every chat. A server that rejects a parameter says so "
                "in the chat; Retry then sends the message without it.",
            )
        )
        note.setObjectName("caption")
        note.setWordWrap(True)
        form.addRow("", note)

    def load(self, settings: Settings) -> None:
        """Show ``settings``."""
        self.max_tokens.setValue(settings.max_output_tokens or 0)
        self.top_p.setValue(settings.top_p or 0.0)
        self.effort.setCurrentIndex(max(0, self.effort.findData(settings.reasoning_effort)))
        self.context_budget.setValue(settings.context_budget)
        self.stream.setChecked(settings.stream)
        self.auto_title.setChecked(settings.auto_title)

    def apply(self, settings: Settings) -> Settings:
        """``settings`` with this page's fields."""
        return settings.model_copy(
            update={
                "max_output_tokens": self.max_tokens.value() or None,
                "top_p": self.top_p.value() or None,
                "reasoning_effort": str(self.effort.currentData() or ""),
                "context_budget": self.context_budget.value(),
                "stream": self.stream.isChecked(),
                "auto_title": self.auto_title.isChecked(),
            }
        )
