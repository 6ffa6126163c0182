"""The context template editor: edit an ``InputModule``'s template with a live preview.

Open it for the active session's input module; it is non-modal and changes the session
only on Apply::

    editor = TemplateEditorWindow(
        agent.input_module,
        memory_provider=lambda: agent.memory,
        variables_provider=lambda: {"agent_name": agent.name, "sys_prompt": agent.sys_prompt},
        on_applied=lambda config: autosaver.changed(),
        parent=main_window,
    )
    editor.show()

Inside: a Qt-free :class:`TemplateDocument` (the draft) changed only through undoable
edits, thin Qt views over it, and a preview built asynchronously on the running loop.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from desktop_agent.ui.template_editor._controller import TemplateEditorController

if TYPE_CHECKING:
    from desktop_agent.ui.template_editor._document import (
        DraftModule,
        DraftSegment,
        TemplateDocument,
    )
    from desktop_agent.ui.template_editor._faults import Fault
    from desktop_agent.ui.template_editor._preview import Preview, PreviewMessage, build_preview
    from desktop_agent.ui.template_editor._window import TemplateEditorWindow

__all__ = [
    "DraftModule",
    "DraftSegment",
    "Fault",
    "Preview",
    "PreviewMessage",
    "TemplateDocument",
    "TemplateEditorController",
    "TemplateEditorWindow",
    "build_preview",
]

_LAZY = {
    "DraftModule": "_document",
    "DraftSegment": "_document",
    "Fault": "_faults",
    "Preview": "_preview",
    "PreviewMessage": "_preview",
    "TemplateDocument": "_document",
    "TemplateEditorWindow": "_window",
    "build_preview": "_preview",
}


def __getattr__(name: str) -> Any:
    """The editor itself loads on first use (it pulls in the session library): the main
    window needs only the controller before its first paint."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
