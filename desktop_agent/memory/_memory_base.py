"""``MemoryBase``: the interface every short-term memory offers an agent (1.0.12+ API).

Messages carry *marks* (free-form tags such as ``"hint"`` or ``"compressed"``) so an
agent can filter, retag and delete groups of them; a *compressed summary* stands in for
messages that were summarised away and is prepended to what ``get_memory`` returns. As
in AgentScope the ``@abstractmethod`` markers are documentation only (no ``ABCMeta``).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from desktop_agent.message import Msg
from desktop_agent.module import StateModule


class MemoryBase(StateModule):
    """Stores an agent's messages with their marks, plus a compressed summary."""

    def __init__(self) -> None:
        """Start with an empty compressed summary, registered as state."""
        super().__init__()
        self._compressed_summary: str = ""
        self.register_state("_compressed_summary")

    async def update_compressed_summary(self, summary: str) -> None:
        """Replace the compressed summary.

        Args:
            summary: The new summary; ``""`` means none.
        """
        self._compressed_summary = summary

    @abstractmethod
    async def add(
        self,
        memories: Msg | list[Msg] | None,
        marks: str | list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        """Add messages, each tagged with ``marks``."""

    @abstractmethod
    async def delete(self, msg_ids: list[str], **kwargs: Any) -> int:
        """Delete the messages with these ids; return how many were deleted."""

    @abstractmethod
    async def size(self) -> int:
        """The number of stored messages."""

    @abstractmethod
    async def clear(self) -> None:
        """Delete every message."""

    @abstractmethod
    async def get_memory(
        self,
        mark: str | None = None,
        exclude_mark: str | None = None,
        prepend_summary: bool = True,
        **kwargs: Any,
    ) -> list[Msg]:
        """The messages carrying ``mark`` and not ``exclude_mark``, summary first."""

    async def delete_by_mark(self, mark: str | list[str], **kwargs: Any) -> int:
        """Delete the messages carrying any of ``mark``; return how many.

        Raises:
            NotImplementedError: This memory does not support marks.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement delete_by_mark.")

    async def update_messages_mark(
        self,
        new_mark: str | None,
        old_mark: str | None = None,
        msg_ids: list[str] | None = None,
    ) -> int:
        """Replace ``old_mark`` with ``new_mark``; return how many messages changed.

        Raises:
            NotImplementedError: This memory does not support marks.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement update_messages_mark.")
