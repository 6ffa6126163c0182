"""A deleted chat, shown read-only from the Trash, with a visible Restore button.

It has a conversation of its own (never the live one: the active session keeps autosaving
what it shows), so looking into the Trash changes nothing until Restore is clicked.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui._plain import plain_label
from desktop_agent.ui.chat import ChatView


class TrashPreview(QWidget):
    """Title, "In the Trash · read-only", Restore, and the chat below."""

    restore_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty preview (see :meth:`show_session`)."""
        super().__init__(parent)
        self.setObjectName("trashPreview")
        self.session_id = ""
        self.conversation = Conversation()
        self.chat_view = ChatView(self.conversation)
        self.title = plain_label("")
        self.title.setObjectName("trashTitle")
        self.title.setProperty("i18n_data", True)  # the chat's title
        note = QLabel(
            QCoreApplication.translate(
                "TrashPreview", "In the Trash · read-only. Restore it to continue the chat."
            )
        )
        note.setObjectName("caption")
        note.setWordWrap(True)
        self.restore_button = QPushButton(QCoreApplication.translate("TrashPreview", "Restore"))
        self.restore_button.setProperty("accent", True)
        self.restore_button.clicked.connect(lambda: self.restore_requested.emit(self.session_id))
        header = QHBoxLayout()
        text = QVBoxLayout()
        text.setSpacing(2)
        text.addWidget(self.title)
        text.addWidget(note)
        header.addLayout(text, 1)
        header.addWidget(self.restore_button)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(6)
        column.addLayout(header)
        column.addWidget(self.chat_view, 1)

    def show_session(self, session_id: str, title: str, messages: list[Msg]) -> None:
        """Show a deleted session's messages."""
        self.session_id = session_id
        self.title.setText(title)
        self.conversation.reset(messages)
        self.chat_view.scroll_to_latest()

    def set_theme(self, dark: bool) -> None:
        """Follow the window's theme."""
        self.chat_view.set_theme(dark)
