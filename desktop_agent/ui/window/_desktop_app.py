"""Builds the window and its controllers and wires them together.

``ui/app.py`` creates one :class:`DesktopApp` inside the main coroutine; tests create one
the same way (with a settings path, an environment and local-server ports of their own).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication

from desktop_agent.app import (
    ChatService,
    Conversation,
    LocalServer,
    Provider,
    SessionSwitcher,
    Settings,
    TurnFailed,
    TurnFinished,
    TurnInterrupted,
    TurnStarted,
    load_settings,
)
from desktop_agent.app._providers import LOCAL_SERVERS
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.permissions import PermissionController
from desktop_agent.ui.settings import SettingsController
from desktop_agent.ui.sidebar import SessionsController
from desktop_agent.ui.template_editor import TemplateEditorController
from desktop_agent.ui.theme import apply_theme
from desktop_agent.ui.window._chat_controller import ChatController, describe_state
from desktop_agent.ui.window._main_window import MainWindow

NO_PROVIDER_REASON = "Connect a model in Settings first."
_UNCONNECTED_STATES = ("", "Looking for a model…", "Not connected")


class DesktopApp(QObject):
    """The window, the conversation, the chat service and the controllers around them.

    Saved sessions: ``sessions`` (a :class:`SessionsController` over a
    :class:`SessionSwitcher`) opens the library after the window's first paint, fills
    the sidebar and reopens the last session; every conversation autosaves.

    Args:
        settings_path: Where settings are read and saved (default: the user's config).
        local_servers: Local OpenAI-compatible servers to probe.
        environ: Environment for provider variables (default: ``os.environ``).
    """

    def __init__(
        self,
        *,
        settings_path: Path | None = None,
        local_servers: Sequence[LocalServer] = LOCAL_SERVERS,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__()
        loaded = load_settings(settings_path)
        self.conversation = Conversation()
        self.settings = SettingsController(
            loaded, path=settings_path, local_servers=local_servers, environ=environ
        )
        self.permissions = PermissionController()
        self.service = ChatService(
            self.conversation, loaded.settings, ask_permission=self.permissions.ask
        )
        self.chat = ChatController(self.service)
        self.chat_view = _make_chat_view(self.conversation)
        self.window = MainWindow(self.chat_view)
        self.sessions = SessionsController(
            SessionSwitcher(self.service, self.conversation), self.window, self.chat
        )
        self.template_editor = TemplateEditorController(self.service, self.window)
        self.settings.set_parent_widget(self.window)
        self.permissions.set_parent_widget(self.window)
        self._wire()
        self._apply_settings(loaded.settings)
        if loaded.warning:
            self.window.banner.show_text(loaded.warning)

    async def start(self) -> Provider | None:
        """Show the window, then find the provider (the window paints meanwhile)."""
        self.window.composer.set_can_send(False, "Looking for a model…")
        self.window.status_line.set_state("Looking for a model…")
        self.window.show()
        self.window.composer.input.setFocus()
        return await self.settings.resolve()

    async def aclose(self) -> None:
        """Stop a running turn, cancel background work, close the model client."""
        await self.chat.aclose()
        await self.template_editor.aclose()
        await self.sessions.aclose()  # after the turn is cancelled: saves what it left
        await self.settings.aclose()

    # -- wiring ------------------------------------------------------------------------

    def _wire(self) -> None:
        window, composer = self.window, self.window.composer
        composer.send_requested.connect(self.chat.send)
        composer.stop_requested.connect(self.chat.stop)
        window.stop_requested.connect(self.chat.stop)
        window.sidebar.new_chat_requested.connect(self._new_chat)
        window.sidebar.settings_requested.connect(self.settings.open_dialog)
        window.sidebar.template_requested.connect(self.template_editor.open)
        self.sessions.active_changed.connect(self.template_editor.session_changed)
        window.first_run.open_settings_requested.connect(self.settings.open_dialog)
        window.first_run.search_again_requested.connect(self.settings.search_again)
        self.settings.searching_changed.connect(window.first_run.set_searching)
        self.settings.provider_changed.connect(self._on_provider)
        self.settings.provider_changed.connect(self.sessions.on_provider)  # after: read-only
        window.first_painted.connect(self.sessions.start)
        self.settings.settings_changed.connect(self._apply_settings)
        self.settings.warning.connect(window.banner.show_text)
        self.chat.busy_changed.connect(composer.set_busy)
        self.chat.turn_event.connect(self._on_turn_event)
        self.chat_view.retry_requested.connect(self.chat.retry)

    def _on_provider(self, provider: Provider | None) -> None:
        self.chat.configure(self.settings.settings, provider)
        self.window.show_first_run(provider is None)
        self.window.composer.set_can_send(provider is not None, NO_PROVIDER_REASON)
        if provider is None:
            self.window.status_line.set_model("No model")
            self.window.status_line.set_state("Not connected")
            return
        self.window.status_line.set_model(f"{provider.model} · {provider.name}")
        if self.window.status_line.state_label.text() in _UNCONNECTED_STATES:
            self.window.status_line.set_state("Ready")  # keep "Error"/"Stopped" after a turn

    def _apply_settings(self, settings: Settings) -> None:
        dark = settings.theme == "dark"
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, dark)
        self.chat_view.set_theme(dark)
        self.chat_view.set_allow_remote_images(settings.allow_remote_images)
        self.chat.configure(settings, self.settings.provider)

    def _on_turn_event(self, event: object) -> None:
        status = self.window.status_line
        status.set_state(describe_state(event))
        if isinstance(event, TurnStarted):
            status.set_usage(None)
        elif isinstance(event, TurnFinished | TurnInterrupted):
            status.set_usage(event.usage)
        elif isinstance(event, TurnFailed):
            status.set_usage(None)

    def _new_chat(self) -> None:
        self.sessions.new_chat()  # asks first if a reply is being written


def _make_chat_view(conversation: Conversation) -> ChatView:
    return ChatView(conversation)
