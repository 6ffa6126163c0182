"""``SessionMeta``: what the sidebar shows about a session, saved beside the agent.

It is a ``StateModule`` saved under the name ``"meta"``, first in the file, so the index
can be rebuilt from a short prefix of each file. Times are ISO 8601 in UTC with
milliseconds, so they sort as strings and any UI can show them in local time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from desktop_agent._i18n import translate
from desktop_agent.module import StateModule

SCHEMA_VERSION = 1
"""The session format this version writes; older ones are migrated on load."""

TITLE_MAX_CHARS = 60

META_DEFAULTS: dict[str, Any] = {
    "title": "",
    "created": "",
    "updated": "",
    "model": "",
    "message_count": 0,
    "schema_version": SCHEMA_VERSION,
    "title_is_custom": False,
}
"""The fields of a session's metadata (in the order saved) and their defaults."""

_FIELD_TYPES: dict[str, type] = {key: type(value) for key, value in META_DEFAULTS.items()}
_TYPE_WORDS = {str: "string", int: "whole number", bool: "true/false"}


def now_iso() -> str:
    """The current time, e.g. ``"2025-09-01T10:11:12.345+00:00"``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class SessionMeta(StateModule):
    """Title, times, model, message count and format version of a session."""

    def __init__(
        self,
        title: str = "",
        created: str = "",
        updated: str = "",
        model: str = "",
        message_count: int = 0,
        schema_version: int = SCHEMA_VERSION,
        title_is_custom: bool = False,
    ) -> None:
        """Create the metadata.

        Args:
            title: The title; empty until derived from the first user message.
            created: When the session was created (ISO 8601).
            updated: The last activity (ISO 8601).
            model: The model the session talks to.
            message_count: Messages in the agent's memory at the last save.
            schema_version: The session format version.
            title_is_custom: The user chose the title; it is never replaced then.
        """
        super().__init__()
        self.title = title
        self.created = created
        self.updated = updated
        self.model = model
        self.message_count = message_count
        self.schema_version = schema_version
        self.title_is_custom = title_is_custom
        for name in _FIELD_TYPES:
            self.register_state(name)

    @classmethod
    def from_state(cls, state: Any) -> SessionMeta:
        """Build metadata from a saved state, checking every field.

        Raises:
            ValueError: The state is not a dict or a field has the wrong type; the
                message names the field.
        """
        problem = meta_problem(state)
        if problem:
            raise ValueError(problem)
        meta = cls()
        meta.load_state_dict({k: state[k] for k in _FIELD_TYPES if k in state}, strict=False)
        return meta


def meta_problem(state: Any) -> str:
    """Why ``state`` is not valid metadata, or ``""`` if it is."""
    if not isinstance(state, dict):
        return translate("SessionLibrary", "its metadata is a {kind}, not an object").format(
            kind=type(state).__name__
        )
    for name, kind in _FIELD_TYPES.items():
        if name not in state:
            if name == "schema_version":
                return translate("SessionLibrary", "its metadata has no schema_version")
            continue
        value = state[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f"its metadata field {name!r} is not a {_TYPE_WORDS[kind]}"
    return ""


def title_from_text(text: str) -> str:
    """A title from a message: its first non-empty line, trimmed, at most 60 characters."""
    for line in text.splitlines():
        line = " ".join(line.split())
        if line:
            if len(line) <= TITLE_MAX_CHARS:
                return line
            return line[: TITLE_MAX_CHARS - 1].rstrip() + "…"
    return ""


def find_conversation(parts: dict[str, Any]) -> Sequence[Any]:
    """The saved memory's messages: ``[[msg_dict, marks], ...]`` or legacy msg dicts.

    Looks for an agent state with a ``"memory"`` (``{"content": [...]}``) first, then a
    memory state saved on its own.
    """
    for state in parts.values():
        if isinstance(state, dict):
            memory = state.get("memory")
            if isinstance(memory, dict) and isinstance(memory.get("content"), list):
                return memory["content"]
    for state in parts.values():
        if (
            isinstance(state, dict)
            and isinstance(state.get("content"), list)
            and "_compressed_summary" in state
        ):
            return state["content"]
    return []


def message_dict(item: Any) -> dict[str, Any] | None:
    """The message dict of a memory entry (``[msg, marks]`` or a legacy msg dict)."""
    if isinstance(item, list) and item and isinstance(item[0], dict):
        return item[0]
    if isinstance(item, dict):
        return item
    return None


def message_text(message: dict[str, Any]) -> str:
    """The text of a saved message: a string content, else its text blocks joined."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    texts = [
        block["text"]
        for block in content
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    ]
    return "\n".join(texts)


def title_from_conversation(conversation: Iterable[Any]) -> str:
    """The title the first user message gives, or ``""`` if there is none yet."""
    for item in conversation:
        message = message_dict(item)
        if message is not None and message.get("role") == "user":
            title = title_from_text(message_text(message))
            if title:
                return title
    return ""
