"""The built-in variables' and importance functions' descriptions, in the user's language.

The context engine describes each variable and importance function by the first line of
its docstring (English, in ``desktop_agent.context``); the editor shows those lines in its
pickers and captions. Docstrings cannot be marked for translation where they are written,
so the built-in ones are listed here: :func:`translated` shows them translated, and a
plug-in's own description as the plug-in wrote it. A test checks that this list matches
the engine's docstrings.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QCoreApplication

from desktop_agent._i18n import QT_TRANSLATE_NOOP

CONTEXT = "KnownNames"
BUILTIN_DESCRIPTIONS = (
    QT_TRANSLATE_NOOP(
        "KnownNames", 'The agent\'s name (passed by the agent; "Assistant" otherwise).'
    ),
    QT_TRANSLATE_NOOP(
        "KnownNames",
        "The conversation: the messages themselves when alone in a module, else lines.",
    ),
    QT_TRANSLATE_NOOP(
        "KnownNames", 'The local date and time, e.g. "Monday, 2025-09-01 14:30 CEST".'
    ),
    QT_TRANSLATE_NOOP("KnownNames", "The text of the current user message."),
    QT_TRANSLATE_NOOP(
        "KnownNames", "Retrieved knowledge for this input (empty unless passed or registered)."
    ),
    QT_TRANSLATE_NOOP(
        "KnownNames",
        "Long-term memories recalled for this input (empty unless passed or registered).",
    ),
    QT_TRANSLATE_NOOP(
        "KnownNames", 'Recent dialogue from the short-term memory, as "name: text" lines.'
    ),
    QT_TRANSLATE_NOOP(
        "KnownNames", "The agent's system prompt (passed by the agent; empty otherwise)."
    ),
    QT_TRANSLATE_NOOP("KnownNames", "Include the module when its variable content is not blank."),
    QT_TRANSLATE_NOOP(
        "KnownNames",
        "Include the module when its variable content shares a meaningful word with the input.",
    ),
)


def translated(descriptions: Mapping[str, str]) -> dict[str, str]:
    """``descriptions`` (name → description) with the built-in ones translated."""
    return {name: QCoreApplication.translate(CONTEXT, text) for name, text in descriptions.items()}
