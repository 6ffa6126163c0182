"""Plans in the app: with ``plan_mode`` the agent gets a PlanNotebook and the chat shows the
plan as one checklist row updated in place (issue 18); without it, no plan tools."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from pydantic import SecretStr

from desktop_agent.app import AgentState, ChatService, Conversation, Provider, Settings
from desktop_agent.app._plan_card import PLAN_CHECKLIST, is_plan_checklist
from desktop_agent.message import Msg
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall

SUBTASKS = [
    {"name": "Book the flight", "description": "Book it", "expected_outcome": "A ticket"},
    {"name": "Find a hotel", "description": "Find one", "expected_outcome": "A booking"},
]


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


async def _service(server: OpenAICompatServer, plan_mode: bool) -> ChatService:
    provider = Provider("Test", server.base_url, "m", SecretStr("k"), "environment")
    return ChatService(Conversation(), Settings(plan_mode=plan_mode), provider)


@pytest.fixture
async def planning(server: OpenAICompatServer) -> AsyncIterator[ChatService]:
    service = await _service(server, plan_mode=True)
    yield service
    await service.aclose()


def _plan_rows(conversation: Conversation) -> list[Msg]:
    return [e.msg for e in conversation.entries if e.msg is not None and is_plan_checklist(e.msg)]


async def test_the_plan_shows_as_one_live_checklist_row(
    planning: ChatService, server: OpenAICompatServer
) -> None:
    conversation = planning._conversation
    seen: list[list[str]] = []

    def record(_event: Any) -> None:
        for msg in _plan_rows(conversation):
            states = [s["state"] for s in msg.metadata[PLAN_CHECKLIST]["subtasks"]]
            if not seen or seen[-1] != states:
                seen.append(states)

    conversation.subscribe(record)
    server.add_reply(
        ScriptedReply(
            tool_calls=[
                ScriptedToolCall(
                    "create_plan",
                    {
                        "name": "Trip",
                        "description": "Go",
                        "expected_outcome": "There",
                        "subtasks": SUBTASKS,
                    },
                )
            ]
        ),
        ScriptedReply(
            tool_calls=[
                ScriptedToolCall("update_subtask_state", {"subtask_idx": 0, "state": "in_progress"})
            ]
        ),
        ScriptedReply(
            tool_calls=[
                ScriptedToolCall("finish_subtask", {"subtask_idx": 0, "subtask_outcome": "Booked"})
            ]
        ),
        ScriptedReply("The flight is booked; the hotel is next."),
    )
    await planning.send("Plan my trip")

    (row,) = _plan_rows(conversation)  # one row, updated in place
    checklist = row.metadata[PLAN_CHECKLIST]
    assert checklist["name"] == "Trip" and checklist["state"] == "in_progress"
    assert [(s["name"], s["state"]) for s in checklist["subtasks"]] == [
        ("Book the flight", "done"),
        ("Find a hotel", "in_progress"),
    ]
    assert seen == [["todo", "todo"], ["in_progress", "todo"], ["done", "in_progress"]]
    # The model saw the plan tools and the plan hint; the checklist never reached it.
    first, *_, last = server.chat_requests
    assert "create_plan" in [t["function"]["name"] for t in first.body["tools"]]
    assert "<system-hint>" in str(first.body["messages"][-1])
    assert "Now the subtask at index 1" in str(last.body["messages"])
    assert "Plan: Trip" not in str(last.body["messages"])
    memory = await planning.memory.get_memory()
    assert not any(is_plan_checklist(m) for m in memory)
    # The plan is part of the conversation's saved state.
    state = planning.agent_state.state_dict()
    assert state["plan_notebook"]["current_plan"]["name"] == "Trip"
    restored = AgentState()
    restored.load_state_dict(state)
    assert restored.plan_notebook is not None
    assert restored.plan_notebook.current_plan is not None
    assert restored.plan_notebook.current_plan.name == "Trip"


async def test_without_plan_mode_there_are_no_plan_tools(server: OpenAICompatServer) -> None:
    service = await _service(server, plan_mode=False)
    try:
        server.add_reply(ScriptedReply("Hi."))
        await service.send("Hello")
        tools = [t["function"]["name"] for t in server.chat_requests[-1].body.get("tools", [])]
        assert "create_plan" not in tools
        assert "<system-hint>" not in str(server.chat_requests[-1].body["messages"])
        assert "plan_notebook" not in service.agent_state.state_dict()
    finally:
        await service.aclose()


def test_plan_mode_is_off_by_default() -> None:
    assert Settings().plan_mode is False
