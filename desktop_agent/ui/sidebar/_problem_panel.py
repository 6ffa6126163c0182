"""Shown in the chat area instead of a session that cannot be opened.

It says what is wrong in the library's own words (damaged file, newer version), where
the file is, and that it was left untouched; the user goes back to the conversation or
moves the session to the trash. Nothing here writes the file.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget


class SessionProblemPanel(QWidget):
    """What is wrong with a session, with "Back to the conversation" and "Move to trash".

    Signals:
        back_requested(): Show the active conversation again.
        delete_requested(str): Move this session to the trash (the controller confirms).
    """

    back_requested = Signal()
    delete_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sessionProblemPanel")
        self.session_id = ""
        self.heading = QLabel()
        self.heading.setObjectName("firstRunTitle")
        self.heading.setWordWrap(True)
        self.title = QLabel()
        self.title.setProperty("i18n_data", True)  # the session's title
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message = QLabel()
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # it may quote the file
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.path = QLabel()
        self.path.setTextFormat(Qt.TextFormat.PlainText)
        self.path.setObjectName("caption")
        self.path.setWordWrap(True)
        self.path.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.back_button = QPushButton(
            QCoreApplication.translate("SessionProblemPanel", "Back to the conversation")
        )
        self.back_button.setProperty("accent", True)
        self.back_button.clicked.connect(self.back_requested)
        self.delete_button = QPushButton(
            QCoreApplication.translate("SessionProblemPanel", "Move to trash…")
        )
        self.delete_button.clicked.connect(lambda: self.delete_requested.emit(self.session_id))
        self._build_layout()

    def show_problem(
        self, session_id: str, title: str, message: str, path: str = "", *, newer: bool = False
    ) -> None:
        """Describe the problem of one session.

        Args:
            session_id: The session.
            title: Its title as listed.
            message: What is wrong (the error's message, for the user).
            path: Its file, if known.
            newer: It comes from a newer app version (rather than being damaged).
        """
        self.session_id = session_id
        self.heading.setText(
            QCoreApplication.translate(
                "SessionProblemPanel", "This session needs a newer desktop-agent"
            )
            if newer
            else QCoreApplication.translate("SessionProblemPanel", "This session can't be opened")
        )
        self.title.setText(f"<b>{_escape(title)}</b>")
        self.message.setText(message)
        self.path.setText(
            QCoreApplication.translate("SessionProblemPanel", "File: {path}").format(path=path)
        )
        self.path.setVisible(bool(path) and path not in message)

    def _build_layout(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self.back_button)
        buttons.addWidget(self.delete_button)
        buttons.addStretch(1)
        column = QVBoxLayout()
        column.addStretch(1)
        column.addWidget(self.heading)
        column.addSpacing(6)
        column.addWidget(self.title)
        column.addSpacing(8)
        column.addWidget(self.message)
        column.addWidget(self.path)
        column.addSpacing(12)
        column.addLayout(buttons)
        column.addStretch(2)
        box = QWidget()
        box.setLayout(column)
        box.setMaximumWidth(600)
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        outer.addWidget(box, 4)
        outer.addStretch(1)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
