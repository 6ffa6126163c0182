"""Builds the window and its controllers and wires them together.

``ui/app.py`` creates one :class:`DesktopApp` inside the main coroutine; tests create one
the same way (with a settings path, an environment and local-server ports of their own).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt, SignalInstance
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QDialog
from shiboken6 import isValid

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent._logging import logger
from desktop_agent._malloc import return_large_blocks
from desktop_agent.app import (
    ChatService,
    Conversation,
    LocalServer,
    McpServers,
    Provider,
    SessionSwitcher,
    Settings,
    TurnFailed,
    TurnFinished,
    TurnInterrupted,
    TurnStarted,
    load_settings,
)
from desktop_agent.app._assistants import ASSISTANTS_FILE, AssistantLibrary
from desktop_agent.app._auto_title import AutoTitler
from desktop_agent.app._chat_params import CHAT_PARAMS_FILE, ChatParams
from desktop_agent.app._keyring_store import KeyStore
from desktop_agent.app._model_choice import MODELS_FILE, ModelChoice
from desktop_agent.app._providers import LOCAL_SERVERS, configured_providers
from desktop_agent.app._session_switcher import ActiveSessionChanged
from desktop_agent.app._transcription import provider_transcriber
from desktop_agent.ui._i18n import install_language
from desktop_agent.ui._qt_async import TaskSet
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.export import ExportController
from desktop_agent.ui.permissions import PermissionController
from desktop_agent.ui.settings import AgentPage, SettingsController, ToolsController
from desktop_agent.ui.settings._agent_page import AGENT_PAGE_TITLE
from desktop_agent.ui.settings._parameters_page import PARAMETERS_PAGE_TITLE, ParametersPage
from desktop_agent.ui.sidebar import SessionsController
from desktop_agent.ui.template_editor import TemplateEditorController
from desktop_agent.ui.theme import apply_theme, resolve_dark
from desktop_agent.ui.window._assistant_picker import AssistantController
from desktop_agent.ui.window._chat_controller import ChatController, describe_state
from desktop_agent.ui.window._chat_params_dialog import ChatParamsDialog
from desktop_agent.ui.window._geometry import place_window, save_placement, state_path
from desktop_agent.ui.window._live_stats import LiveStats
from desktop_agent.ui.window._main_window import MainWindow
from desktop_agent.ui.window._model_picker import ModelPickerController
from desktop_agent.ui.window._versions_controller import VersionsController

if TYPE_CHECKING:
    from desktop_agent.ui.settings._data_page import DataPage

NO_PROVIDER_REASON = QT_TRANSLATE_NOOP("DesktopApp", "Connect a model in Settings first.")
FIRST_PAINT_WAIT_S = 1.0
SIDEBAR_WAIT_S = 1.0
_LOOKING = QT_TRANSLATE_NOOP("DesktopApp", "Looking for a model…")
_NOT_CONNECTED = QT_TRANSLATE_NOOP("DesktopApp", "Not connected")


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
        return_large_blocks()  # a huge reply's memory goes back to the system when freed
        install_language()  # the desktop's language: for a warning about the settings file
        loaded = load_settings(settings_path)
        install_language(loaded.settings.language)  # before any widget is built (issue 21)
        self._window_state = state_path()
        self._placed = False
        self._tasks = TaskSet()
        self.conversation = Conversation()
        self.settings = SettingsController(
            loaded, path=settings_path, local_servers=local_servers, environ=environ
        )
        self.settings.key_store = KeyStore()  # API keys in the OS keyring if any (issue 17)
        self.permissions = PermissionController()
        self.mcp_servers = McpServers(loaded.settings.mcp_servers)  # shared by every chat
        self.service = ChatService(
            self.conversation,
            loaded.settings,
            ask_permission=self.permissions.ask,
            mcp_servers=self.mcp_servers,
        )
        self.chat = ChatController(self.service)
        self.chat_view = _make_chat_view(self.conversation)
        self.window = MainWindow(self.chat_view)
        self.versions = VersionsController(self.service, self.chat_view, self.window)
        self.sessions = SessionsController(
            SessionSwitcher(self.service, self.conversation), self.window, self.chat
        )
        self.template_editor = TemplateEditorController(self.service, self.window)
        self._wire_model_picker(settings_path)  # the chat header's model (issue 17)
        self.export = ExportController(self.sessions.switcher, self.window)  # Ctrl+Shift+E
        self.settings.add_page_factory(
            QCoreApplication.translate("DesktopApp", "Data"), self._data_page
        )
        self.settings.add_page_factory(AGENT_PAGE_TITLE, AgentPage)  # working folder, timeout
        self.settings.add_page_factory(PARAMETERS_PAGE_TITLE, ParametersPage)  # issue 17
        self.tools = ToolsController(self.mcp_servers, self.settings, self.service)  # "Tools" tab
        self.chat_view.context.tool_origin = self.mcp_servers.server_of_tool
        self.settings.set_parent_widget(self.window)
        self.permissions.set_parent_widget(self.window)
        self._wire()
        self.live_stats = LiveStats(self.service, self.window.status_line)  # after _wire:
        self.chat.turn_event.connect(self.live_stats.on_turn_event)  # its caption wins
        self._apply_settings(loaded.settings, this_chat=False)
        if loaded.warning:
            self.window.banner.show_text(loaded.warning)

    async def start(self) -> Provider | None:
        """Show the window; once it has painted and the sidebar lists the sessions, find
        the provider. Reading the API keys first imports ``keyring`` (~0.3 s in a worker
        thread, sharing the GIL), which would delay both."""
        looking = QCoreApplication.translate("DesktopApp", _LOOKING)
        self.window.composer.set_can_send(False, looking)
        self.window.status_line.set_state(looking)
        place_window(self.window, self.window.splitter, self._window_state)
        self._placed = True
        painted = _Emitted(self.window.first_painted)
        listed = _Emitted(self.sessions.rows_loaded, self.sessions.ready)
        self.window.show()
        self.window.composer.input.setFocus()
        self.tools.start()
        # Bounded waits: a window hidden at once never paints; a slow disk lists late.
        if await painted.wait(FIRST_PAINT_WAIT_S):
            await listed.wait(SIDEBAR_WAIT_S)
        listed.close()
        return await self.settings.resolve()

    async def aclose(self) -> None:
        """Stop a running turn, cancel background work, close the model client."""
        if self._placed and isValid(self.window):
            save_placement(self.window, self.window.splitter, self._window_state)
        await self.versions.aclose()
        await self._tasks.cancel_all()
        await self.models.aclose()
        await self.titles.aclose()
        await self.assistants.aclose()
        await self.chat.aclose()
        await self.tools.aclose()  # every MCP server process ends
        await self.template_editor.aclose()
        await self.export.aclose()
        await self.sessions.aclose()  # after the turn is cancelled: saves what it left
        await self.settings.aclose()

    # -- wiring ------------------------------------------------------------------------

    def _wire(self) -> None:
        window, composer = self.window, self.window.composer
        composer.send_requested.connect(self.chat.send)
        composer.send_requested.connect(self.chat_view.scroll_to_latest)  # even if scrolled up
        composer.stop_requested.connect(self.chat.stop)
        window.stop_requested.connect(self.chat.stop)
        window.sidebar.new_chat_requested.connect(self._new_chat)
        window.sidebar.settings_requested.connect(self.settings.open_dialog)
        window.sidebar.template_requested.connect(self.template_editor.open)
        window.sidebar.export_requested.connect(self.export.export)
        window.sidebar.copy_markdown_requested.connect(self.export.copy_markdown)
        self.sessions.active_changed.connect(self.template_editor.session_changed)
        window.first_run.open_settings_requested.connect(self.settings.open_dialog)
        window.first_run.search_again_requested.connect(self.settings.search_again)
        self.settings.searching_changed.connect(window.first_run.set_searching)
        self.settings.discovery_notes.connect(window.first_run.set_notes)
        self.settings.provider_changed.connect(self._on_provider)
        self.settings.provider_changed.connect(self.sessions.on_provider)  # after: read-only
        self.settings.provider_changed.connect(self._show_chat_model)  # the chat's model
        window.first_painted.connect(self.sessions.start)
        self.settings.settings_changed.connect(self._apply_settings)
        self.settings.warning.connect(window.banner.show_text)
        self.chat.busy_changed.connect(composer.set_busy)
        self._wire_focus_and_keys()
        self.chat.turn_event.connect(self._on_turn_event)
        self.chat_view.retry_requested.connect(self.chat.retry)
        self.chat_view.continue_requested.connect(self.chat.continue_answer)
        self.permissions.stop_requested.connect(self.chat.stop)
        chip = composer.allowed_tools
        chip.revoke_requested.connect(self.service.revoke_tool)
        self.service.subscribe_permissions(lambda: chip.set_tools(self.service.allowed_tools))

    def _wire_model_picker(self, settings_path: Path | None) -> None:
        folder = settings_path.parent if settings_path is not None else None
        self.model_choice = ModelChoice(folder / MODELS_FILE if folder is not None else None)
        self.model_choice.providers = lambda: configured_providers(
            self.settings.settings, self.settings.provider
        )  # several providers at once: the picker groups their models
        self.chat.model_for_chat = self.model_choice.apply
        self.models = ModelPickerController(
            self.window.model_picker,
            self.model_choice,
            self.service,
            self._reconfigure_chat,
            self.sessions.switcher.save_now,
        )
        self.sessions.switcher.add_listener(self.models.on_session)
        self.titles = AutoTitler(self.sessions.switcher)  # the model proposes chat titles
        self.assistants = AssistantController(
            self.window.assistant_picker,
            AssistantLibrary(folder / ASSISTANTS_FILE if folder is not None else None),
            self.service,
            self.models.choose,
            self.sessions.switcher.save_now,
            self._reconfigure_chat,
        )
        self.assistants.mcp_server_names = lambda: [c.name for c in self.mcp_servers.configs]
        self.assistants.template_names = _template_names
        self.sessions.switcher.add_listener(self.assistants.on_session)
        self._offer_assistants = False  # "New chat" (the button) offers the assistants
        self.window.sidebar.new_chat_button.clicked.connect(self._offer_assistants_next)
        self.sessions.switcher.add_listener(self._on_new_chat_offer)
        self.chat_params = ChatParams(  # kept in the session; the old sidecar migrates
            lambda: self.service.agent_state.setup,
            folder / CHAT_PARAMS_FILE if folder is not None else None,
        )
        self.chat_params.changed = self._save_chat
        self.sessions.switcher.add_listener(self._on_session_params)
        self.window.params_button.clicked.connect(self.open_chat_params)
        self.chat.settings_for_chat = lambda settings: self.chat_params.apply(
            self.assistants.settings_for_chat(settings)
        )

    def _on_session_params(self, event: object) -> None:
        if isinstance(event, ActiveSessionChanged):
            created = event.session_id is not None and event.summary is None
            opened = event.session_id is not None and not created
            if opened and self.chat_params.migrate(str(event.session_id)):
                self._save_chat()
            if not created:
                self._reconfigure_chat()

    def _save_chat(self) -> None:
        """Save the chat (its setup changed: parameters, provider, assistant)."""
        self._tasks.spawn(self.sessions.switcher.save_now(), "chat-setup-save")

    def open_chat_params(self) -> ChatParamsDialog:
        """The header's Parameters: this chat's own temperature, max tokens, …"""
        dialog = ChatParamsDialog(
            self.chat_params, self.settings.settings, self._reconfigure_chat, self.window
        )
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def _reconfigure_chat(self) -> None:
        self.chat.configure(self.settings.settings, self.settings.provider)
        self._show_chat_model()
        self.window.composer.set_context_tokens(self.service.settings.context_budget)

    def _show_chat_model(self, _configured: object = None) -> None:
        provider = self.service.provider
        if provider is not None:
            self.sessions.on_provider(provider)
        self.models.show_provider(provider)

    def _wire_focus_and_keys(self) -> None:
        window, composer = self.window, self.window.composer
        composer.stop_requested.connect(window.focus_composer)
        window.stop_requested.connect(window.focus_composer)
        composer.send_refused.connect(self._explain_refused_send)
        window.banner.settings_button.clicked.connect(self.settings.open_dialog)
        for opened in (
            self.settings.dialog_opened,
            self.permissions.dialog_opened,
            self.sessions.dialog_opened,
        ):
            opened.connect(self._focus_composer_after)
        window.shortcuts.connect("copy_last_answer", self.copy_last_answer)
        hints = QGuiApplication.styleHints()
        if hints is not None:
            hints.colorSchemeChanged.connect(self._on_color_scheme)
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.applicationStateChanged.connect(self._on_application_state)

    def _focus_composer_after(self, dialog: QDialog) -> None:
        """When ``dialog`` closes, typing goes to the message field again."""
        dialog.finished.connect(lambda _result: self.window.focus_composer())

    def _explain_refused_send(self, reason: str) -> None:
        """Enter with nothing to talk to: say why, and lead to Settings."""
        text = reason or QCoreApplication.translate("DesktopApp", NO_PROVIDER_REASON)
        self.window.banner.show_text(text, settings=self.settings.provider is None)

    def copy_last_answer(self) -> bool:
        """Ctrl+Shift+C: put the last assistant answer on the clipboard; whether one was."""
        for entry in reversed(self.conversation.entries):
            msg = entry.msg
            if msg is not None and msg.role == "assistant":
                text = msg.get_text_content() or ""
                if text.strip():
                    clipboard = QGuiApplication.clipboard()
                    clipboard.setText(text)
                    self.window.status_line.set_state(
                        QCoreApplication.translate("DesktopApp", "Copied the last answer")
                    )
                    return True
        self.window.status_line.set_state(
            QCoreApplication.translate("DesktopApp", "No answer to copy yet")
        )
        return False

    def _on_application_state(self, state: Qt.ApplicationState) -> None:
        """The user went to another app: a good moment to fold the session's journal into
        its file (a whole rewrite, which would stall a busy window a little)."""
        if state == Qt.ApplicationState.ApplicationActive:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # Qt delivering it after the loop ended
            return
        self._tasks.spawn(self.sessions.switcher.checkpoint(), "session-checkpoint")

    def _on_color_scheme(self, _scheme: object) -> None:
        if self.settings.settings.theme == "system":
            self._apply_settings(self.settings.settings)

    def _on_provider(self, provider: Provider | None) -> None:
        self.chat.configure(self.settings.settings, provider)
        self.window.show_first_run(provider is None)
        self.window.composer.set_can_send(
            provider is not None, QCoreApplication.translate("DesktopApp", NO_PROVIDER_REASON)
        )
        # "To text" on voice messages, via the provider's /v1/audio/transcriptions (issue 16)
        transcriber = provider_transcriber(provider) if provider is not None else None
        self.window.composer.set_transcriber(transcriber)
        if provider is None:
            self.window.status_line.set_model(QCoreApplication.translate("DesktopApp", "No model"))
            self.window.status_line.set_state(
                QCoreApplication.translate("DesktopApp", _NOT_CONNECTED)
            )
            return
        self.window.status_line.set_model(f"{provider.model} · {provider.name}")
        unconnected = (
            "",
            *(QCoreApplication.translate("DesktopApp", s) for s in (_LOOKING, _NOT_CONNECTED)),
        )
        if self.window.status_line.state_label.text() in unconnected:
            self.window.status_line.set_state(
                QCoreApplication.translate("DesktopApp", "Ready")
            )  # keep "Error"/"Stopped" after a turn

    def _apply_settings(self, settings: Settings, this_chat: bool = True) -> None:
        dark = resolve_dark(settings.theme)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, dark)
        self.chat_view.set_theme(dark)
        self.chat_view.set_allow_remote_images(settings.allow_remote_images)
        if this_chat:
            self.chat.configure(settings, self.settings.provider)
        else:  # at start: the chat's own parameters are in its AgentState, whose template
            # engine (desktop_agent.context) loads after first paint; the provider found
            # then configures the chat with them
            self.service.configure(settings, None)
        self.window.composer.set_context_tokens(self.service.settings.context_budget)

    def _on_turn_event(self, event: object) -> None:
        status = self.window.status_line
        status.set_state(describe_state(event))
        if isinstance(event, TurnStarted):
            status.set_usage(None)
        elif isinstance(event, TurnFinished | TurnInterrupted):
            status.set_usage(event.usage)
        elif isinstance(event, TurnFailed):
            status.set_usage(None)

    def _data_page(self) -> DataPage:
        """Settings → Data; after an import or restore the sidebar shows its list anew."""
        from desktop_agent.ui.settings._data_page import DataPage  # loads the transfer package

        sidebar = self.window.sidebar
        return DataPage(self.sessions.switcher, lambda: self.sessions.show_trash(sidebar.in_trash))

    def _new_chat(self) -> None:
        self.sessions.new_chat()  # asks first if a reply is being written

    def _offer_assistants_next(self) -> None:
        self._offer_assistants = True

    def _on_new_chat_offer(self, event: object) -> None:
        """The new chat the button asked for is there: "New chat with…" the assistants
        (Enter keeps the default one; Ctrl+N skips the menu)."""
        if not isinstance(event, ActiveSessionChanged):
            return
        offer, self._offer_assistants = self._offer_assistants, False
        if offer and event.session_id is None and self.window.isVisible():
            menu = self.assistants.offer_for_new_chat(self.window.sidebar.new_chat_button)
            menu.aboutToHide.connect(self.window.focus_composer)  # then type the message


class _Emitted:
    """Whether one of ``signals`` was emitted, awaited with a timeout."""

    def __init__(self, *signals: SignalInstance) -> None:
        self._signals = signals
        self._future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        for signal in signals:
            signal.connect(self._on_emitted)

    def _on_emitted(self, *_args: object) -> None:
        if not self._future.done():
            self._future.set_result(None)

    async def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for an emission (then stop listening)."""
        try:
            await asyncio.wait_for(self._future, timeout)
            return True
        except TimeoutError:
            logger.info("Start-up went on after waiting %s s for %s", timeout, self._signals)
            return False
        finally:
            self.close()

    def close(self) -> None:
        """Stop listening."""
        signals, self._signals = self._signals, ()
        for signal in signals:
            with contextlib.suppress(RuntimeError):  # its object is gone (closing)
                signal.disconnect(self._on_emitted)


def _template_names() -> list[str]:
    """The saved context templates (the assistant editor's choice)."""
    from desktop_agent.app._template_library import TemplateLibrary  # loads the context core

    try:
        return TemplateLibrary().names()
    except OSError:
        return []


def _make_chat_view(conversation: Conversation) -> ChatView:
    return ChatView(conversation)
