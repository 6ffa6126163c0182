"""Small helpers shared by the template editor tests."""

from __future__ import annotations

import json
from typing import Any

from desktop_agent.ui.template_editor import TemplateEditorWindow


def json_view(editor: TemplateEditorWindow) -> Any:
    """What the JSON tab's text says."""
    return json.loads(editor.json_tab.editor.toPlainText())


def type_json(editor: TemplateEditorWindow, data: Any | str) -> None:
    """Replace the JSON tab's text and check it at once (as after the typing pause)."""
    text = data if isinstance(data, str) else json.dumps(data, indent=2)
    editor.json_tab.editor.setPlainText(text)
    editor.json_tab.commit_now()


def names(editor: TemplateEditorWindow) -> list[str]:
    """The module names the list view shows, in order."""
    model = editor.list_model
    return [str(model.index(row).data()).split("\n")[0] for row in range(model.rowCount())]


def module_index(editor: TemplateEditorWindow, name: str) -> int:
    """The position of the module ``name``."""
    return editor.document.module_names().index(name)
