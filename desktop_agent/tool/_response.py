"""``ToolResponse``: one (cumulative) chunk of a tool's output."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from desktop_agent._utils import timestamp_id
from desktop_agent.message import AudioBlock, ImageBlock, TextBlock, VideoBlock


@dataclass
class ToolResponse:
    """A tool's output so far; streaming tools yield cumulative chunks, the last with ``is_last``.

    A plain dataclass, so equality compares every field, ``id`` included.
    """

    content: list[TextBlock | ImageBlock | AudioBlock | VideoBlock]
    metadata: dict[str, Any] | None = None
    stream: bool = False
    is_last: bool = True
    is_interrupted: bool = False
    id: str = field(default_factory=timestamp_id)
