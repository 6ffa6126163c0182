"""Turn stats: time to first token, tokens/s, tokens in and out, total time, and the
agent's steps — from a scripted stream with a scripted clock, and from a real turn with a
tool call against the loopback server (the figures land on the answer's metadata)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal

import pytest
from pydantic import SecretStr

from desktop_agent.app import ChatService, Conversation, Provider, Settings
from desktop_agent.app._turn_stats import STATS_KEY, StatsRecorder, StepStats, TurnStats
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _chunk(text: str) -> Any:
    return SimpleNamespace(content=[{"type": "text", "text": text}])


def test_figures_of_a_scripted_stream_with_known_timing() -> None:
    clock = Clock()
    recorder = StatsRecorder("m-1", clock)
    recorder.reset()
    recorder.call_started()
    clock.now += 0.4  # the first token after 0.4 s
    recorder.chunk(_chunk("Hel"))
    clock.now += 1.0
    recorder.chunk(_chunk("Hello, wor"))  # 10 characters: ~2 tokens, live
    live = recorder.snapshot()
    assert live.first_token == pytest.approx(0.4)
    assert live.output_tokens == 2
    assert live.total == pytest.approx(1.4)
    clock.now += 1.0
    recorder.call_ended(SimpleNamespace(input_tokens=310, output_tokens=84))
    recorder.mark_answer()
    clock.now += 0.1
    stats = recorder.finish()
    assert stats.first_token == pytest.approx(0.4)
    assert stats.total == pytest.approx(2.5)
    assert (stats.input_tokens, stats.output_tokens) == (310, 84)
    assert stats.tokens_per_second == pytest.approx(84 / 2.0)
    assert stats.summary() == "42 tok/s · 0.4 s to first token · 310 in · 84 out · 2.5 s"
    (step,) = stats.steps
    assert step == StepStats("answer", step.seconds, "", 310, 84)
    assert step.seconds == pytest.approx(2.4)
    assert TurnStats.from_dict(stats.to_dict()) == stats


def test_a_timeline_of_reasoning_tool_answer() -> None:
    clock = Clock()
    recorder = StatsRecorder("m", clock)
    recorder.reset()
    recorder.call_started()
    clock.now += 0.5
    recorder.chunk(_chunk("x"))
    recorder.call_ended(SimpleNamespace(input_tokens=50, output_tokens=20))
    recorder.tool_started("read_text_file")
    clock.now += 0.2
    recorder.tool_ended()
    recorder.call_started()
    clock.now += 1.5
    recorder.chunk(_chunk("done"))
    recorder.call_ended(SimpleNamespace(input_tokens=90, output_tokens=30))
    recorder.mark_answer()
    stats = recorder.finish()
    assert stats.timeline() == (
        "reasoning 0.5 s · 20 tok → read_text_file 0.2 s → answer 1.5 s · 30 tok"
    )
    assert (stats.input_tokens, stats.output_tokens) == (140, 50)


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


async def test_a_real_turn_stamps_its_answer(server: OpenAICompatServer, tmp_path: Path) -> None:
    async def allow(_request: Any) -> Literal["allow_once"]:
        return "allow_once"

    (tmp_path / "a.txt").write_text("hello")
    provider = Provider("Test", server.base_url, "stat-model", SecretStr(""), "environment")
    conversation = Conversation()
    service = ChatService(
        conversation, Settings(working_folder=str(tmp_path)), provider, ask_permission=allow
    )
    server.add_reply(
        ScriptedReply(
            tool_calls=[ScriptedToolCall("read_text_file", {"path": "a.txt"})],
            usage={"prompt_tokens": 40, "completion_tokens": 12},
        ),
        ScriptedReply("It says hello.", usage={"prompt_tokens": 60, "completion_tokens": 5}),
    )
    try:
        await service.send("read a.txt")
        live = service.turn_stats  # the status line keeps the last turn's figures
        assert live is not None and live.output_tokens == 17
    finally:
        await service.aclose()
    answer = [e.msg for e in conversation.entries if e.msg is not None][-1]
    assert answer.get_text_content() == "It says hello."
    assert answer.metadata["model"] == "stat-model"
    stats = TurnStats.from_dict(answer.metadata[STATS_KEY])
    assert stats is not None
    assert [(s.kind, s.name) for s in stats.steps] == [
        ("reasoning", ""),
        ("tool", "read_text_file"),
        ("answer", ""),
    ]
    assert (stats.input_tokens, stats.output_tokens) == (100, 17)
    assert stats.first_token is not None and stats.total >= stats.first_token
