"""The assistant picker in the chat header: which assistant this chat talks to.

Choosing one makes the chat's agent that assistant (its name and system prompt, saved with
the chat) and switches to its model if it names one; a new chat starts with the assistant
chosen last; opening a chat shows the assistant it was saved with.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtWidgets import QComboBox, QWidget

from desktop_agent.app import ChatService, Settings
from desktop_agent.app._assistants import Assistant, AssistantLibrary, apply_to_state
from desktop_agent.app._session_switcher import ActiveSessionChanged
from desktop_agent.ui._qt_async import TaskSet
from desktop_agent.ui.window._assistant_editor import AssistantEditor

EDIT_ITEM = "\x00edit"


class AssistantPicker(QComboBox):
    """A combo box of the assistants ("💻 Coder")."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("assistantPicker")
        self.setToolTip("The assistant of this chat: its instructions and default model")
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)

    def show_assistants(self, assistants: list[Assistant], current: str) -> None:
        """List ``assistants`` with ``current`` (an id) selected."""
        self.blockSignals(True)
        self.clear()
        for assistant in assistants:
            self.addItem(assistant.label, assistant.id)
        self.insertSeparator(self.count())
        self.addItem("Edit assistants…", EDIT_ITEM)
        self.setCurrentIndex(max(0, self.findData(current)))
        self.blockSignals(False)


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
        self.current = "general"
        """The assistant of the chat shown."""
        self.last_chosen = "general"
        """The assistant a new chat starts with."""
        picker.show_assistants(library.all(), self.current)
        picker.activated.connect(self._on_activated)

    def choose(self, assistant_id: str) -> None:
        """Make the chat talk to ``assistant_id``."""
        assistant = self.library.get(assistant_id)
        if assistant is None:
            return
        self.current = self.last_chosen = assistant.id
        apply_to_state(assistant, self.service.agent_state)
        if assistant.model:
            self._choose_model(assistant.model)
        self._reconfigure()  # its temperature
        self.picker.show_assistants(self.library.all(), self.current)
        self._tasks.spawn(self._save(), "assistant-save")

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
        if event.session_id is None:
            self.current = self.last_chosen
            assistant = self.library.get(self.current)
            if assistant is not None and assistant.id != "general":
                apply_to_state(assistant, self.service.agent_state)
        else:
            state = self.service.agent_state
            found = self.library.of_state(state.name, state.sys_prompt)
            self.current = found.id if found else "general"
        self.picker.show_assistants(self.library.all(), self.current)
        self._reconfigure()

    async def aclose(self) -> None:
        """Wait for (or cancel) a save in progress."""
        await self._tasks.cancel_all()

    def _on_activated(self, index: int) -> None:
        data = self.picker.itemData(index)
        if data == EDIT_ITEM:
            self.picker.show_assistants(self.library.all(), self.current)
            self.open_editor()
            return
        self.choose(str(data))

    def open_editor(self) -> AssistantEditor:
        """Show the assistant editor; the picker follows its changes."""
        editor = AssistantEditor(self.library, self.current, self.picker.window())
        editor.changed.connect(
            lambda: self.picker.show_assistants(self.library.all(), self.current)
        )
        editor.finished.connect(editor.deleteLater)
        editor.open()
        self.editor = editor
        return editor
