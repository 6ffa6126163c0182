"""The line under an answer that did not end normally: cut off, stopped at the token limit,
stopped by a filter or by the user — with Retry and Continue when the answer offers them.

What it says comes from the message's metadata (so a restored session says it too); the
buttons come from the conversation entry's ``actions`` (only the latest answer offers any).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QWidget

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.app import ConversationEntry, answer_ending
from desktop_agent.message import Msg
from desktop_agent.ui._plain import plain_label
from desktop_agent.ui.chat._context import RenderContext

HEADER_MARKS = {
    "interrupted": QT_TRANSLATE_NOOP("EndingBar", "interrupted"),
    "cut_off": QT_TRANSLATE_NOOP("EndingBar", "cut off"),
    "length": QT_TRANSLATE_NOOP("EndingBar", "token limit"),
    "content_filter": QT_TRANSLATE_NOOP("EndingBar", "filtered"),
}
"""The short mark next to the sender's name (English; translate with context "EndingBar")."""


def ending_text(msg: Msg, ending: str) -> str:
    """The sentence under an answer that ended with ``ending`` (see ``answer_ending``)."""
    has_text = bool((msg.get_text_content() or "").strip())
    thinking_only = not has_text and msg.has_content_blocks("thinking")
    if ending == "cut_off":
        if thinking_only:
            return QCoreApplication.translate(
                "EndingBar",
                "Cut off while thinking: the connection ended before any answer was written.",
            )
        return QCoreApplication.translate(
            "EndingBar", "Cut off: the connection ended before the answer was complete."
        )
    if ending == "length":
        if thinking_only:
            return QCoreApplication.translate(
                "EndingBar", "Stopped at the token limit while thinking: no answer was written yet."
            )
        return QCoreApplication.translate(
            "EndingBar", "Stopped at the token limit: the answer may be incomplete."
        )
    if ending == "content_filter":
        return QCoreApplication.translate("EndingBar", "Stopped by the server's content filter.")
    if ending == "thinking_only":
        return QCoreApplication.translate(
            "EndingBar", "No answer: the model only thought (open Thoughts to read it)."
        )
    if ending == "interrupted" and not msg.get_content_blocks():
        return QCoreApplication.translate("EndingBar", "Stopped before the answer began.")
    return ""


class EndingBar(QWidget):
    """A muted sentence and the Retry / Continue buttons the entry offers."""

    def __init__(self, ctx: RenderContext, parent: QWidget | None = None) -> None:
        """Create an empty bar; :meth:`update_entry` fills it."""
        super().__init__(parent)
        self.setObjectName("endingBar")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 2, 0, 0)
        row.setSpacing(8)
        self.text_label = plain_label("", self)
        self.text_label.setObjectName("endingText")
        self.text_label.setWordWrap(True)
        row.addWidget(self.text_label, 1)
        self.retry_button = QPushButton(QCoreApplication.translate("EndingBar", "Retry"), self)
        self.retry_button.setObjectName("endingRetry")
        self.retry_button.setToolTip(
            QCoreApplication.translate("EndingBar", "Ask again from your message")
        )
        self.retry_button.clicked.connect(lambda: ctx.retry_requested.emit())
        row.addWidget(self.retry_button, 0, Qt.AlignmentFlag.AlignTop)
        self.continue_button = QPushButton(
            QCoreApplication.translate("EndingBar", "Continue"), self
        )
        self.continue_button.setObjectName("endingContinue")
        self.continue_button.setToolTip(
            QCoreApplication.translate("EndingBar", "Ask the model to go on from where it stopped")
        )
        self.continue_button.clicked.connect(lambda: ctx.continue_requested.emit())
        row.addWidget(self.continue_button, 0, Qt.AlignmentFlag.AlignTop)
        self.ending: str | None = None

    def update_entry(self, entry: ConversationEntry) -> bool:
        """Show how the entry's answer ended; whether there is anything to show."""
        msg = entry.msg
        ending = answer_ending(msg) if msg is not None and not entry.streaming else None
        text = ending_text(msg, ending) if msg is not None and ending is not None else ""
        self.ending = ending
        self.text_label.setText(text)
        self.retry_button.setVisible("retry" in entry.actions)
        self.continue_button.setVisible("continue" in entry.actions)
        shown = bool(text) or bool(entry.actions and ending)
        self.setVisible(shown)
        return shown
