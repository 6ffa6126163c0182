"""``TruncatedFormatterBase``: formatting that drops the oldest messages to fit a budget.

The loop is AgentScope's: format, count, and while over ``max_tokens`` drop the oldest
messages — keeping a leading system message, and never separating a tool call from its
result (dropping goes on until every dropped tool call's result is dropped too).

It also carries the default ``_format`` used by multi-agent formatters: the system
message, then runs of messages grouped as "tool_sequence" (messages with tool calls or
results) or "agent_message" (everything else), each group formatted by a hook.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import AsyncIterator, Sequence
from typing import Any, Literal

from desktop_agent.formatter._formatter_base import FormatterBase
from desktop_agent.formatter._token_counter import TokenCounterBase
from desktop_agent.message import Msg

GroupType = Literal["tool_sequence", "agent_message"]
_TOOL_BLOCKS = ["tool_use", "tool_result"]


class TruncatedFormatterBase(FormatterBase, ABC):
    """A formatter that truncates history to ``max_tokens`` using ``token_counter``.

    Args:
        token_counter: Counts formatted messages; without one nothing is truncated.
        max_tokens: The budget; ``None`` for none.
    """

    def __init__(
        self,
        token_counter: TokenCounterBase | None = None,
        max_tokens: int | None = None,
    ) -> None:
        assert max_tokens is None or max_tokens > 0, (
            f"max_tokens must be greater than 0, got {max_tokens}."
        )
        self.token_counter = token_counter
        self.max_tokens = max_tokens

    async def format(self, msgs: list[Msg], **kwargs: Any) -> list[dict[str, Any]]:
        """Format ``msgs``, dropping the oldest ones until the result fits ``max_tokens``.

        Raises:
            TypeError: ``msgs`` is not a list of ``Msg``.
            ValueError: It cannot fit (system message too long, unmatched tool calls).
        """
        self.assert_list_of_msgs(msgs)
        msgs = list(msgs)
        while True:
            formatted = await self._format(msgs)
            n_tokens = await self._count(formatted)
            if n_tokens is None or self.max_tokens is None or n_tokens <= self.max_tokens:
                return formatted
            msgs = await self._truncate(msgs)

    async def _count(self, msgs: list[dict[str, Any]]) -> int | None:
        if self.token_counter is None:
            return None
        return await self.token_counter.count(msgs)

    async def _truncate(self, msgs: list[Msg]) -> list[Msg]:
        """Drop the oldest droppable messages (see the module docstring).

        Raises:
            ValueError: Only a system message is left, or tool calls lack results.
        """
        start = 1 if msgs and msgs[0].role == "system" else 0
        if start == 1 and len(msgs) == 1:
            raise ValueError(
                f"The system prompt message alone exceeds max_tokens ({self.max_tokens}); "
                "shorten it or raise max_tokens."
            )
        if len(msgs) == start:
            raise ValueError(
                f"Nothing left to drop, but still over max_tokens ({self.max_tokens})."
            )
        open_calls: set[str] = set()
        for index in range(start, len(msgs)):
            for block in msgs[index].get_content_blocks("tool_use"):
                open_calls.add(block["id"])
            for block in msgs[index].get_content_blocks("tool_result"):
                open_calls.discard(block["id"])
            if not open_calls:
                return msgs[:start] + msgs[index + 1 :]
        raise ValueError(
            f"Cannot truncate: tool call(s) {sorted(open_calls)} have no matching tool "
            "result(s) in the messages."
        )

    async def _format(self, msgs: list[Msg]) -> list[dict[str, Any]]:
        """System message, then each group through its hook."""
        formatted: list[dict[str, Any]] = []
        start = 0
        if msgs and msgs[0].role == "system":
            formatted.append(await self._format_system_message(msgs[0]))
            start = 1
        is_first_agent_message = True
        async for group_type, group in self._group_messages(msgs[start:]):
            if group_type == "tool_sequence":
                formatted.extend(await self._format_tool_sequence(group))
            else:
                formatted.extend(await self._format_agent_message(group, is_first_agent_message))
                is_first_agent_message = False
        return formatted

    async def _format_system_message(self, msg: Msg) -> dict[str, Any]:
        """The system message: its text blocks, no name."""
        blocks = [
            {"type": "text", "text": b.get("text", "")} for b in msg.get_content_blocks("text")
        ]
        return {"role": "system", "content": blocks}

    async def _format_tool_sequence(self, msgs: list[Msg]) -> list[dict[str, Any]]:
        """Format a run of messages with tool calls/results."""
        raise NotImplementedError(f"{type(self).__name__} does not format tool sequences.")

    async def _format_agent_message(
        self, msgs: list[Msg], is_first: bool = True
    ) -> list[dict[str, Any]]:
        """Format a run of ordinary messages (``is_first``: the first such run)."""
        raise NotImplementedError(f"{type(self).__name__} does not format agent messages.")

    @staticmethod
    async def _group_messages(
        msgs: Sequence[Msg],
    ) -> AsyncIterator[tuple[GroupType, list[Msg]]]:
        """Consecutive runs of "tool_sequence" and "agent_message" messages."""
        group_type: GroupType | None = None
        group: list[Msg] = []
        for msg in msgs:
            msg_type: GroupType = (
                "tool_sequence" if msg.has_content_blocks(_TOOL_BLOCKS) else "agent_message"
            )
            if group_type is not None and msg_type != group_type:
                yield group_type, group
                group = []
            group_type = msg_type
            group.append(msg)
        if group_type is not None:
            yield group_type, group
