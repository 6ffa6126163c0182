"""``ChatResponse`` and ``ChatUsage``: dataclasses that are also dicts.

A streaming model yields ``ChatResponse``s whose ``content`` is cumulative: each one
holds everything received so far, not a delta.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
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
    """One (possibly partial, cumulative) answer of a chat model."""

    content: Sequence[TextBlock | ToolUseBlock | ThinkingBlock | AudioBlock]
    id: str = field(default_factory=timestamp_id)
    created_at: str = field(default_factory=timestamp_now)
    type: Literal["chat"] = field(default="chat")
    usage: ChatUsage | None = field(default=None)
    metadata: dict[str, Any] | None = field(default=None)
