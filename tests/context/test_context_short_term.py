"""The short-term memory: a deque bounded by utterances and tokens, oldest dropped first."""

from __future__ import annotations

import logging
from collections import deque

import pytest
from context_helpers import config, module

from desktop_agent.context import InputModule, estimate_tokens
from desktop_agent.message import Msg


def texts(input_module: InputModule) -> list[str]:
    return [msg.get_text_content() or "" for msg in input_module.short_term_memory]


def test_estimate_tokens_is_a_quarter_of_the_length_rounded_up() -> None:
    assert [estimate_tokens("x" * n) for n in (0, 1, 4, 5, 8, 9)] == [0, 1, 1, 2, 2, 3]


def test_it_is_a_deque_of_messages_and_str_is_a_user_utterance() -> None:
    input_module = InputModule()
    assert isinstance(input_module.short_term_memory, deque)
    input_module.add_to_short_term("hello")
    reply = Msg("Friday", "hi", "assistant")
    input_module.add_to_short_term(reply)
    first, second = input_module.short_term_memory
    assert (first.name, first.role, first.content) == ("user", "user", "hello")
    assert second is reply


def test_other_items_are_refused() -> None:
    with pytest.raises(TypeError, match="Msg or a str"):
        InputModule().add_to_short_term(42)  # type: ignore[arg-type]


def test_bounded_by_200_utterances_oldest_first() -> None:
    input_module = InputModule()
    for index in range(250):
        input_module.add_to_short_term(f"u{index}")
    assert len(input_module.short_term_memory) == 200
    assert texts(input_module)[0] == "u50"
    assert texts(input_module)[-1] == "u249"


def test_bounded_by_5000_tokens_oldest_first() -> None:
    input_module = InputModule()
    # "user: " + 394 characters = 400 characters = 100 tokens with the default estimate.
    for index in range(60):
        input_module.add_to_short_term(f"{index:04d}" + "x" * 390)
    assert input_module.short_term_tokens() == 5000
    assert len(input_module.short_term_memory) == 50
    assert texts(input_module)[0].startswith("0010")
    input_module.add_to_short_term("a")  # 2 more tokens: the oldest goes
    assert texts(input_module)[0].startswith("0011")
    assert input_module.short_term_tokens() == 4902


def test_a_custom_token_counter_sets_the_budget() -> None:
    counted: list[str] = []

    def thousand(text: str) -> int:
        counted.append(text)
        return 1000

    input_module = InputModule(token_counter=thousand)
    for index in range(8):
        input_module.add_to_short_term(f"u{index}")
    assert texts(input_module) == ["u3", "u4", "u5", "u6", "u7"]
    assert counted[-1] == "user: u7"


def test_an_utterance_larger_than_the_budget_is_not_kept(
    caplog: pytest.LogCaptureFixture,
) -> None:
    input_module = InputModule()
    input_module.add_to_short_term("small")
    with caplog.at_level(logging.INFO, logger="desktop_agent"):
        input_module.add_to_short_term("x" * 40_000)
    assert texts(input_module) == []
    assert "exceeds the short-term memory budget of 5000 tokens" in caplog.text


def test_configured_bounds_are_used() -> None:
    input_module = InputModule()
    input_module.load_config(
        config(module("a", ("text", "x")), short_term_max_utterances=2, short_term_max_tokens=10)
    )
    for word in ("one", "two", "three"):
        input_module.add_to_short_term(word)
    assert texts(input_module) == ["two", "three"]
    input_module.add_to_short_term("a much longer utterance")  # 8 tokens with "user: "
    assert texts(input_module) == ["a much longer utterance"]


def test_changes_made_directly_to_the_deque_are_accounted_for() -> None:
    input_module = InputModule(token_counter=lambda text: 1000)
    for index in range(5):
        input_module.add_to_short_term(f"u{index}")
    input_module.short_term_memory.clear()
    input_module.short_term_memory.append(Msg("user", "direct", "user"))
    input_module.add_to_short_term("added")
    assert texts(input_module) == ["direct", "added"]
    assert input_module.short_term_tokens() == 2000
