"""ChatGPT's data export (``conversations.json``) to our saved agent state.

A ChatGPT conversation is a message *tree* (``mapping``: node id → ``{message, parent,
children}``) with ``current_node`` the leaf the user last saw. The path from the root to
that leaf is what the user knew as the conversation; it becomes the chat. Other branches
(regenerated answers, edited prompts) are counted and reported as left out: sessions have
no versions yet (issue 13); they will map onto them.

Hidden nodes (the empty root, system and context messages the UI hides, custom
instructions) are left out; code and tool output become fenced text; images are only
pointers to files outside ``conversations.json`` and are reported, not invented.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from desktop_agent._i18n import translate
from desktop_agent.app._agent_state import AGENT_NAME

_HIDDEN_TYPES = frozenset({"user_editable_context", "model_editable_context"})
_Converted = tuple[dict[str, Any], dict[str, Any], list[str]]


def looks_like_chatgpt(value: Any) -> bool:
    """A list of conversations (or one) with ``mapping`` trees."""
    items = value if isinstance(value, list) else [value]
    return any(
        isinstance(item, dict) and isinstance(item.get("mapping"), dict) for item in items[:50]
    )


def chatgpt_conversation(item: Any) -> _Converted | str:
    """``(meta, parts, notes)`` for one ChatGPT conversation, or why it is skipped."""
    if not isinstance(item, dict) or not isinstance(item.get("mapping"), dict):
        return translate("ImportReport", "it has no message tree ('mapping')")
    mapping: dict[str, Any] = item["mapping"]
    path = _current_path(mapping, item.get("current_node"))
    if path is None:
        return translate(
            "ImportReport", "its message tree is broken (a parent is missing or it loops)"
        )
    entries, notes, skipped_images = [], [], 0
    for node_id in path:
        message = (mapping.get(node_id) or {}).get("message")
        converted = _message(message) if isinstance(message, dict) else None
        if converted is None:
            continue
        msg, images = converted
        skipped_images += images
        entries.append([msg, []])
    if not entries:
        return translate("ImportReport", "it has no visible messages")
    with_message = {k for k, n in mapping.items() if isinstance(n, dict) and n.get("message")}
    other = len(with_message - set(path))
    if other > 0:
        notes.append(
            translate(
                "ImportReport",
                "{count} messages on other branches left out (versions are not kept yet)",
            ).format(count=other)
        )
    if skipped_images:
        notes.append(
            translate(
                "ImportReport",
                "{count} images left out (the export holds only pointers to them)",
            ).format(count=skipped_images)
        )
    meta = {
        "title": str(item.get("title") or "") or "ChatGPT conversation",
        "title_is_custom": bool(item.get("title")),
        "created": _iso(item.get("create_time")) or _first_time(entries),
        "updated": _iso(item.get("update_time")) or _iso(item.get("create_time")),
        "model": str(item.get("default_model_slug") or _model_of(entries)),
    }
    memory = {"_compressed_summary": "", "content": entries}
    return meta, {"agent": {"memory": memory, "name": AGENT_NAME}}, notes


def _current_path(mapping: dict[str, Any], current: Any) -> list[str] | None:
    """Node ids from the root to ``current`` (or to the newest leaf if it is unknown)."""
    if current not in mapping:
        current = _newest_leaf(mapping)
    if current is None:
        return []
    path: list[str] = []
    seen: set[str] = set()
    node_id: Any = current
    while node_id is not None:
        if node_id in seen or node_id not in mapping or not isinstance(mapping[node_id], dict):
            return None
        seen.add(node_id)
        path.append(node_id)
        node_id = mapping[node_id].get("parent")
    path.reverse()
    return path


def _newest_leaf(mapping: dict[str, Any]) -> str | None:
    leaves = [
        (float(_time_of(node) or 0), node_id)
        for node_id, node in mapping.items()
        if isinstance(node, dict) and not node.get("children")
    ]
    return max(leaves)[1] if leaves else None


def _time_of(node: dict[str, Any]) -> Any:
    message = node.get("message")
    return message.get("create_time") if isinstance(message, dict) else None


def _message(message: dict[str, Any]) -> tuple[dict[str, Any], int] | None:
    """Our Msg dict and the number of images left out; ``None`` for hidden messages."""
    metadata = message.get("metadata") if isinstance(message.get("metadata"), dict) else {}
    assert isinstance(metadata, dict)
    content = message.get("content") if isinstance(message.get("content"), dict) else {}
    assert isinstance(content, dict)
    kind = content.get("content_type")
    if metadata.get("is_visually_hidden_from_conversation") or kind in _HIDDEN_TYPES:
        return None
    author = message.get("author") if isinstance(message.get("author"), dict) else {}
    assert isinstance(author, dict)
    role = author.get("role")
    text, images = _text(content)
    if not text.strip() or role not in ("user", "assistant", "tool"):
        return None
    blocks: list[dict[str, Any]] = [{"type": "text", "text": text}]
    if kind == "thoughts":
        blocks = [{"type": "thinking", "thinking": text}]
    msg = {
        "id": str(message.get("id") or ""),
        "name": "user" if role == "user" else str(author.get("name") or AGENT_NAME),
        "role": "user" if role == "user" else "assistant",
        "content": blocks,
        "metadata": {"model": metadata["model_slug"]} if metadata.get("model_slug") else {},
        "timestamp": _local_stamp(message.get("create_time")),
    }
    return msg, images


def _text(content: dict[str, Any]) -> tuple[str, int]:
    kind = content.get("content_type")
    if kind in ("text", "multimodal_text"):
        parts = content.get("parts") if isinstance(content.get("parts"), list) else []
        assert isinstance(parts, list)
        texts = [p for p in parts if isinstance(p, str)]
        images = sum(1 for p in parts if isinstance(p, dict))
        return "\n\n".join(t for t in texts if t), images
    if kind == "code":
        language = str(content.get("language") or "")
        language = "" if language == "unknown" else language
        return f"```{language}\n{content.get('text', '')}\n```", 0
    if kind == "execution_output":
        return f"```text\n{content.get('text', '')}\n```", 0
    if kind == "thoughts":
        thoughts = content.get("thoughts") if isinstance(content.get("thoughts"), list) else []
        assert isinstance(thoughts, list)
        return "\n\n".join(str(t.get("content", "")) for t in thoughts if isinstance(t, dict)), 0
    text = content.get("text")
    return (text if isinstance(text, str) else ""), 0


def _iso(epoch: Any) -> str:
    if not isinstance(epoch, (int, float)) or isinstance(epoch, bool):
        return ""
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds")


def _local_stamp(epoch: Any) -> str:
    """AgentScope's timestamp format (local time); now if the message has no time."""
    moment = (
        datetime.fromtimestamp(epoch)
        if isinstance(epoch, (int, float)) and not isinstance(epoch, bool)
        else datetime.now()
    )
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def _first_time(entries: list[list[Any]]) -> str:
    stamp = entries[0][0].get("timestamp", "")
    try:
        return datetime.fromisoformat(stamp).astimezone(UTC).isoformat(timespec="milliseconds")
    except ValueError:
        return ""


def _model_of(entries: list[list[Any]]) -> str:
    for entry in reversed(entries):
        model = entry[0].get("metadata", {}).get("model")
        if model:
            return str(model)
    return ""
