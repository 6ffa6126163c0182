"""PlanNotebook's tools, exact texts, hooks and state, as reference/agentscope-1.0-plan.md says."""

from __future__ import annotations

import json
from typing import Any

import pytest

from desktop_agent.message import ToolUseBlock
from desktop_agent.plan import Plan, PlanNotebook
from desktop_agent.tool import Toolkit, ToolResponse

SUBTASKS = [
    {"name": "Book", "description": "Book the flight", "expected_outcome": "A ticket"},
    {"name": "Pack", "description": "Pack the bag", "expected_outcome": "A bag"},
    {"name": "Go", "description": "Travel", "expected_outcome": "In Rome"},
]
NO_PLAN = "The current plan is None, you need to create a plan by calling create_plan() first."


def text(response: ToolResponse) -> str:
    assert response.metadata is None and len(response.content) == 1
    return str(response.content[0].get("text"))


async def notebook_with_plan() -> PlanNotebook:
    notebook = PlanNotebook()
    await notebook.create_plan("Trip", "Go to Rome", "In Rome", SUBTASKS)  # type: ignore[arg-type]
    return notebook


async def call(toolkit: Toolkit, tool_name: str, /, **arguments: Any) -> str:
    block = ToolUseBlock(type="tool_use", id="1", name=tool_name, input=arguments)
    last = None
    async for chunk in await toolkit.call_tool_function(block):
        last = chunk
    assert last is not None
    return str(last.content[0].get("text"))


def test_tool_order_and_attributes() -> None:
    notebook = PlanNotebook(max_subtasks=1)
    assert [t.__name__ for t in notebook.list_tools()] == [
        "view_subtasks",
        "update_subtask_state",
        "finish_subtask",
        "create_plan",
        "revise_current_plan",
        "finish_plan",
        "view_historical_plans",
        "recover_historical_plan",
    ]
    assert notebook.max_tasks == 1 and notebook.current_plan is None
    assert PlanNotebook.description.startswith("The plan-related tools. Activate this tool")


async def test_create_and_replace_plan() -> None:
    notebook = PlanNotebook(max_subtasks=1)  # never enforced
    created = await notebook.create_plan("Trip", "d", "o", SUBTASKS)  # type: ignore[arg-type]
    assert text(created) == "Plan 'Trip' created successfully."
    assert notebook.current_plan is not None and len(notebook.current_plan.subtasks) == 3
    replaced = await notebook.create_plan("Other", "d", "o", [])
    assert text(replaced) == (
        "The current plan named 'Trip' is replaced by the newly created plan named 'Other'."
    )
    assert await notebook.storage.get_plans() == []  # the replaced plan is dropped


async def test_tools_that_need_a_plan_raise_and_the_toolkit_reports_it() -> None:
    notebook = PlanNotebook()
    calls: list[tuple[Any, tuple[Any, ...]]] = [
        (notebook.view_subtasks, ([0],)),
        (notebook.update_subtask_state, (0, "in_progress")),
        (notebook.finish_subtask, (0, "x")),
        (notebook.revise_current_plan, (0, "bogus")),  # raises despite the collected error
    ]
    for method, args in calls:
        with pytest.raises(ValueError, match=r"create_plan\(\) first"):
            await method(*args)
    assert text(await notebook.finish_plan("done", "x")) == "There is no plan to finish."
    toolkit = Toolkit()
    for tool in notebook.list_tools():
        toolkit.register_tool_function(tool)
    assert await call(toolkit, "view_subtasks", subtask_idx=[0]) == f"Error: {NO_PLAN}"


async def test_update_subtask_state_checks_and_texts() -> None:
    notebook = await notebook_with_plan()
    update = notebook.update_subtask_state
    assert text(await update("x", "todo")) == (  # type: ignore[arg-type]
        "Invalid type for argument 'subtask_idx'. Expected 'int', but got '<class 'str'>'."
    )
    assert text(await update(-1, "todo")) == "Invalid subtask_idx '-1'. Must be between 0 and 2."
    assert text(await update(0, "done")) == (  # type: ignore[arg-type]
        "Invalid state 'done'. Must be one of 'todo', 'in_progress', 'abandoned'."
    )
    assert text(await update(1, "in_progress")) == (
        "Subtask (at index 0) named 'Book' is not done yet. You should finish the previous "
        "subtasks first."
    )
    assert text(await update("0", "in_progress")) == (  # type: ignore[arg-type]
        "Subtask at index 0, named 'Book' is marked as 'in_progress' successfully. "
        "The plan state has been updated to 'in_progress'."
    )
    assert text(await update(0, "in_progress")) == (
        "Subtask (at index 0) named 'Book' is already 'in_progress'. You should finish it first "
        "before starting another subtask."
    )
    assert text(await update(0, "todo")) == (
        "Subtask at index 0, named 'Book' is marked as 'todo' successfully. "
        "The plan state has been updated to 'todo'."
    )
    assert text(await update(2, "abandoned")) == (
        "Subtask at index 2, named 'Go' is marked as 'abandoned' successfully. "
    )


async def test_finish_subtask_activates_the_next_one_unconditionally() -> None:
    notebook = await notebook_with_plan()
    assert notebook.current_plan is not None
    notebook.current_plan.subtasks[1].state = "done"
    assert text(await notebook.finish_subtask(1, "x")) == (
        "Cannot finish subtask at index 1 because the previous subtask (at index 0) named "
        "'Book' is not done yet. You should finish the previous subtasks first."
    )
    assert text(await notebook.finish_subtask(0, "Booked")) == (
        "Subtask (at index 0) named 'Book' is marked as done successfully. The next subtask "
        "named 'Pack' is activated."
    )
    assert [s.state for s in notebook.current_plan.subtasks] == ["done", "in_progress", "todo"]
    await notebook.finish_subtask(1, "Packed")
    assert text(await notebook.finish_subtask(2, "Arrived")) == (
        "Subtask (at index 2) named 'Go' is marked as done successfully. "
    )
    assert notebook.current_plan.subtasks[2].outcome == "Arrived"
    assert notebook.current_plan.state == "todo"  # finish_subtask never refreshes it


async def test_view_subtasks_collects_invalid_indexes() -> None:
    notebook = await notebook_with_plan()
    assert notebook.current_plan is not None
    details = notebook.current_plan.subtasks[1].to_markdown(detailed=True)
    assert text(await notebook.view_subtasks([1, 4, -1])) == (
        f"Subtask at index 1:\n```\n{details}\n```\n\n"
        "Invalid subtask_idx '[4, -1]'. Must be between 0 and 2."
    )


async def test_revise_current_plan_actions_and_errors() -> None:
    notebook = await notebook_with_plan()
    revise = notebook.revise_current_plan
    new = {"name": "Visa", "description": "Get a visa", "expected_outcome": "A visa"}
    assert text(await revise("a", "add", new)) == (  # type: ignore[arg-type]
        "Error: Invalid type for argument 'subtask_idx'. Expected 'int', but got '<class 'str'>'."
    )
    assert text(await revise(0, "move", None)) == (  # type: ignore[arg-type]
        "Error: Invalid action 'move'. Must be one of 'add', 'revise', 'delete'."
    )
    assert text(await revise(0, "add")) == (
        "Error: The subtask must be provided when action is 'add', but got None."
    )
    assert text(await revise(3, "delete")) == (
        "Error: Invalid subtask_idx '3' for action 'delete'. Must be between 0 and 2."
    )
    assert text(await revise(4, "add", new)) == (  # type: ignore[arg-type]
        "Error: Invalid subtask_idx '4' for action 'add'. Must be between 0 and 3."
    )
    assert text(await revise(0, "add", new)) == "New subtask is added successfully at index 0."  # type: ignore[arg-type]
    assert text(await revise(1, "revise", {**new, "name": "Fly"})) == (  # type: ignore[arg-type]
        "Subtask at index 1 is revised successfully."
    )
    assert text(await revise(-1, "delete")) == (  # negative indexes pass (mirrored defect)
        "Subtask (named 'Go') at index -1 is deleted successfully."
    )
    assert notebook.current_plan is not None
    assert [s.name for s in notebook.current_plan.subtasks] == ["Visa", "Fly", "Pack"]


async def test_finish_view_and_recover_historical_plans() -> None:
    notebook = await notebook_with_plan()
    first = notebook.current_plan
    assert first is not None
    assert text(await notebook.finish_plan("done", "In Rome")) == (
        "The current plan is finished successfully as 'done'."
    )
    assert notebook.current_plan is None and first.outcome == "In Rome"
    assert text(await notebook.view_historical_plans()) == (
        f"Plan named 'Trip':\n- ID: {first.id}\n- Created at: {first.created_at}\n"
        "- Description: Go to Rome\n- State: done\n"
    )
    assert text(await notebook.recover_historical_plan("nope")) == (
        "Cannot find the plan with ID 'nope'."
    )
    assert text(await notebook.recover_historical_plan(first.id)) == (
        f"Historical plan named 'Trip' with ID '{first.id}' is recovered successfully."
    )
    assert notebook.current_plan is first and first.state == "done"
    await notebook.create_plan("Second", "d", "o", [])
    second = notebook.current_plan
    assert second is not None
    assert text(await notebook.recover_historical_plan(first.id)) == (
        f"The current plan named 'Second' is replaced by the historical plan named 'Trip' "
        f"with ID '{first.id}'."
    )
    assert second.state == "abandoned"
    assert second.outcome == (
        f"The plan execution is interrupted by a new plan with ID '{first.id}'."
    )
    assert [p.name for p in await notebook.storage.get_plans()] == ["Trip", "Second"]


async def test_plan_change_hooks_fire_after_changes_only() -> None:
    notebook = PlanNotebook()
    seen: list[tuple[str, str | None]] = []

    def sync_hook(nb: PlanNotebook, current: Plan | None) -> None:
        assert nb is notebook
        seen.append(("sync", current.name if current else None))

    async def async_hook(nb: PlanNotebook, current: Plan | None) -> None:
        seen.append(("async", current.state if current else None))

    notebook.register_plan_change_hook("a", sync_hook)
    notebook.register_plan_change_hook("b", async_hook)
    await notebook.create_plan("Trip", "d", "o", SUBTASKS)  # type: ignore[arg-type]
    await notebook.view_subtasks([0])
    await notebook.update_subtask_state(5, "todo")  # an error text: no hook
    await notebook.update_subtask_state(0, "in_progress")
    await notebook.finish_plan("abandoned", "no time")
    assert seen == [
        ("sync", "Trip"),
        ("async", "todo"),
        ("sync", "Trip"),
        ("async", "in_progress"),
        ("sync", None),
        ("async", None),
    ]
    notebook.remove_plan_change_hook("a")
    with pytest.raises(ValueError, match=r"Hook 'a' not found\."):
        notebook.remove_plan_change_hook("a")


async def test_a_failing_hook_propagates_after_the_change() -> None:
    notebook = PlanNotebook()

    def broken(nb: PlanNotebook, current: Plan | None) -> None:
        raise RuntimeError("hook broke")

    notebook.register_plan_change_hook("broken", broken)
    toolkit = Toolkit()
    for tool in notebook.list_tools():
        toolkit.register_tool_function(tool)
    result = await call(
        toolkit, "create_plan", name="T", description="d", expected_outcome="o", subtasks=[]
    )
    assert result == "Error: hook broke"
    assert notebook.current_plan is not None and notebook.current_plan.name == "T"


async def test_state_round_trip_through_json() -> None:
    notebook = await notebook_with_plan()
    await notebook.finish_subtask(0, "Booked")
    await notebook.finish_plan("done", "ok")
    await notebook.create_plan("Next", "d", "o", SUBTASKS[:1])  # type: ignore[arg-type]
    state = json.loads(json.dumps(notebook.state_dict()))
    assert list(state) == ["storage", "current_plan"]
    restored = PlanNotebook()
    restored.load_state_dict(state)
    assert restored.current_plan == notebook.current_plan
    assert await restored.storage.get_plans() == await notebook.storage.get_plans()
    empty = PlanNotebook()
    assert empty.state_dict() == {"storage": {"plans": {}}, "current_plan": None}
    with pytest.raises(KeyError, match="Key 'current_plan' not found"):
        PlanNotebook().load_state_dict({"storage": {"plans": {}}})
