"""``Msg``: the one message type every layer passes around.

A plain class (no dataclass, no pydantic), like AgentScope's: it is created per streamed
chunk on the hot path and by the thousand when a session loads, so construction stays a
handful of attribute stores. Ids are 22 characters of the shortuuid alphabet drawn from
``os.urandom`` (``shortuuid.uuid()`` costs ~5 µs), ``from_dict`` never generates an id it
would overwrite, and ``deepcopy`` takes a JSON-specialised path. Equality is identity.
Our one difference: ``to_dict`` carries ``invocation_id`` when it is set, so
``Msg.from_dict(m.to_dict())`` reproduces ``m`` exactly.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from desktop_agent.message._json_copy import deepcopy_json
from desktop_agent.message._message_block import ContentBlock

_ROLES = ("user", "assistant", "system")
_CONTENT_ERROR = "The content must be a string or a list of content blocks."

# shortuuid's base57 alphabet (no 0, 1, I, O, l). Mapping each random byte through a
# 256-entry table leaves a bias of 5/256 vs 4/256 between letters: ~5.82 bits per
# character, ~128 bits per id, as much entropy as the uuid4 shortuuid encodes.
_ID_ALPHABET = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_ID_TABLE = bytes(_ID_ALPHABET[i % len(_ID_ALPHABET)] for i in range(256))
_ID_LENGTH = 22


def _new_id() -> str:
    return os.urandom(_ID_LENGTH).translate(_ID_TABLE).decode("ascii")


def _now() -> str:
    # Same text as strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] (milliseconds, truncated),
    # at a third of the cost.
    return datetime.now().isoformat(" ", "milliseconds")


def _check_content_and_role(content: Any, role: Any) -> None:
    # Explicit raises rather than ``assert``: same exceptions as AgentScope, but they
    # survive ``python -O``.
    if not isinstance(content, (list, str)):
        raise AssertionError(_CONTENT_ERROR)
    if role not in _ROLES:
        raise AssertionError


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

        Raises:
            AssertionError: ``content`` is not a ``str`` or a ``list`` (with the message
                "The content must be a string or a list of content blocks."), or
                ``role`` is not one of the three roles (bare, as in AgentScope).
        """
        _check_content_and_role(content, role)
        self.name = name
        self.content: Any = content
        self.role: Literal["user", "assistant", "system"] = role
        self.metadata: dict[str, Any] = metadata or {}
        self.id: str = _new_id()
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

        ``content`` and ``metadata`` are used by reference. A missing ``id`` gets a
        fresh one.

        Raises:
            TypeError: ``json_data`` is not a dict.
            KeyError: ``name``, ``content`` or ``role`` is missing.
            AssertionError: ``content`` or ``role`` has an invalid value.
        """
        if not isinstance(json_data, dict):
            raise TypeError(f"Msg.from_dict expects a dict, got {type(json_data).__name__}.")
        name = json_data["name"]
        content = json_data["content"]
        role = json_data["role"]
        if cls.__init__ is not Msg.__init__:  # a subclass may need its own constructor
            return _from_dict_via_init(cls, json_data)
        # The checks of __init__, inlined: this runs once per message of a session.
        if not isinstance(content, (list, str)):
            raise AssertionError(_CONTENT_ERROR)
        if role not in _ROLES:
            raise AssertionError
        msg = cls.__new__(cls)
        msg.name = name
        msg.content = content
        msg.role = role
        msg.metadata = json_data.get("metadata") or {}
        msg.id = json_data["id"] if "id" in json_data else _new_id()
        msg.timestamp = json_data.get("timestamp") or _now()
        msg.invocation_id = json_data.get("invocation_id")
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

    def __deepcopy__(self, memo: dict[int, Any]) -> Msg:
        """A true deep copy (same id), fast because blocks and metadata are JSON data.

        Subclasses that use ``__slots__`` or ``__getstate__`` must override this.
        """
        cls = type(self)
        copied = cls.__new__(cls)
        memo[id(self)] = copied
        copied.__dict__.update(deepcopy_json(self.__dict__, memo))
        return copied

    def __repr__(self) -> str:
        return (
            f"Msg(id={self.id!r}, name={self.name!r}, content={self.content!r}, "
            f"role={self.role!r}, metadata={self.metadata!r}, "
            f"timestamp={self.timestamp!r}, invocation_id={self.invocation_id!r})"
        )


def _from_dict_via_init(cls: type[Msg], json_data: dict[str, Any]) -> Msg:
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
