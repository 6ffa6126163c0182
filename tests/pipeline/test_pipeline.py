"""Pipelines: sequential, fanout, their class wrappers and stream_printing_messages."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from desktop_agent.agent import AgentBase
from desktop_agent.message import Msg
from desktop_agent.pipeline import (
    FanoutPipeline,
    SequentialPipeline,
    fanout_pipeline,
    sequential_pipeline,
    stream_printing_messages,
)


class AppendAgent(AgentBase):
    """Replies with the input text plus its own name, printing the reply in two chunks."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.set_console_output_enabled(False)
        self.inputs: list[Any] = []

    async def reply(self, msg: Msg | None = None, **kwargs: Any) -> Msg:
        self.inputs.append(msg)
        text = (msg.get_text_content() or "") if msg is not None else ""
        reply = Msg(self.name, text, "assistant")
        await self.print(reply, last=False)
        reply.content = f"{text}{self.name}"
        await self.print(reply, last=True)
        return reply


class FailingAgent(AppendAgent):
    async def reply(self, msg: Msg | None = None, **kwargs: Any) -> Msg:
        await self.print(Msg(self.name, "about to fail", "assistant"))
        raise RuntimeError("agent failed")


async def test_sequential_pipeline_chains_replies() -> None:
    agents = [AppendAgent("a"), AppendAgent("b"), AppendAgent("c")]
    result = await sequential_pipeline(agents, Msg("user", ">", "user"))
    assert isinstance(result, Msg) and result.content == ">abc"
    assert agents[1].inputs[0].content == ">a"
    assert await SequentialPipeline(agents)(Msg("user", "", "user")) is not None


async def test_sequential_pipeline_without_agents_returns_the_input() -> None:
    msg = Msg("user", "x", "user")
    assert await sequential_pipeline([], msg) is msg


@pytest.mark.parametrize("enable_gather", [True, False])
async def test_fanout_pipeline_gives_each_agent_a_copy(enable_gather: bool) -> None:
    agents = [AppendAgent("a"), AppendAgent("b")]
    msg = Msg("user", ">", "user")
    replies = await fanout_pipeline(agents, msg, enable_gather=enable_gather)
    assert [r.content for r in replies] == [">a", ">b"]
    assert all(agent.inputs[0] is not msg for agent in agents)
    assert agents[0].inputs[0] is not agents[1].inputs[0]
    assert await fanout_pipeline([], msg) == []
    wrapper = FanoutPipeline(agents, enable_gather=enable_gather)
    assert [r.content for r in await wrapper(msg)] == [">a", ">b"]


async def test_stream_printing_messages_yields_every_print() -> None:
    agents = [AppendAgent("a"), AppendAgent("b")]
    seen = [
        (msg.name, msg.content, last)
        async for msg, last in stream_printing_messages(
            agents, sequential_pipeline(agents, Msg("user", "", "user"))
        )
    ]
    assert seen == [("a", "", False), ("a", "a", True), ("b", "a", False), ("b", "ab", True)]
    assert all(not agent._disable_msg_queue for agent in agents)  # left enabled


async def test_stream_printing_messages_with_speech_and_by_reference() -> None:
    agent = AppendAgent("a")
    queue: asyncio.Queue[Any] = asyncio.Queue()
    agent.set_msg_queue_enabled(True, queue, copy=False)
    items = [
        item
        async for item in stream_printing_messages(
            [agent], agent(Msg("user", "", "user")), queue=queue, yield_speech=True
        )
    ]
    assert len(items) == 2 and all(len(item) == 3 for item in items)
    assert items[0][0] is items[1][0]  # the same Msg object: queued by reference


async def test_stream_printing_messages_reraises_after_the_printed_messages() -> None:
    agent = FailingAgent("f")
    seen: list[str] = []
    with pytest.raises(RuntimeError, match="agent failed"):
        async for msg, _ in stream_printing_messages([agent], agent(None)):
            seen.append(msg.content)
    assert seen == ["about to fail"]
