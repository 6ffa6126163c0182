"""The lossless JSON export: a versioned document of conversations.

One export file holds one or more conversations::

    {"format": "desktop-agent.conversations", "schema_version": 1,
     "app_version": "0.1.0", "exported": "2026-...",
     "conversations": [{
         "id": <session id>, "title", "title_is_custom", "created", "updated", "model",
         "messages": [<Msg dict>, ...],     # the conversation as shown, oldest first
         "marks": {<msg id>: [<mark>, ...]},  # memory marks, only where there are some
         "state": {"agent": {...}, ...},    # every saved part, the memory's messages lifted out
         "branches": []                     # reserved (see below)
     }]}

The design decision: the session's saved parts are carried whole (``state``), with only
the memory's message list lifted out into ``messages`` so that the file reads as a chat,
and media inlined as base64 sources so the file stands alone. Import puts them back, so
export → import → export gives the same document (ids and the export time aside).

Conversation versions (issue 13) are saved as their own part (``"versions"``, the
``ConversationTree`` state), so they travel losslessly inside ``state``. ``branches`` is
reserved for a readable, flattened form of them (each ``{"id", "parent_message_id",
"messages": [...]}``) for other tools; this version writes ``[]`` and a reader of schema 1
ignores it. A newer ``schema_version`` is refused, not guessed at.
"""

from __future__ import annotations

import base64
import mimetypes
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from desktop_agent._version import __version__
from desktop_agent.app.library._meta import find_conversation

EXPORT_FORMAT = "desktop-agent.conversations"
EXPORT_SCHEMA_VERSION = 1
META_FIELDS = ("title", "title_is_custom", "created", "updated", "model")
_MEDIA_TYPES = ("image", "audio", "video")


def new_document(conversations: list[dict[str, Any]]) -> dict[str, Any]:
    """An export document around ``conversations`` (see the module docstring)."""
    return {
        "format": EXPORT_FORMAT,
        "schema_version": EXPORT_SCHEMA_VERSION,
        "app_version": __version__,
        "exported": datetime.now(UTC).isoformat(timespec="seconds"),
        "conversations": conversations,
    }


def conversation_from_parts(session_id: str, parts: dict[str, Any]) -> dict[str, Any]:
    """One exported conversation from a session's saved parts (not modified).

    Blob files and other local media files are read and inlined as base64.
    """
    meta = parts.get("meta") if isinstance(parts.get("meta"), dict) else {}
    assert isinstance(meta, dict)
    state = {name: value for name, value in parts.items() if name != "meta"}
    entries = find_conversation(state)
    messages, marks = [], {}
    for entry in entries:
        message = entry[0] if isinstance(entry, list) else entry
        if not isinstance(message, dict):
            continue
        messages.append(inline_media(message))
        if isinstance(entry, list) and len(entry) > 1 and entry[1]:
            marks[str(message.get("id"))] = list(entry[1])
    conversation: dict[str, Any] = {"id": session_id}
    for name in META_FIELDS:
        conversation[name] = meta.get(name, False if name == "title_is_custom" else "")
    conversation["messages"] = messages
    conversation["marks"] = marks
    conversation["state"] = inline_media(_without_messages(state))
    conversation["branches"] = []
    return conversation


def parts_from_conversation(conversation: dict[str, Any]) -> dict[str, Any]:
    """The saved parts (``"meta"`` excluded) an exported conversation stands for."""
    state = dict(conversation.get("state") or {})
    marks = conversation.get("marks") or {}
    content = [
        [message, list(marks.get(str(message.get("id")), []))]
        for message in conversation["messages"]
    ]
    holder = memory_holder(state)
    if holder is None:
        agent = dict(state.get("agent") or {})
        agent["memory"] = {"_compressed_summary": "", "content": content}
        state["agent"] = agent
        return state
    name, key = holder
    part = dict(state[name])
    if key is None:
        part["content"] = content
    else:
        part[key] = {**part[key], "content": content}
    state[name] = part
    return state


def memory_holder(state: dict[str, Any]) -> tuple[str, str | None] | None:
    """Where the memory is: ``(part, "memory")`` for an agent, ``(part, None)`` for a
    memory saved on its own; ``None`` if there is no memory (same order as the library)."""
    for name, part in state.items():
        if isinstance(part, dict) and isinstance(part.get("memory"), dict):
            return name, "memory"
    for name, part in state.items():
        if isinstance(part, dict) and "_compressed_summary" in part and "content" in part:
            return name, None
    return None


def _without_messages(state: dict[str, Any]) -> dict[str, Any]:
    holder = memory_holder(state)
    if holder is None:
        return dict(state)
    name, key = holder
    part = dict(state[name])
    if key is None:
        part.pop("content", None)
    else:
        part[key] = {k: v for k, v in part[key].items() if k != "content"}
    return {**state, name: part}


# -- media -------------------------------------------------------------------------------


def inline_media(value: Any) -> Any:
    """``value`` with every local-file media source replaced by a base64 source (a copy
    where something changed). Web URLs and unreadable files are kept as they are."""
    if isinstance(value, list):
        return [inline_media(item) for item in value]
    if not isinstance(value, dict):
        return value
    if value.get("type") in _MEDIA_TYPES and isinstance(value.get("source"), dict):
        return {**value, "source": _inlined_source(value["source"])}
    return {key: inline_media(item) for key, item in value.items()}


def _inlined_source(source: dict[str, Any]) -> dict[str, Any]:
    path = local_path(source)
    if path is None:
        return source
    try:
        raw = path.read_bytes()
    except OSError:
        return source
    media_type = source.get("media_type") or mimetypes.guess_type(path.name)[0]
    return {
        "type": "base64",
        "media_type": media_type or "application/octet-stream",
        "data": base64.b64encode(raw).decode("ascii"),
    }


def local_path(source: dict[str, Any]) -> Path | None:
    """The local file a ``url`` source points at (a path or ``file://``), if any."""
    url = source.get("url")
    if source.get("type") != "url" or not isinstance(url, str):
        return None
    if url.startswith("file://"):
        url = url[len("file://") :]
    elif "://" in url or url.startswith("data:"):
        return None
    path = Path(url)
    return path if path.is_absolute() else None


def iter_conversations(document: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The conversations of an export document."""
    yield from document.get("conversations", [])
