"""``Msg``: the one message type every layer passes around.

A plain class (no dataclass, no pydantic), like AgentScope's: it is created per streamed
chunk on the hot path, so construction stays a handful of attribute stores. Equality is
identity. Our one difference: ``to_dict`` carries ``invocation_id`` when it is set, so
``Msg.from_dict(m.to_dict())`` reproduces ``m`` exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

import shortuuid

from desktop_agent.message._message_block import ContentBlock

_ROLES = ("user", "assistant", "system")


def _now() -> str:
    return datetime.now().strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


class Msg:
    """A message: who said it (``name``, ``role``) and what (``content``)."""

    def __init__(
        self,
        name: str,
        content: str | Sequence[ContentBlock],
        role: Literal["user", "assistant", "system"],
        metadata: dict[str, Any] | None = None,
        timestamp: str | None = None,
        invocation_id: str | None = None,
    ) -> None:
        """Create a message.

        Args:
            name: The speaker's name.
            content: A string, or a list of content blocks.
            role: ``"user"``, ``"assistant"`` or ``"system"``.
            metadata: Extra data, e.g. structured output; stored as ``metadata or {}``.
            timestamp: Defaults to the local time with millisecond precision.
            invocation_id: The id of the model API call that produced the message.
        """
        self.name = name
        assert isinstance(content, (list, str)), (
            "The content must be a string or a list of content blocks."
        )
        self.content: Any = content
        assert role in _ROLES, (
            f"The role must be one of {', '.join(repr(r) for r in _ROLES)}, got {role!r}."
        )
        self.role: Literal["user", "assistant", "system"] = role
        self.metadata: dict[str, Any] = metadata or {}
        self.id: str = shortuuid.uuid()
        self.timestamp: str = timestamp or _now()
        self.invocation_id: str | None = invocation_id

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready dict; ``content`` and ``metadata`` are returned by reference."""
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "role": self.role,
            "content": self.content,
            "metadata": self.metadata,
            "timestamp": self.timestamp,
        }
        if self.invocation_id is not None:
            data["invocation_id"] = self.invocation_id
        return data

    @classmethod
    def from_dict(cls, json_data: dict[str, Any]) -> Msg:
        """Rebuild a message from :meth:`to_dict` output.

        Raises:
            TypeError: ``json_data`` is not a dict.
            KeyError: ``name``, ``content`` or ``role`` is missing.
            AssertionError: ``content`` or ``role`` has an invalid value.
        """
        if not isinstance(json_data, dict):
            raise TypeError(
                f"Msg.from_dict expects a dict, got {type(json_data).__name__}."
            )
        for key in ("name", "content", "role"):
            if key not in json_data:
                raise KeyError(f"Msg.from_dict: the required key {key!r} is missing.")
        msg = cls(
            name=json_data["name"],
            content=json_data["content"],
            role=json_data["role"],
            metadata=json_data.get("metadata"),
            timestamp=json_data.get("timestamp"),
            invocation_id=json_data.get("invocation_id"),
        )
        msg.id = json_data.get("id", msg.id)
        return msg

    def get_text_content(self, separator: str = "\n") -> str | None:
        """The text: a string content as is, else text blocks joined, or ``None`` if none."""
        if isinstance(self.content, str):
            return self.content
        texts = [block["text"] for block in self.content if block.get("type") == "text"]
        if not texts:
            return None
        return separator.join(texts)

    def get_content_blocks(self, block_type: str | list[str] | None = None) -> list[Any]:
        """The content as blocks, optionally only those of ``block_type``.

        With ``block_type=None`` and list content, the list object itself is returned.
        """
        blocks: list[Any]
        if isinstance(self.content, str):
            blocks = [{"type": "text", "text": self.content}]
        else:
            blocks = self.content or []
        if block_type is None:
            return blocks
        if isinstance(block_type, str):
            return [block for block in blocks if block["type"] == block_type]
        return [block for block in blocks if block["type"] in block_type]

    def has_content_blocks(self, block_type: str | list[str] | None = None) -> bool:
        """Whether :meth:`get_content_blocks` would return anything."""
        return len(self.get_content_blocks(block_type)) > 0

    def __repr__(self) -> str:
        return (
            f"Msg(id={self.id!r}, name={self.name!r}, content={self.content!r}, "
            f"role={self.role!r}, metadata={self.metadata!r}, "
            f"timestamp={self.timestamp!r}, invocation_id={self.invocation_id!r})"
        )
