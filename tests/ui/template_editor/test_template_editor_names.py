"""The built-in variables' and functions' descriptions are marked for translation (issue 21).

The engine describes them by docstrings, which lupdate cannot read; the editor lists them
in ``_names``. A docstring changed without the list would silently stay English.
"""

from __future__ import annotations

from desktop_agent.context import InputModule
from desktop_agent.ui.template_editor import TemplateEditorWindow
from desktop_agent.ui.template_editor._names import BUILTIN_DESCRIPTIONS, translated


def test_every_builtin_description_is_marked_for_translation() -> None:
    module = InputModule()
    described = {**module.known_variables(), **module.known_importance_funcs()}
    unmarked = {name: text for name, text in described.items() if text not in BUILTIN_DESCRIPTIONS}
    assert not unmarked, f"add these to template_editor/_names.py: {unmarked}"


def test_a_plugins_description_is_shown_as_written(editor: TemplateEditorWindow) -> None:
    assert translated({"weather": "Today's weather report."}) == {
        "weather": "Today's weather report."
    }
    assert editor.form.segments.variables()["weather"] == "Today's weather report."
