"""SubTask, Plan, the storage and the hint generator, as reference/agentscope-1.0-plan.md says."""

from __future__ import annotations

import re

import pytest

from desktop_agent.plan import DefaultPlanToHint, InMemoryPlanStorage, Plan, SubTask

TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$")


def sub(name: str, state: str = "todo") -> SubTask:
    task = SubTask(name=name, description=f"Do {name}", expected_outcome=f"{name} done")
    task.state = state  # type: ignore[assignment]
    return task


def plan(*subtasks: SubTask) -> Plan:
    return Plan(name="Trip", description="Go", expected_outcome="There", subtasks=list(subtasks))


def test_subtask_defaults_and_finish() -> None:
    task = SubTask(name="Book", description="d", expected_outcome="o", unknown="ignored")  # type: ignore[call-arg]
    assert (task.state, task.outcome, task.finished_at) == ("todo", None, None)
    assert TIMESTAMP.match(task.created_at)
    task.state = "weird"  # type: ignore[assignment]  # assignment is not validated
    task.finish("Booked")
    assert (task.state, task.outcome) == ("done", "Booked")
    assert task.finished_at is not None and TIMESTAMP.match(task.finished_at)


@pytest.mark.parametrize(
    ("state", "oneline", "markdown"),
    [
        ("todo", "- [] Book", "- [ ] Book"),
        ("in_progress", "- [][WIP] Book", "- [ ] [WIP]Book"),
        ("done", "- [x] Book", "- [x] Book"),
        ("abandoned", "- [][Abandoned] Book", "- [ ] [Abandoned]Book"),
    ],
)
def test_subtask_markdown_prefixes(state: str, oneline: str, markdown: str) -> None:
    task = sub("Book", state)
    assert task.to_oneline_markdown() == oneline
    assert task.to_markdown() == markdown


def test_detailed_markdown_adds_outcome_only_when_done() -> None:
    task = sub("Book")
    assert task.to_markdown(detailed=True) == (
        f"- [ ] Book\n\t- Created At: {task.created_at}\n\t- Description: Do Book\n"
        "\t- Expected Outcome: Book done\n\t- State: todo"
    )
    task.finish("Booked")
    assert task.to_markdown(detailed=True).endswith(
        f"\t- State: done\n\t- Finished At: {task.finished_at}\n\t- Actual Outcome: Booked"
    )


def test_plan_fields_and_markdown() -> None:
    empty = plan()
    assert len(empty.id) == 22 and empty.state == "todo"
    assert empty.to_markdown() == (
        f"# Trip\n**Description**: Go\n**Expected Outcome**: There\n**State**: todo\n"
        f"**Created At**: {empty.created_at}\n## Subtasks\n"
    )
    full = Plan.model_validate(
        {
            "name": "T",
            "description": "D",
            "expected_outcome": "O",
            "subtasks": [{"name": "a", "description": "b", "expected_outcome": "c"}],
        }
    )
    assert isinstance(full.subtasks[0], SubTask)
    assert full.to_markdown().endswith("## Subtasks\n- [ ] a")


def test_refresh_plan_state_moves_only_between_todo_and_in_progress() -> None:
    current = plan(sub("a", "in_progress"), sub("b"))
    assert current.refresh_plan_state() == "The plan state has been updated to 'in_progress'."
    assert current.refresh_plan_state() == ""
    current.subtasks[0].state = "done"
    assert current.refresh_plan_state() == "The plan state has been updated to 'todo'."
    current.finish("abandoned", "gave up")
    assert current.refresh_plan_state() == "" and current.state == "abandoned"


async def test_in_memory_storage_order_override_and_state_round_trip() -> None:
    storage = InMemoryPlanStorage()
    first, second = plan(sub("a")), plan()
    await storage.add_plan(first)
    await storage.add_plan(second)
    await storage.add_plan(first)  # override keeps the position
    assert await storage.get_plans() == [first, second]
    assert (await storage.get_plans())[0] is first
    with pytest.raises(ValueError, match=f"Plan with id {first.id} already exists."):
        await storage.add_plan(first, override=False)
    state = storage.state_dict()
    assert list(state) == ["plans"] and list(state["plans"]) == [first.id, second.id]
    restored = InMemoryPlanStorage()
    restored.load_state_dict(state)
    assert await restored.get_plans() == [first, second]
    await restored.delete_plan(first.id)
    await restored.delete_plan("missing")
    assert await restored.get_plan(first.id) is None
    assert await restored.get_plan(second.id) == second


def _body(hint: str | None) -> str:
    assert hint is not None
    assert hint.startswith("<system-hint>") and hint.endswith("</system-hint>")
    return hint[len("<system-hint>") : -len("</system-hint>")]


def test_hint_for_each_plan_state() -> None:
    to_hint = DefaultPlanToHint()
    assert _body(to_hint(None)).startswith("If the user's query is complex")
    fresh = plan(sub("a"), sub("b"))
    beginning = _body(to_hint(fresh))
    assert beginning.startswith(f"The current plan:\n```\n{fresh.to_markdown()}\n```\n")
    assert beginning.endswith("call the 'finish_plan' function.\n")
    all_abandoned = plan(sub("a", "abandoned"))
    expected = DefaultPlanToHint.at_the_beginning.format(plan=all_abandoned.to_markdown())
    assert _body(to_hint(all_abandoned)) == expected
    working = plan(sub("a", "done"), sub("b", "in_progress"))
    assert "Now the subtask at index 1, named 'b', is 'in_progress'." in _body(to_hint(working))
    assert working.subtasks[1].to_markdown(detailed=True) in _body(to_hint(working))
    between = plan(sub("a", "done"), sub("b", "done"), sub("c"))
    assert "The first 2 subtasks are done, and there is no subtask 'in_progress'. Now Your" in (
        _body(to_hint(between))
    )
    end = plan(sub("a", "done"), sub("b", "abandoned"))
    assert "All the subtasks are done. Now your options are:" in _body(to_hint(end))


def test_hint_texts_are_overridable_class_attributes() -> None:
    class Short(DefaultPlanToHint):
        no_plan = "Plan if needed."
        hint_prefix, hint_suffix = "[", "]"

    assert Short()(None) == "[Plan if needed.]"

    class Silent(DefaultPlanToHint):
        no_plan = ""

    assert Silent()(None) is None
