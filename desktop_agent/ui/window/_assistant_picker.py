"""The assistant picker in the chat header: which assistant this chat talks to.

Choosing one makes the chat's agent that assistant: its name and system prompt, its
context template (if it names one), only the tools it has on, and its model if it names
one; the chat's setup records it (saved with the session). A new chat starts with the
assistant chosen last — and "New chat" offers the assistants in a small menu whose
default (that one) is a keypress away; opening a chat shows the assistant it was saved
with.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QCoreApplication, QPoint, Qt, Signal
from PySide6.QtWidgets import QComboBox, QMenu, QWidget
from shiboken6 import isValid

from desktop_agent._logging import logger
from desktop_agent.app import ChatService, Settings
from desktop_agent.app._agent_state import AgentState
from desktop_agent.app._assistants import Assistant, AssistantLibrary, apply_to_state
from desktop_agent.app._session_switcher import ActiveSessionChanged
from desktop_agent.ui._qt_async import TaskSet
from desktop_agent.ui.window._assistant_editor import AssistantEditor

EDIT_ITEM = "\x00edit"
DEFAULT_ASSISTANT = "general"


class AssistantPicker(QComboBox):
    """A combo box of the assistants ("💻 Coder")."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("assistantPicker")
        self.setToolTip(
            QCoreApplication.translate(
                "AssistantPicker",
                "The assistant of this chat: its instructions, tools and default model"
                " (Ctrl+Shift+A)",
            )
        )
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # a Tab stop (window.tab_stops)

    def show_assistants(self, assistants: list[Assistant], current: str) -> None:
        """List ``assistants`` with ``current`` (an id) selected."""
        self.blockSignals(True)
        self.clear()
        for assistant in assistants:
            self.addItem(assistant.label, assistant.id)
        self.insertSeparator(self.count())
        self.addItem(QCoreApplication.translate("AssistantPicker", "Edit assistants…"), EDIT_ITEM)
        self.setCurrentIndex(max(0, self.findData(current)))
        self.blockSignals(False)


class AssistantMenu(QMenu):
    """The assistants to start a new chat with; the default one active (Enter).

    Signals:
        chosen(str): An assistant's id.
    """

    chosen = Signal(str)

    def __init__(
        self, assistants: list[Assistant], default: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("assistantMenu")
        title = self.addAction(QCoreApplication.translate("AssistantMenu", "New chat with…"))
        title.setEnabled(False)
        for assistant in assistants:
            action = self.addAction(assistant.label)
            action.setData(assistant.id)
            action.triggered.connect(lambda _=False, i=assistant.id: self.chosen.emit(i))
            if assistant.id == default:
                self.setDefaultAction(action)  # shown bold
                self.setActiveAction(action)  # Enter picks it

    def show_under(self, widget: QWidget) -> None:
        """Pop up below ``widget``, the default assistant highlighted."""
        self.popup(widget.mapToGlobal(QPoint(0, widget.height())))
        default = self.defaultAction()
        if default is not None:
            self.setActiveAction(default)


class AssistantController:
    """Applies the picked assistant to the chat.

    Args:
        picker: The header combo box.
        library: The assistants.
        service: The chat service (its agent state is the chat's).
        choose_model: Switch the chat's model (the model picker's controller).
        save: Save the chat now (the session keeps the agent's name and prompt).
        reconfigure: Re-apply the settings to the chat (:meth:`settings_for_chat`).
    """

    def __init__(
        self,
        picker: AssistantPicker,
        library: AssistantLibrary,
        service: ChatService,
        choose_model: Callable[[str], None],
        save: Callable[[], Coroutine[Any, Any, None]],
        reconfigure: Callable[[], None],
    ) -> None:
        self.picker, self.library, self.service = picker, library, service
        self._choose_model, self._save = choose_model, save
        self._reconfigure = reconfigure
        self._tasks = TaskSet()
        self.editor: AssistantEditor | None = None
        self.menu: AssistantMenu | None = None
        self.current = DEFAULT_ASSISTANT
        """The assistant of the chat shown."""
        self.last_chosen = DEFAULT_ASSISTANT
        """The assistant a new chat starts with."""
        self.mcp_server_names: Callable[[], list[str]] = list
        """The configured MCP servers (the editor's checkboxes)."""
        self.template_names: Callable[[], list[str]] = list
        """The saved context templates (the editor's choice)."""
        picker.show_assistants(library.all(), self.current)
        picker.activated.connect(self._on_activated)

    def choose(self, assistant_id: str) -> None:
        """Make the chat talk to ``assistant_id``."""
        assistant = self.library.get(assistant_id)
        if assistant is None:
            return
        self.current = self.last_chosen = assistant.id
        state = self.service.agent_state
        apply_to_state(assistant, state)
        state.setup.assistant = assistant.id
        self.service.set_tool_selection(assistant.tool_selection())
        if assistant.model:
            self._choose_model(assistant.model)
        self._reconfigure()  # its temperature
        self.picker.show_assistants(self.library.all(), self.current)
        self._tasks.spawn(self._template_then_save(assistant, state), "assistant-save")

    def settings_for_chat(self, settings: Settings) -> Settings:
        """``settings`` with the chat's assistant's temperature, if it sets one."""
        assistant = self.library.get(self.current)
        if assistant is None or assistant.temperature is None:
            return settings
        return settings.model_copy(update={"temperature": assistant.temperature})

    def on_session(self, event: object) -> None:
        """A new chat gets the assistant chosen last; an opened one shows its own."""
        if not isinstance(event, ActiveSessionChanged):
            return
        state = self.service.agent_state
        if event.session_id is None:
            self.current = self.last_chosen
            assistant = self.library.get(self.current)
            if assistant is not None and assistant.id != DEFAULT_ASSISTANT:
                apply_to_state(assistant, state)
            if assistant is not None and assistant.template:
                self._tasks.spawn(self._template_then_save(assistant, state), "assistant-new")
            state.setup.assistant = self.current
        elif event.summary is None:
            return  # the chat just became a session (its first message): nothing changes
        else:
            saved = self.library.get(state.setup.assistant)
            found = saved or self.library.of_state(state.name, state.sys_prompt)
            self.current = found.id if found else DEFAULT_ASSISTANT
            state.setup.assistant = self.current  # (a session saved before the setup)
        assistant = self.library.get(self.current)
        self.service.set_tool_selection(assistant.tool_selection() if assistant else None)
        self.picker.show_assistants(self.library.all(), self.current)
        self._reconfigure()

    def offer_for_new_chat(self, anchor: QWidget) -> AssistantMenu:
        """Show "New chat with…" under ``anchor``; the choice applies to the (new) chat."""
        if self.menu is not None and isValid(self.menu):
            self.menu.deleteLater()  # the previous one (kept until now: its action may run)
        menu = AssistantMenu(self.library.all(), self.last_chosen, anchor.window())
        menu.chosen.connect(self.choose)
        self.menu = menu
        menu.show_under(anchor)
        return menu

    async def aclose(self) -> None:
        """Wait for (or cancel) a save in progress."""
        await self._tasks.cancel_all()

    async def _template_then_save(self, assistant: Assistant, state: AgentState) -> None:
        """Use the assistant's context template in the chat of ``state``, then save it."""
        if assistant.template:
            from desktop_agent.app._template_library import TemplateLibrary  # after first paint

            try:
                library = TemplateLibrary()
                config = await asyncio.to_thread(library.load, assistant.template)
                state.input_module.load_config(config)
            except Exception as exc:  # a template deleted or damaged since: keep the chat's
                logger.warning("The template %r of %s: %s", assistant.template, assistant.name, exc)
        if state is self.service.agent_state:
            await self._save()

    def _on_activated(self, index: int) -> None:
        data = self.picker.itemData(index)
        if data == EDIT_ITEM:
            self.picker.show_assistants(self.library.all(), self.current)
            self.open_editor()
            return
        self.choose(str(data))

    def open_editor(self) -> AssistantEditor:
        """Show the assistant editor; the picker follows its changes."""
        editor = AssistantEditor(
            self.library,
            self.current,
            self.picker.window(),
            mcp_servers=self.mcp_server_names(),
            templates=self.template_names(),
        )
        editor.changed.connect(self._library_changed)
        editor.finished.connect(editor.deleteLater)
        editor.open()
        self.editor = editor
        return editor

    def _library_changed(self) -> None:
        self.picker.show_assistants(self.library.all(), self.current)
        assistant = self.library.get(self.current)  # its tools may have changed
        self.service.set_tool_selection(assistant.tool_selection() if assistant else None)
