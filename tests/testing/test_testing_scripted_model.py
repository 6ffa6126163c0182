"""ScriptedChatModel: scripted answers, cumulative streaming, recorded calls."""

from __future__ import annotations

import asyncio

import pytest

from desktop_agent.model import ChatModelBase, ChatResponse, ChatUsage, ModelRateLimitError
from desktop_agent.testing import ModelCall, ScriptedChatModel

MESSAGES = [{"role": "user", "content": "Hi"}]
TOOL_USE = {"type": "tool_use", "id": "t1", "name": "search", "input": {"q": "x"}}
TOOLS = [{"type": "function", "function": {"name": "search", "parameters": {}}}]


async def test_text_reply_and_recorded_call() -> None:
    model = ScriptedChatModel(["Hello!"])
    assert isinstance(model, ChatModelBase)
    response = await model(MESSAGES, tools=TOOLS, tool_choice="auto", temperature=0.1)
    assert isinstance(response, ChatResponse)
    assert response.content == [{"type": "text", "text": "Hello!"}]
    assert model.calls == [ModelCall(MESSAGES, TOOLS, "auto", None, {"temperature": 0.1})]


async def test_block_and_response_replies() -> None:
    usage = ChatUsage(input_tokens=1, output_tokens=2, time=0.0)
    scripted = ChatResponse(content=[{"type": "text", "text": "a"}], usage=usage, metadata={"k": 1})
    model = ScriptedChatModel([[TOOL_USE], scripted])
    first = await model(MESSAGES)
    second = await model(MESSAGES)
    assert first.content == [TOOL_USE] and first.content[0] is not TOOL_USE
    assert (second.id, second.usage, second.metadata) == (scripted.id, usage, {"k": 1})


async def test_exceptions_and_functions_as_replies() -> None:
    error = ModelRateLimitError("slow down", retry_after=1.0)
    model = ScriptedChatModel([error, lambda call: f"{len(call.messages)} messages"])
    with pytest.raises(ModelRateLimitError):
        await model(MESSAGES)
    assert (await model(MESSAGES + MESSAGES)).content[0]["text"] == "2 messages"
    assert len(model.calls) == 2


async def test_empty_queue_raises_unless_there_is_a_default() -> None:
    model = ScriptedChatModel()
    with pytest.raises(LookupError, match="no reply left for call #1"):
        await model(MESSAGES)
    model.default = "fallback"
    model.add_reply("queued")
    assert model.pending_replies == 1
    assert (await model(MESSAGES)).content[0]["text"] == "queued"
    assert (await model(MESSAGES)).content[0]["text"] == "fallback"


async def test_tool_choice_is_validated_like_a_real_model() -> None:
    model = ScriptedChatModel(default="x")
    with pytest.raises(ValueError, match="Invalid tool_choice"):
        await model(MESSAGES, tools=TOOLS, tool_choice="other")
    await model(MESSAGES, tools=TOOLS, tool_choice="any")


async def test_streaming_is_cumulative_with_one_id() -> None:
    blocks = [
        {"type": "thinking", "thinking": "abcd"},
        {"type": "text", "text": "Hello"},
        TOOL_USE,
    ]
    usage = ChatUsage(input_tokens=1, output_tokens=2, time=0.0)
    model = ScriptedChatModel(
        [ChatResponse(content=blocks, usage=usage, metadata={"m": 1})], stream=True, chunk_size=2
    )
    responses = [r async for r in await model(MESSAGES)]
    assert [r.content for r in responses] == [
        [{"type": "thinking", "thinking": "ab"}],
        [{"type": "thinking", "thinking": "abcd"}],
        [blocks[0], {"type": "text", "text": "He"}],
        [blocks[0], {"type": "text", "text": "Hell"}],
        [blocks[0], {"type": "text", "text": "Hello"}],
        [blocks[0], blocks[1], TOOL_USE],
    ]
    assert len({r.id for r in responses}) == 1
    assert [r.usage for r in responses][-2:] == [None, usage]
    assert responses[-1].metadata == {"m": 1}


async def test_streaming_without_chunk_size_yields_one_chunk_per_block() -> None:
    model = ScriptedChatModel([[{"type": "text", "text": "abc"}, TOOL_USE]], stream=True)
    responses = [r async for r in await model(MESSAGES)]
    assert len(responses) == 2


async def test_slow_stream_can_be_cancelled() -> None:
    model = ScriptedChatModel(["x" * 100], stream=True, chunk_size=1, chunk_delay=10)
    stream = await model(MESSAGES)
    assert (await anext(stream)).content[0]["text"] == "x"
    task = asyncio.ensure_future(anext(stream))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
