"""TruncatedFormatterBase: dropping the oldest messages to fit max_tokens."""

from __future__ import annotations

from typing import Any

import pytest

from desktop_agent.formatter import (
    CharTokenCounter,
    OpenAIChatFormatter,
    TokenCounterBase,
    TruncatedFormatterBase,
)
from desktop_agent.message import Msg


class MessageCounter(TokenCounterBase):
    """One token per formatted message."""

    async def count(self, messages: list[dict[str, Any]], tools: Any = None, **kwargs: Any) -> int:
        return len(messages)


def _call(call_id: str) -> Msg:
    return Msg("bot", [{"type": "tool_use", "id": call_id, "name": "f", "input": {}}], "assistant")


def _result(call_id: str) -> Msg:
    block = {"type": "tool_result", "id": call_id, "name": "f", "output": "ok"}
    return Msg("system", [block], "system")


def _texts(formatted: list[dict[str, Any]]) -> list[str]:
    return [m["content"][0]["text"] if m.get("content") else m["role"] for m in formatted]


def test_max_tokens_must_be_positive() -> None:
    with pytest.raises(AssertionError):
        OpenAIChatFormatter(max_tokens=0)


async def test_without_a_counter_nothing_is_dropped() -> None:
    msgs = [Msg("u", str(i), "user") for i in range(5)]
    assert len(await OpenAIChatFormatter(max_tokens=1).format(msgs)) == 5


async def test_oldest_messages_go_first_and_the_system_message_stays() -> None:
    msgs = [Msg("system", "sys", "system")] + [Msg("u", str(i), "user") for i in range(5)]
    formatter = OpenAIChatFormatter(token_counter=MessageCounter(), max_tokens=3)
    formatted = await formatter.format(msgs)
    assert _texts(formatted) == ["sys", "3", "4"]
    assert len(msgs) == 6  # the caller's list is untouched


async def test_a_tool_call_and_its_result_are_dropped_together() -> None:
    msgs = [_call("a"), Msg("x", "between", "user"), _result("a"), Msg("u", "last", "user")]
    formatter = OpenAIChatFormatter(token_counter=MessageCounter(), max_tokens=3)
    assert _texts(await formatter.format(msgs)) == ["last"]


async def test_system_message_alone_too_long() -> None:
    formatter = OpenAIChatFormatter(token_counter=CharTokenCounter(), max_tokens=5)
    with pytest.raises(ValueError, match="system prompt"):
        await formatter.format([Msg("system", "x" * 400, "system"), Msg("u", "hi", "user")])


async def test_unmatched_tool_calls_cannot_be_truncated() -> None:
    formatter = OpenAIChatFormatter(token_counter=MessageCounter(), max_tokens=1)
    with pytest.raises(ValueError, match="no matching tool"):
        await formatter.format([_call("lonely"), Msg("u", "a", "user")])


async def test_group_messages() -> None:
    msgs = [Msg("a", "1", "user"), _call("c"), _result("c"), Msg("b", "2", "assistant")]
    groups = [
        (kind, [m.name for m in group])
        async for kind, group in TruncatedFormatterBase._group_messages(msgs)
    ]
    assert groups == [
        ("agent_message", ["a"]),
        ("tool_sequence", ["bot", "system"]),
        ("agent_message", ["b"]),
    ]
