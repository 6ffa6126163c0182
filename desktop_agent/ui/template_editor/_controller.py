"""Opens the template editor for the active conversation's ``InputModule``.

The editor is bound to one ``InputModule`` object. Opening another session (or a new
chat) gives the chat service another one, so :meth:`TemplateEditorController.open`
replaces an editor bound to a module that is no longer active, and
:meth:`TemplateEditorController.session_changed` closes it at the switch: the editor's
own close asks what to do with unapplied changes, which are applied to the session
they were made for (that session is saved on Apply) or discarded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from desktop_agent.ui._qt_async import TaskSet

if TYPE_CHECKING:
    from desktop_agent.app import ChatService
    from desktop_agent.context import ContextConfig, InputModule
    from desktop_agent.ui.template_editor._window import TemplateEditorWindow


class TemplateEditorController(QObject):
    """Owns the (at most one) template editor window of the main window.

    Args:
        service: The chat service whose ``input_module`` the editor edits.
        parent: The main window (the editor is its own top-level window).
    """

    def __init__(self, service: ChatService, parent: QWidget) -> None:
        super().__init__(parent)
        self._service = service
        self._parent = parent
        self._tasks = TaskSet()
        self.editor: TemplateEditorWindow | None = None

    def open(self) -> TemplateEditorWindow:
        """Show the editor for the active conversation (creating it if needed)."""
        module = self._service.input_module
        if self.editor is None or self.editor.input_module is not module:
            self._discard_editor()
            self.editor = self._make_editor(module)
        self.editor.show()
        self.editor.raise_()
        self.editor.activateWindow()
        return self.editor

    def session_changed(self, _event: object = None) -> None:
        """The active conversation changed: an open editor of the old one is closed."""
        editor = self.editor
        if editor is not None and editor.input_module is not self._service.input_module:
            editor.close()

    def _make_editor(self, module: InputModule) -> TemplateEditorWindow:
        # Loaded on first use: the editor pulls in the session library (~70 ms before the
        # window's first paint otherwise).
        from desktop_agent.ui.template_editor._window import TemplateEditorWindow

        service = self._service
        editor = TemplateEditorWindow(
            module,
            memory_provider=lambda: service.memory,
            variables_provider=self._build_variables,
            on_applied=lambda config: self._applied(module, config),
            parent=self._parent,
        )
        editor.closed.connect(self._back_to_the_chat)
        return editor

    def _back_to_the_chat(self) -> None:
        """The editor closed: typing goes to the main window's message field again."""
        self._parent.activateWindow()
        focus = getattr(self._parent, "focus_composer", None)
        if callable(focus):
            focus()

    def _build_variables(self) -> dict[str, Any]:
        # The values ReActAgent passes to build_messages.
        state = self._service.agent_state
        return {"agent_name": state.name, "sys_prompt": state.sys_prompt}

    def _applied(self, module: InputModule, config: ContextConfig) -> None:
        # The editor has loaded the config into `module`; save the session it belongs to.
        if module is self._service.input_module:
            self._tasks.spawn(self._service.apply_template(config), "apply-template")

    def _discard_editor(self) -> None:
        editor, self.editor = self.editor, None
        if editor is not None:
            editor.reload_from_session()
            editor.close()
            editor.deleteLater()

    async def aclose(self) -> None:
        """Cancel a save still running (app shutdown)."""
        await self._tasks.cancel_all()
