"""The mirrored ReActAgent with answers a real server cuts: tool calls truncated by the token
limit never run, and summarizing after ``max_iters`` leaves no call without a result."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from agent_helpers import make_agent, tool_pairs_are_complete, user

from desktop_agent.model import OpenAIChatModel
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall
from desktop_agent.tool import Toolkit, ToolResponse


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


def _model(server: OpenAICompatServer) -> OpenAIChatModel:
    return OpenAIChatModel(
        "test-model", api_key="k", client_kwargs={"base_url": server.base_url, "max_retries": 0}
    )


def _note_toolkit(calls: list[dict[str, str]]) -> Toolkit:
    def save_note(title: str, text: str = "") -> ToolResponse:
        """Save a note.

        Args:
            title (str): The title.
            text (str): The text.
        """
        calls.append({"title": title, "text": text})
        return ToolResponse(content=[{"type": "text", "text": "Saved."}])

    toolkit = Toolkit()
    toolkit.register_tool_function(save_note)
    return toolkit


async def test_a_call_cut_by_the_token_limit_is_not_run(server: OpenAICompatServer) -> None:
    calls: list[dict[str, str]] = []
    cut = ScriptedToolCall("save_note", '{"title": "Shopping", "text": "eggs, mil')
    server.add_reply(ScriptedReply(tool_calls=[cut], finish_reason="length"))
    model = _model(server)
    agent = make_agent(model, toolkit=_note_toolkit(calls))
    try:
        reply = await agent(user("note my shopping list"))
    finally:
        await model.aclose()
    assert calls == []  # repaired JSON ({"title": ..., "text": "eggs, mil"}) would have run
    results = [
        block
        for msg in await agent.memory.get_memory()
        for block in msg.get_content_blocks("tool_result")
    ]
    assert len(results) == 1
    assert "not executed" in str(results[0]["output"]) and "'length'" in str(results[0]["output"])
    assert reply.metadata == {}  # a plain reply's metadata stays AgentScope's
    assert len(server.chat_requests) == 1
    assert await tool_pairs_are_complete(agent)


async def test_a_complete_call_still_runs(server: OpenAICompatServer) -> None:
    calls: list[dict[str, str]] = []
    server.add_reply(
        ScriptedReply(tool_calls=[ScriptedToolCall("save_note", {"title": "T", "text": "x"})]),
        "Saved it.",
    )
    model = _model(server)
    agent = make_agent(model, toolkit=_note_toolkit(calls))
    try:
        await agent(user("note"))
    finally:
        await model.aclose()
    assert calls == [{"title": "T", "text": "x"}]


async def test_summarizing_leaves_no_tool_call_without_a_result(
    server: OpenAICompatServer,
) -> None:
    calls: list[dict[str, str]] = []
    note = ScriptedToolCall("save_note", {"title": "T"})
    server.add_reply(
        ScriptedReply(tool_calls=[note]),
        # The summary call offers no tools; a server may still answer with one.
        ScriptedReply("In short: saved.", tool_calls=[ScriptedToolCall("save_note", {})]),
        "Next.",
    )
    model = _model(server)
    agent = make_agent(model, toolkit=_note_toolkit(calls), max_iters=1)
    try:
        reply = await agent(user("note"))
        assert reply.get_text_content() == "In short: saved."
        assert not reply.has_content_blocks("tool_use")
        assert await tool_pairs_are_complete(agent)
        await agent(user("and?"))
    finally:
        await model.aclose()
    messages = server.chat_requests[-1].messages
    called = [c["id"] for m in messages for c in m.get("tool_calls") or []]
    answered = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
    assert called == answered
