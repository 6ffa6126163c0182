"""The left sidebar. Saved sessions arrive with the session library (a later issue);
until then it offers "New chat" and Settings, and says plainly that no history is kept.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout, QWidget


class Sidebar(QFrame):
    """Actions that are not about the current message: new chat, settings."""

    new_chat_requested = Signal()
    settings_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        self.setMinimumWidth(180)
        self.setMaximumWidth(320)
        self.new_chat_button = QPushButton("+  New chat")
        self.new_chat_button.setToolTip("Start a fresh conversation (Ctrl+N)")
        self.new_chat_button.clicked.connect(self.new_chat_requested)
        note = QLabel("Saved sessions will be listed here in a later version.")
        note.setObjectName("sidebarNote")
        note.setWordWrap(True)
        self.settings_button = QPushButton("⚙  Settings")
        self.settings_button.clicked.connect(self.settings_requested)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 12, 10, 10)
        layout.addWidget(self.new_chat_button)
        layout.addSpacing(8)
        layout.addWidget(note)
        layout.addStretch(1)
        layout.addWidget(self.settings_button)
