"""The conversation a build works on, split at the current user message.

``history`` is what came before the current user message, ``current`` is that message,
and ``tail`` is what followed it in this turn (the agent's tool calls and their results,
hints). Keeping the three apart is what lets a template place the history at the
``chat_history`` module and the turn at the module rendering ``current_user_input``
without repeating or reordering a message.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from desktop_agent.message import Msg

MEDIA_BLOCK_TYPES = ("image", "audio", "video")


@dataclass(frozen=True)
class Conversation:
    """A conversation split at its current user message."""

    history: list[Msg] = field(default_factory=list)
    current: Msg | None = None
    tail: list[Msg] = field(default_factory=list)
    messages: list[Msg] = field(default_factory=list)

    @property
    def turn(self) -> list[Msg]:
        """The conversation's messages from the current user message on ([] if it has none)."""
        return self.messages[len(self.history) :]


def split_conversation(
    messages: list[Msg], explicit: Msg | None, skip_ids: Collection[str]
) -> Conversation:
    """Split ``messages`` at the current user message.

    Args:
        messages: The conversation, oldest first.
        explicit: The input given for this build. When it is one of ``messages`` (same
            id) the split is there; otherwise it is a new message and everything in
            ``messages`` is history.
        skip_ids: Ids of messages that are never the current user message (hints, the
            compressed summary).
    """
    if explicit is not None:
        index = _index_of(messages, explicit.id)
        if index is None:
            return Conversation(history=list(messages), current=explicit, messages=messages)
    else:
        index = current_user_index(messages, skip_ids)
        if index is None:
            return Conversation(history=list(messages), messages=messages)
    return Conversation(
        history=messages[:index],
        current=messages[index],
        tail=messages[index + 1 :],
        messages=messages,
    )


def _index_of(messages: Sequence[Msg], msg_id: str) -> int | None:
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].id == msg_id:
            return index
    return None


def current_user_index(messages: Sequence[Msg], skip_ids: Collection[str]) -> int | None:
    """The index of the current user message, or ``None``.

    That is the first message of the latest run of consecutive user messages that are
    not in ``skip_ids`` and carry no tool result. An agent adds what it retrieved for
    the input (long-term memory, knowledge) as user messages right after it, so those
    belong to the turn, not to the input.
    """
    index = len(messages) - 1
    while index >= 0 and not _is_user_input(messages[index], skip_ids):
        index -= 1
    if index < 0:
        return None
    while index > 0 and _is_user_input(messages[index - 1], skip_ids):
        index -= 1
    return index


def _is_user_input(msg: Msg, skip_ids: Collection[str]) -> bool:
    if msg.role != "user" or msg.id in skip_ids:
        return False
    return not (isinstance(msg.content, list) and msg.has_content_blocks("tool_result"))


def media_blocks(msg: Msg | None) -> list[dict[str, object]]:
    """The image, audio and video blocks of ``msg``, in order."""
    if msg is None or isinstance(msg.content, str):
        return []
    return [block for block in msg.content if block.get("type") in MEDIA_BLOCK_TYPES]


def message_text(msg: Msg | None) -> str:
    """The text of a message ("" for none)."""
    if msg is None:
        return ""
    return msg.get_text_content() or ""


def message_line(msg: Msg) -> str:
    """One message as ``"name: text"``; tool calls, results and media get short tags."""
    pieces = [piece for block in msg.get_content_blocks() if (piece := block_text(block))]
    return f"{msg.name}: {' '.join(pieces)}"


def conversation_text(messages: Iterable[Msg]) -> str:
    """Messages as ``"name: text"`` lines (:func:`message_line` each).

    Joined once: a 20 MB answer is copied once per prompt, not once per line and again
    for the whole (each copy stalled the window's next turn ~10 ms).
    """
    parts: list[str] = []
    for msg in messages:
        if parts:
            parts.append("\n")
        parts += (msg.name, ": ")
        pieces = [piece for block in msg.get_content_blocks() if (piece := block_text(block))]
        for number, piece in enumerate(pieces):
            if number:
                parts.append(" ")
            parts.append(piece)
    return "".join(parts)


def block_text(block: Mapping[str, Any]) -> str:
    """One content block as the text a model (or a preview) reads; thinking is ``""``."""
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", ""))
    if kind == "tool_use":
        arguments = json.dumps(block.get("input", {}), ensure_ascii=False, default=str)
        return f"[tool call {block.get('name')}({arguments})]"
    if kind == "tool_result":
        return f"[tool result {block.get('name')}: {_tool_output_text(block.get('output'))}]"
    if kind in MEDIA_BLOCK_TYPES:
        return f"[{kind}]"
    return ""  # thinking is never shown back to a model


def _tool_output_text(output: object) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return " ".join(piece for block in output if (piece := block_text(block)))
    return ""


def as_input_msg(value: object) -> Msg | None:
    """A build's explicit input as a message: a ``str`` becomes a user message.

    Raises:
        TypeError: ``value`` is neither ``None``, a ``str`` nor a ``Msg``.
    """
    if value is None or isinstance(value, Msg):
        return value
    if isinstance(value, str):
        return Msg("user", value, "user")
    raise TypeError(f"user_input must be a str or a Msg, got {type(value).__name__}.")


def value_text(value: Any) -> str:
    """A variable's value as text: messages by their text, ``None`` as ""."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, Msg):
        return message_text(value)
    if isinstance(value, list | tuple) and all(isinstance(item, Msg) for item in value):
        return conversation_text(value)
    return str(value)
