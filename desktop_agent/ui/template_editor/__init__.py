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

from desktop_agent.ui.template_editor._controller import TemplateEditorController
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
