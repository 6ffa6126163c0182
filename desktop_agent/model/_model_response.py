"""``ChatResponse`` and ``ChatUsage``: dataclasses that are also dicts.

A streaming model yields ``ChatResponse``s whose ``content`` is cumulative: each one
holds everything received so far, not a delta.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from desktop_agent._utils import DictMixin, timestamp_id, timestamp_now
from desktop_agent.message import AudioBlock, TextBlock, ThinkingBlock, ToolUseBlock


@dataclass
class ChatUsage(DictMixin):
    """Token usage of one model call; ``time`` is seconds since the request started."""

    input_tokens: int
    output_tokens: int
    time: float
    type: Literal["chat"] = field(default="chat")
    metadata: dict[str, Any] | None = field(default=None)


@dataclass
class ChatResponse(DictMixin):
    """One (possibly partial, cumulative) answer of a chat model.

    ``finish_reason`` (not in AgentScope) says why the model stopped: ``"stop"``,
    ``"length"`` (the output token limit), ``"tool_calls"``, ``"content_filter"``, or
    ``None`` — still streaming, or a stream that ended without saying (the connection was
    closed early: the answer is incomplete).
    """

    content: Sequence[TextBlock | ToolUseBlock | ThinkingBlock | AudioBlock]
    id: str = field(default_factory=timestamp_id)
    created_at: str = field(default_factory=timestamp_now)
    type: Literal["chat"] = field(default="chat")
    usage: ChatUsage | None = field(default=None)
    metadata: dict[str, Any] | None = field(default=None)
    finish_reason: str | None = field(default=None)


def _drop_class_defaults(cls: type) -> None:
    """Remove the class attributes ``@dataclass`` leaves for defaulted fields.

    ``DictMixin`` reads fields through ``__getattr__``, which Python only calls when
    normal lookup fails: a class attribute ``usage = None`` would shadow the value
    stored in the dict, so ``resp.usage`` would always be ``None``. The generated
    ``__init__`` keeps its own copy of the defaults.
    """
    for item in fields(cls):
        if item.name in cls.__dict__:
            delattr(cls, item.name)


_drop_class_defaults(ChatUsage)
_drop_class_defaults(ChatResponse)
