"""desktop_agent.token: CharTokenCounter counts characters exactly as AgentScope's does."""

from __future__ import annotations

from typing import Any

import pytest

from desktop_agent import formatter, token
from desktop_agent.agent import CompressionConfig
from desktop_agent.formatter import EstimatingTokenCounter, OpenAIChatFormatter
from desktop_agent.message import Msg
from desktop_agent.token import CharTokenCounter, TokenCounterBase

HI = {"role": "user", "content": "hi"}
TOOLS = [{"type": "function"}]
UPSTREAM: list[dict[str, Any]] = [
    {"role": "user", "content": "This is a test string."},
    {
        "id": "1",
        "name": "test_tool",
        "type": "tool_use",
        "input": {"param1": "value1", "param2": "value2"},
    },
]


@pytest.mark.parametrize(
    ("messages", "tools", "expected"),
    [
        ([], None, 0),
        ([HI], None, 33),
        ([HI], TOOLS, 56),
        ([], TOOLS, 22),
        ([{"role": "user", "content": "a"}, {"role": "user", "content": "b"}], None, 65),
        ([{"role": "user", "content": "héllo"}], None, len("{'role': 'user', 'content': 'héllo'}")),
        (UPSTREAM, None, 157),
    ],
)
async def test_char_counter_examples_of_the_reference(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, expected: int
) -> None:
    assert await CharTokenCounter().count(messages, tools=tools) == expected


async def test_the_estimate_has_its_own_name_and_differs() -> None:
    assert await EstimatingTokenCounter().count(UPSTREAM) == 17
    assert formatter.CharTokenCounter is token.CharTokenCounter
    assert formatter.TokenCounterBase is token.TokenCounterBase
    assert isinstance(EstimatingTokenCounter(), TokenCounterBase)


async def test_base_count_is_abstract_in_spirit_only() -> None:
    base = TokenCounterBase()  # the abstract marker is not enforced
    with pytest.raises(NotImplementedError):
        await base.count([])


async def test_truncating_formatter_uses_the_character_count() -> None:
    msgs = [Msg("Ann", "a" * 40, "user"), Msg("Ann", "last", "user")]
    # 40 characters are ~10 estimated tokens, but over 100 characters once formatted.
    estimated = OpenAIChatFormatter(token_counter=EstimatingTokenCounter(), max_tokens=100)
    counted = OpenAIChatFormatter(token_counter=CharTokenCounter(), max_tokens=100)
    assert len(await estimated.format(msgs)) == 2
    assert len(await counted.format(msgs)) == 1


def test_compression_config_accepts_the_counter() -> None:
    config = CompressionConfig(
        enable=True, agent_token_counter=CharTokenCounter(), trigger_threshold=1000
    )
    assert isinstance(config.agent_token_counter, TokenCounterBase)
