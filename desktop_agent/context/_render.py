"""A built prompt before it is text or messages: an ordered list of parts.

A build produces :class:`ModulePart` s (a module's rendered text, with the current
user message's media when the module stands for it) and :class:`ConversationPart` s
(memory messages, passed through untouched). ``build_prompt`` joins the parts as text;
``build_messages`` merges neighbouring module parts of the same role into one ``Msg``
and keeps every conversation message as it is, so tool calls and results stay intact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from desktop_agent.context._conversation import Conversation, conversation_text, media_blocks
from desktop_agent.message import Msg

Role = Literal["system", "user", "assistant"]


@dataclass
class ModulePart:
    """A template module rendered: its role, speaker name, text and media blocks."""

    role: Role
    name: str
    text: str
    blocks: list[Any] = field(default_factory=list)


@dataclass
class ConversationPart:
    """Messages from the conversation, kept as they are."""

    messages: list[Msg]


Part = ModulePart | ConversationPart


def parts_to_text(parts: Sequence[Part]) -> str:
    """The parts as one text, separated by blank lines (empty parts left out)."""
    chunks = (
        part.text if isinstance(part, ModulePart) else conversation_text(part.messages)
        for part in parts
    )
    return "\n\n".join(chunk for chunk in chunks if chunk.strip())


def parts_to_messages(parts: Sequence[Part]) -> list[Msg]:
    """The parts as chat messages; neighbouring module parts of one role are merged."""
    messages: list[Msg] = []
    group: list[ModulePart] = []
    for part in parts:
        if isinstance(part, ModulePart) and not part.text.strip() and not part.blocks:
            continue  # an empty module neither speaks nor splits a merge
        if isinstance(part, ModulePart) and (not group or group[0].role == part.role):
            group.append(part)
            continue
        messages.extend(_merge(group))
        group = [part] if isinstance(part, ModulePart) else []
        if isinstance(part, ConversationPart):
            messages.extend(part.messages)
    messages.extend(_merge(group))
    return messages


def _merge(group: Sequence[ModulePart]) -> list[Msg]:
    texts = [part.text for part in group if part.text.strip()]
    blocks = [block for part in group for block in part.blocks]
    if not texts and not blocks:
        return []
    content: list[Any] = [{"type": "text", "text": "\n\n".join(texts)}] if texts else []
    content.extend(blocks)
    name = next((part.name for part in group if part.blocks), group[0].name)
    return [Msg(name=name, content=content, role=group[0].role)]


def turn_parts(included: bool, parts: Sequence[Part], conversation: Conversation) -> list[Part]:
    """The input module's parts: the module standing for the current message, then the turn.

    Args:
        included: Whether the input module was included in this build.
        parts: The input module's own parts.
        conversation: The split conversation.
    """
    if not included:
        return [ConversationPart(conversation.turn)] if conversation.turn else []
    placed = list(parts)
    current = conversation.current
    for part in placed:
        if isinstance(part, ModulePart) and current is not None:
            part.blocks = media_blocks(current)
            part.name = current.name if part.role == "user" else part.name
    if conversation.tail:
        placed.append(ConversationPart(list(conversation.tail)))
    return placed
