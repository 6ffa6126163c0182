"""EstimatingTokenCounter: the offline token estimate (formerly named CharTokenCounter)."""

from __future__ import annotations

import json

import pytest

from desktop_agent.formatter import EstimatingTokenCounter, TokenCounterBase


def test_text_estimate_is_a_quarter_of_the_utf8_size() -> None:
    counter = EstimatingTokenCounter()
    assert isinstance(counter, TokenCounterBase)
    assert [counter.count_text(t) for t in ("", "abcd", "abcde", "中文")] == [0, 1, 2, 2]


async def test_messages_tools_and_media() -> None:
    counter = EstimatingTokenCounter(message_overhead=4, image_tokens=100, audio_tokens=50)
    messages = [
        {"role": "system", "content": "abcdefgh"},
        {
            "role": "user",
            "name": "Ann",
            "content": [
                {"type": "text", "text": "abcd"},
                {"type": "image_url", "image_url": {"url": "data:..."}},
                {"type": "input_audio", "input_audio": {"data": "x", "format": "wav"}},
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"function": {"name": "abcd", "arguments": '{"a": 1}'}}],
        },
    ]
    assert await counter.count(messages) == (4 + 2) + (4 + 1 + 1 + 100 + 50) + (4 + 1 + 2)
    tools = [{"type": "function", "function": {"name": "f"}}]
    extra = counter.count_text(json.dumps(tools))
    assert await counter.count(messages, tools=tools) == 169 + extra


def test_chars_per_token_must_be_positive() -> None:
    with pytest.raises(ValueError):
        EstimatingTokenCounter(chars_per_token=0)
