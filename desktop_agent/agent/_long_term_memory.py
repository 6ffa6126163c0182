"""Long-term memory: what an agent keeps across conversations.

``LongTermMemoryBase`` is the interface ``ReActAgent`` uses, in two ways: under *static
control* the agent itself calls :meth:`~LongTermMemoryBase.retrieve` before each reply and
:meth:`~LongTermMemoryBase.record` after it; under *agent control* the model gets the
``record_to_memory`` and ``retrieve_from_memory`` tools. ``InMemoryLongTermMemory`` is a
working, dependency-free implementation that matches records by keyword overlap.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from desktop_agent.agent._keywords import keywords, overlap_score
from desktop_agent.message import Msg, TextBlock
from desktop_agent.module import StateModule
from desktop_agent.tool import ToolResponse


def _text_of(msgs: Msg | Sequence[Msg | None] | None) -> str:
    if msgs is None:
        return ""
    items = [msgs] if isinstance(msgs, Msg) else msgs
    texts = [m.get_text_content() for m in items if m is not None]
    return "\n".join(t for t in texts if t)


def _text_response(text: str) -> ToolResponse:
    return ToolResponse(content=[TextBlock(type="text", text=text)])


class LongTermMemoryBase(StateModule):
    """The interface of a long-term memory."""

    async def record(self, msgs: list[Msg | None], **kwargs: Any) -> Any:
        """Store what is worth keeping from ``msgs`` (static control)."""
        raise NotImplementedError(f"{type(self).__name__} does not implement record.")

    async def retrieve(self, msg: Msg | list[Msg] | None, limit: int = 5, **kwargs: Any) -> str:
        """The stored text relevant to ``msg``; ``""`` when nothing is (static control)."""
        raise NotImplementedError(f"{type(self).__name__} does not implement retrieve.")

    async def record_to_memory(
        self, thinking: str, content: list[str], **kwargs: Any
    ) -> ToolResponse:
        """Record important information into the long-term memory for later use.

        Args:
            thinking: Why this information is worth remembering.
            content: The pieces of information to remember, one per item.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement record_to_memory.")

    async def retrieve_from_memory(
        self, keywords: list[str], limit: int = 5, **kwargs: Any
    ) -> ToolResponse:
        """Retrieve information from the long-term memory by keywords.

        Args:
            keywords: Words describing what to look for.
            limit: The maximum number of records to return.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement retrieve_from_memory.")


class InMemoryLongTermMemory(LongTermMemoryBase):
    """A long-term memory held in a list of text records, retrieved by keyword overlap.

    Its state (``records``) is saved with the agent's session.
    """

    def __init__(self) -> None:
        super().__init__()
        self.records: list[str] = []
        self.register_state("records")

    def add_records(self, texts: list[str]) -> int:
        """Store each non-empty text not stored yet; returns how many were added."""
        added = 0
        for text in (t.strip() for t in texts):
            if text and text not in self.records:
                self.records.append(text)
                added += 1
        return added

    def search(self, query: str, limit: int = 5) -> list[str]:
        """The records sharing the most words with ``query``, best first (ties: newest)."""
        query_words = keywords(query)
        scored = [
            (overlap_score(query_words, record), index, record)
            for index, record in enumerate(self.records)
        ]
        ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], -s[1]))
        return [record for _, _, record in ranked[: max(limit, 0)]]

    async def record(self, msgs: list[Msg | None], **kwargs: Any) -> None:
        """Store the text of each message as one record."""
        self.add_records([_text_of(m) for m in msgs if m is not None])

    async def retrieve(self, msg: Msg | list[Msg] | None, limit: int = 5, **kwargs: Any) -> str:
        """The records relevant to the text of ``msg``, one per line."""
        return "\n".join(self.search(_text_of(msg), limit))

    async def record_to_memory(
        self, thinking: str, content: list[str], **kwargs: Any
    ) -> ToolResponse:
        """Record important information into the long-term memory for later use.

        Args:
            thinking: Why this information is worth remembering.
            content: The pieces of information to remember, one per item.
        """
        added = self.add_records(list(content))
        return _text_response(f"Successfully recorded {added} item(s) to the long-term memory.")

    async def retrieve_from_memory(
        self, keywords: list[str], limit: int = 5, **kwargs: Any
    ) -> ToolResponse:
        """Retrieve information from the long-term memory by keywords.

        Args:
            keywords: Words describing what to look for.
            limit: The maximum number of records to return.
        """
        found = self.search(" ".join(keywords), limit)
        if not found:
            return _text_response("No relevant information found in the long-term memory.")
        return _text_response("\n".join(f"- {record}" for record in found))
