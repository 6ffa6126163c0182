"""Servers reuse tool-call ids (``call_0`` in every turn); each call is still answered in
its own turn, so a strict server accepts the next request."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from agent_helpers import make_agent, user

from desktop_agent.model import OpenAIChatModel
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall
from desktop_agent.tool import Toolkit, register_desktop_tools


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


def unanswered_calls(messages: list[dict[str, Any]]) -> list[str]:
    """Tool calls of each assistant message without a ``tool`` message right after it."""
    missing: list[str] = []
    for index, message in enumerate(messages):
        calls = [call["id"] for call in message.get("tool_calls") or []]
        answered: set[str] = set()
        for later in messages[index + 1 :]:
            if later["role"] != "tool":
                break
            answered.add(later["tool_call_id"])
        missing += [call for call in calls if call not in answered]
    return missing


async def test_a_call_cut_short_reusing_an_earlier_id_is_answered(
    server: OpenAICompatServer,
) -> None:
    calculate = ScriptedToolCall("calculate", {"expression": "1+1"})  # id call_0
    slow = ScriptedToolCall("calculate", {"expression": "1+" * 200 + "1"})  # call_0 again
    server.add_reply(
        ScriptedReply(tool_calls=[calculate]),
        ScriptedReply("Two."),
        ScriptedReply(tool_calls=[slow], chunk_size=4, chunk_delay=0.02),
        ScriptedReply("Next answer."),
    )
    model = OpenAIChatModel(
        "test-model", api_key="k", client_kwargs={"base_url": server.base_url, "max_retries": 0}
    )
    toolkit = Toolkit()
    register_desktop_tools(toolkit)
    agent = make_agent(model, toolkit=toolkit)
    queue: asyncio.Queue[Any] = asyncio.Queue()
    agent.set_msg_queue_enabled(True, queue, copy=False)
    try:
        await agent(user("one plus one"))
        while not queue.empty():  # what the first turn printed
            queue.get_nowait()
        turn = asyncio.create_task(agent(user("many ones")))
        while True:  # wait until the second call is streaming
            msg, _, _ = await asyncio.wait_for(queue.get(), timeout=5)
            if msg.has_content_blocks("tool_use"):
                break
        await agent.interrupt()
        await asyncio.wait_for(turn, timeout=5)
        await agent(user("and now?"))
    finally:
        await model.aclose()

    last_request = server.chat_requests[-1].messages
    assert unanswered_calls(last_request) == []
    tool_messages = [m for m in last_request if m["role"] == "tool"]
    assert len(tool_messages) == 2
    assert "interrupted" in tool_messages[1]["content"]
