"""Shown instead of the chat while no model provider is configured."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop_agent._i18n import QT_TRANSLATE_NOOP

_EXPLANATION = QT_TRANSLATE_NOOP(
    "FirstRunPanel",
    "desktop-agent talks to any OpenAI-compatible server: OpenAI itself, or one running on "
    "this computer such as Ollama, LM Studio, llama.cpp or vLLM.<br><br>"
    "No server was found. You can:"
    "<ul>"
    "<li>open <b>Settings</b> and enter a base URL, an API key and a model;</li>"
    "<li>or start a local server (e.g. <code>ollama serve</code>) and search again;</li>"
    "<li>or set <code>OPENAI_API_KEY</code> (and optionally <code>OPENAI_BASE_URL</code>, "
    "<code>DESKTOP_AGENT_MODEL</code>) before starting the app.</li>"
    "</ul>",
)


class FirstRunPanel(QWidget):
    """Explains how to connect a model, with a button to open Settings."""

    open_settings_requested = Signal()
    search_again_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("firstRunPanel")
        title = QLabel(
            QCoreApplication.translate("FirstRunPanel", "Connect a model to start chatting")
        )
        title.setObjectName("firstRunTitle")
        title.setWordWrap(True)  # small windows (HiDPI scaling) keep it whole
        text = QLabel(QCoreApplication.translate("FirstRunPanel", _EXPLANATION))
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.RichText)
        self.notes_label = QLabel()  # e.g. "LM Studio on port 1234 needs an API key: …"
        self.notes_label.setObjectName("firstRunNotes")
        self.notes_label.setTextFormat(Qt.TextFormat.PlainText)
        self.notes_label.setWordWrap(True)
        self.notes_label.hide()
        self.settings_button = QPushButton(
            QCoreApplication.translate("FirstRunPanel", "Open Settings")
        )
        self.settings_button.setProperty("accent", True)
        self.settings_button.clicked.connect(self.open_settings_requested)
        self.search_button = QPushButton(
            QCoreApplication.translate("FirstRunPanel", "Search again")
        )
        self.search_button.clicked.connect(self.search_again_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.settings_button)
        buttons.addWidget(self.search_button)
        buttons.addStretch(1)
        column = QVBoxLayout()
        column.addStretch(1)
        column.addWidget(title)
        column.addSpacing(8)
        column.addWidget(text)
        column.addWidget(self.notes_label)
        column.addSpacing(12)
        column.addLayout(buttons)
        column.addStretch(2)
        box = QWidget()
        box.setLayout(column)
        box.setMaximumWidth(560)
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        outer.addWidget(box, 4)
        outer.addStretch(1)

    def set_notes(self, notes: list[str]) -> None:
        """Show what the last search found but could not use (a server needing a key)."""
        self.notes_label.setText("\n".join(notes))
        self.notes_label.setVisible(bool(notes))

    def set_searching(self, searching: bool) -> None:
        """Disable "Search again" while a search runs."""
        self.search_button.setEnabled(not searching)
        self.search_button.setText(
            QCoreApplication.translate("FirstRunPanel", "Searching…")
            if searching
            else QCoreApplication.translate("FirstRunPanel", "Search again")
        )
