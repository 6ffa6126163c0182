"""ReActAgent end to end: the real ``openai`` SDK against the loopback test server.

Covers streaming, interruption in every phase (waiting for the first token, mid-stream,
during a tool), other cancellations, HTTP and connection failures, and malformed tool
calls. Synchronisation is by events: the server's request/disconnect logs and the
agent's message queue — never sleeps.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from agent_helpers import make_agent, tool_pairs_are_complete, user

from desktop_agent.agent import ReActAgent
from desktop_agent.message import Msg
from desktop_agent.model import (
    ModelAPIError,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelNotFoundError,
    ModelRateLimitError,
    OpenAIChatModel,
)
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall
from desktop_agent.tool import PermissionRequest, Toolkit, ToolPermissions, register_desktop_tools

INTERRUPTED = "I noticed that you have interrupted me. What can I do for you?"
PROMPT_END = 0.5  # seconds: the turn must end this soon after interrupt()


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


@pytest.fixture
async def models() -> AsyncIterator[list[OpenAIChatModel]]:
    created: list[OpenAIChatModel] = []
    yield created
    for model in created:
        await model.aclose()


@pytest.fixture
def openai_agent(
    server: OpenAICompatServer, models: list[OpenAIChatModel]
) -> Callable[..., tuple[ReActAgent, asyncio.Queue[Any]]]:
    def build(base_url: str | None = None, **kwargs: Any) -> tuple[ReActAgent, asyncio.Queue[Any]]:
        model = OpenAIChatModel(
            "test-model",
            api_key="test-key",
            client_kwargs={"base_url": base_url or server.base_url, "max_retries": 0},
        )
        models.append(model)
        agent = make_agent(model, **kwargs)
        queue: asyncio.Queue[Any] = asyncio.Queue()
        agent.set_msg_queue_enabled(True, queue, copy=False)
        return agent, queue

    return build


async def _printed_until(queue: asyncio.Queue[Any], done: Callable[[Msg], bool]) -> Msg:
    while True:
        msg, _, _ = await asyncio.wait_for(queue.get(), timeout=5)
        if done(msg):
            return msg


async def _interrupt_and_finish(agent: ReActAgent, turn: asyncio.Task[Msg]) -> Msg:
    started = time.monotonic()
    await agent.interrupt()
    reply = await asyncio.wait_for(turn, timeout=5)
    assert time.monotonic() - started < PROMPT_END
    return reply


def _assert_interrupted_reply(reply: Msg) -> None:
    assert reply.content == INTERRUPTED
    assert reply.metadata == {"_is_interrupted": True}
    assert reply.role == "assistant" and reply.name == "Friday"


# ------------------------------------------------------------------ streaming


async def test_streamed_reply_through_the_sdk(
    server: OpenAICompatServer, openai_agent: Any
) -> None:
    server.add_reply(ScriptedReply("Hello there, Ada!", reasoning="Be kind.", chunk_size=3))
    agent, queue = openai_agent()

    reply = await agent(user("Hi"))

    assert reply.get_text_content() == "Hello there, Ada!"
    assert reply.get_content_blocks("thinking")[0]["thinking"] == "Be kind."
    assert reply.metadata == {}
    printed = [queue.get_nowait() for _ in range(queue.qsize())]
    assert len(printed) > 5 and all(item[0] is reply for item in printed)
    assert [item[1] for item in printed].count(True) == 1 and printed[-1][1] is True
    request = await server.wait_for_request()
    assert request.body["stream"] is True
    assert request.body["messages"][0]["role"] == "system"
    assert [m.role for m in await agent.memory.get_memory()] == ["user", "assistant"]


async def test_tool_call_round_trip(server: OpenAICompatServer, openai_agent: Any) -> None:
    server.add_reply(
        ScriptedReply(tool_calls=[ScriptedToolCall("calculate", {"expression": "6*7"})]),
        ScriptedReply("It is 42."),
    )
    toolkit = Toolkit()
    register_desktop_tools(toolkit)
    agent, _ = openai_agent(toolkit=toolkit)

    reply = await agent(user("6*7?"))

    assert reply.get_text_content() == "It is 42."
    second = server.chat_requests[1].body["messages"]
    tool_message = next(m for m in second if m["role"] == "tool")
    assert "42" in tool_message["content"]


async def test_malformed_tool_call_arguments(server: OpenAICompatServer, openai_agent: Any) -> None:
    server.add_reply(
        ScriptedReply(
            tool_calls=[
                ScriptedToolCall("calculate", '{"expression": "1+2"', id="truncated"),
                ScriptedToolCall("calculate", "this is not json", id="garbage"),
            ]
        ),
        ScriptedReply("Done."),
    )
    toolkit = Toolkit()
    register_desktop_tools(toolkit)
    agent, _ = openai_agent(toolkit=toolkit)

    reply = await agent(user("compute"))

    assert reply.get_text_content() == "Done."
    assert await tool_pairs_are_complete(agent)
    second = server.chat_requests[1].body["messages"]
    results = {m["tool_call_id"]: m["content"] for m in second if m["role"] == "tool"}
    assert "3" in results["truncated"]
    assert results["garbage"]  # a readable error the model can react to


# ------------------------------------------------------------------ interruption


@pytest.mark.parametrize(
    "delay", [{"first_chunk_delay": 30}, {"response_delay": 30}], ids=["first-token", "headers"]
)
async def test_interrupt_while_waiting_for_the_first_token(
    server: OpenAICompatServer, openai_agent: Any, delay: dict[str, float]
) -> None:
    server.add_reply(ScriptedReply("never sent", **delay))
    agent, _ = openai_agent()
    turn = asyncio.create_task(agent(user("Hi")))
    await server.wait_for_request()

    reply = await _interrupt_and_finish(agent, turn)

    _assert_interrupted_reply(reply)
    await server.wait_for_disconnect()
    memory = await agent.memory.get_memory()
    assert memory[0].get_text_content() == "Hi" and memory[-1].id == reply.id
    assert await tool_pairs_are_complete(agent)


async def test_interrupt_mid_stream_keeps_the_partial_answer(
    server: OpenAICompatServer, openai_agent: Any
) -> None:
    full = "The quick brown fox jumps over the lazy dog. " * 20
    server.add_reply(ScriptedReply(full, chunk_size=4, chunk_delay=0.02))
    agent, queue = openai_agent()
    turn = asyncio.create_task(agent(user("Tell me a story")))
    for _ in range(3):
        await queue.get()

    reply = await _interrupt_and_finish(agent, turn)

    _assert_interrupted_reply(reply)
    await server.wait_for_disconnect()
    memory = await agent.memory.get_memory()
    assert [m.role for m in memory] == ["user", "assistant", "assistant"]
    partial = memory[1].get_text_content() or ""
    assert len(partial) >= 12 and full.startswith(partial) and len(partial) < len(full)


async def test_interrupt_mid_tool_call_stream_answers_every_tool_call(
    server: OpenAICompatServer, openai_agent: Any
) -> None:
    server.add_reply(
        ScriptedReply(
            "Let me calculate.",
            tool_calls=[ScriptedToolCall("calculate", {"expression": "1+" * 100 + "1"})],
            chunk_size=4,
            chunk_delay=0.02,
        )
    )
    toolkit = Toolkit()
    register_desktop_tools(toolkit)
    agent, queue = openai_agent(toolkit=toolkit)
    turn = asyncio.create_task(agent(user("Add many ones")))
    await _printed_until(queue, lambda msg: msg.has_content_blocks("tool_use"))

    reply = await _interrupt_and_finish(agent, turn)

    _assert_interrupted_reply(reply)
    memory = await agent.memory.get_memory()
    assert [m.role for m in memory] == ["user", "assistant", "system", "assistant"]
    [call] = memory[1].get_content_blocks("tool_use")
    [result] = memory[2].get_content_blocks("tool_result")
    assert result["id"] == call["id"] and result["name"] == "calculate"
    assert result["output"] == "The tool call has been interrupted by the user."
    assert len(server.chat_requests) == 1


async def test_interrupt_during_a_running_tool_kills_it(
    server: OpenAICompatServer, openai_agent: Any
) -> None:
    async def allow(request: PermissionRequest) -> Any:
        return "allow_once"

    server.add_reply(
        ScriptedReply(
            tool_calls=[
                ScriptedToolCall("execute_shell_command", {"command": "echo $$; exec sleep 30"})
            ]
        )
    )
    toolkit = Toolkit()
    register_desktop_tools(toolkit, ToolPermissions(ask=allow))
    agent, queue = openai_agent(toolkit=toolkit)
    turn = asyncio.create_task(agent(user("Sleep a while")))
    printed = await _printed_until(
        queue, lambda msg: bool(re.search(r"<stdout>\d+", str(msg.content)))
    )
    match = re.search(r"<stdout>(\d+)", str(printed.content))
    assert match is not None
    pid = int(match.group(1))

    reply = await _interrupt_and_finish(agent, turn)

    _assert_interrupted_reply(reply)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    memory = await agent.memory.get_memory()
    assert [m.role for m in memory] == ["user", "assistant", "system", "assistant"]
    [result] = memory[2].get_content_blocks("tool_result")
    assert "interrupted by the user" in str(result["output"])
    assert await tool_pairs_are_complete(agent)
    assert len(server.chat_requests) == 1


async def test_outer_timeout_is_not_an_interrupt(
    server: OpenAICompatServer, openai_agent: Any
) -> None:
    server.add_reply(ScriptedReply("late", first_chunk_delay=30))
    agent, _ = openai_agent()
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(agent(user("Hi")), timeout=0.3)
    await server.wait_for_disconnect()
    texts = [m.get_text_content() for m in await agent.memory.get_memory()]
    assert INTERRUPTED not in texts


async def test_cancelling_the_turn_task_propagates(
    server: OpenAICompatServer, openai_agent: Any
) -> None:
    server.add_reply(ScriptedReply("late", first_chunk_delay=30))
    agent, _ = openai_agent()
    turn = asyncio.create_task(agent(user("Hi")))
    await server.wait_for_request()
    turn.cancel()
    with pytest.raises(asyncio.CancelledError):
        await turn
    await server.wait_for_disconnect()
    assert agent._reply_task is None


# ------------------------------------------------------------------ failures


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (401, ModelAuthenticationError),
        (404, ModelNotFoundError),
        (429, ModelRateLimitError),
        (500, ModelAPIError),
    ],
)
async def test_http_errors_propagate_typed(
    server: OpenAICompatServer, openai_agent: Any, status: int, error: type[Exception]
) -> None:
    server.add_reply(ScriptedReply.error(status), ScriptedReply("Recovered."))
    agent, _ = openai_agent()

    with pytest.raises(error) as excinfo:
        await agent(user("Hi"))

    assert isinstance(excinfo.value, ModelAPIError) and excinfo.value.status_code == status
    assert [m.role for m in await agent.memory.get_memory()] == ["user"]
    reply = await agent(None)  # the memory is still a valid conversation
    assert reply.get_text_content() == "Recovered."


async def test_connection_refused(openai_agent: Any) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    agent, _ = openai_agent(base_url=f"http://127.0.0.1:{port}/v1")
    with pytest.raises(ModelConnectionError):
        await agent(user("Hi"))
    assert [m.role for m in await agent.memory.get_memory()] == ["user"]


async def test_stream_dropped_mid_way(server: OpenAICompatServer, openai_agent: Any) -> None:
    server.add_reply(
        ScriptedReply(
            "Partial answer that never ends",
            tool_calls=[ScriptedToolCall("calculate", {"expression": "2+2"})],
            chunk_size=4,
            drop_after_chunks=10,
        )
    )
    toolkit = Toolkit()
    register_desktop_tools(toolkit)
    agent, _ = openai_agent(toolkit=toolkit)

    with pytest.raises(ModelConnectionError):
        await agent(user("Hi"))

    memory = await agent.memory.get_memory()
    assert [m.role for m in memory][:2] == ["user", "assistant"]
    assert memory[1].get_text_content() == "Partial answer that never ends"
    assert await tool_pairs_are_complete(agent)
    result = memory[2].get_content_blocks("tool_result")[0]
    assert result["output"].startswith("The tool call was not executed")
