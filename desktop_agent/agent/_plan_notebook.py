"""``PlanNotebook``: a plan with subtasks that the model manages through tools.

A deliberately small take on AgentScope's plan module: one current plan at a time (plus a
list of finished ones), plan tools returning readable ``ToolResponse``s, and a hint message
that ``ReActAgent._reasoning`` adds (marked "hint") before every model call so the model
keeps track of where it is. Subtask states: ``todo`` → ``in_progress`` → ``done`` (or
``abandoned``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from desktop_agent.message import Msg, TextBlock
from desktop_agent.module import StateModule
from desktop_agent.tool import ToolResponse

SubTaskState = Literal["todo", "in_progress", "done", "abandoned"]

_NO_PLAN_HINT = (
    "<system-hint>If the user's task is complex and needs several steps, you can call "
    "'create_plan' to make a plan with subtasks first.</system-hint>"
)


class SubTask(BaseModel):
    """One step of a plan."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="A short name of the subtask.")
    description: str = Field(description="What the subtask is about.")
    expected_outcome: str = Field(description="What should exist once it is done.")
    state: SubTaskState = "todo"
    outcome: str | None = None


class Plan(BaseModel):
    """A plan: a goal and its ordered subtasks."""

    model_config = ConfigDict(extra="forbid")

    name: str
    description: str
    expected_outcome: str
    subtasks: list[SubTask]
    state: Literal["todo", "in_progress", "done", "abandoned"] = "todo"
    outcome: str | None = None


def _response(text: str, success: bool = True) -> ToolResponse:
    return ToolResponse(content=[TextBlock(type="text", text=text)], metadata={"success": success})


def _render(plan: Plan) -> str:
    lines = [f"Plan '{plan.name}' ({plan.state}): {plan.description}"]
    for index, sub in enumerate(plan.subtasks):
        lines.append(f"{index}. [{sub.state}] {sub.name}: {sub.description}")
    return "\n".join(lines)


class PlanNotebook(StateModule):
    """Holds the current plan and offers the tools to manage it.

    Args:
        max_subtasks: The most subtasks a plan may have (no limit by default).
    """

    def __init__(self, max_subtasks: int | None = None) -> None:
        super().__init__()
        self.max_subtasks = max_subtasks
        self.current_plan: Plan | None = None
        self.historical_plans: list[Plan] = []
        self.register_state("current_plan", _dump_plan, _load_plan)
        self.register_state(
            "historical_plans",
            lambda plans: [p.model_dump() for p in plans],
            lambda data: [Plan.model_validate(p) for p in data],
        )

    def list_tools(self) -> list[Callable[..., Any]]:
        """The plan tools, to register in a toolkit."""
        return [
            self.create_plan,
            self.update_subtask_state,
            self.finish_subtask,
            self.view_subtasks,
            self.finish_plan,
        ]

    async def get_current_hint(self) -> Msg | None:
        """A user message telling the model the plan's state and what to do next."""
        plan = self.current_plan
        if plan is None:
            return Msg("user", _NO_PLAN_HINT, "user")
        return Msg("user", f"<system-hint>{self._next_step(plan)}</system-hint>", "user")

    @staticmethod
    def _next_step(plan: Plan) -> str:
        rendered = _render(plan)
        for index, sub in enumerate(plan.subtasks):
            if sub.state == "in_progress":
                return (
                    f"The current plan:\n{rendered}\nYou are working on subtask {index} "
                    f"('{sub.name}'). Call 'finish_subtask' with its outcome once it is done."
                )
            if sub.state == "todo":
                return (
                    f"The current plan:\n{rendered}\nThe next subtask is {index} "
                    f"('{sub.name}'). Call 'update_subtask_state' to mark it 'in_progress' "
                    "and start it."
                )
        return (
            f"The current plan:\n{rendered}\nAll subtasks are finished. Call 'finish_plan' "
            "with the final outcome and answer the user."
        )

    async def create_plan(
        self,
        name: str,
        description: str,
        expected_outcome: str,
        subtasks: list[SubTask],
    ) -> ToolResponse:
        """Create a plan to solve a complex task step by step; it replaces the current one.

        Args:
            name: A short name of the plan.
            description: The goal of the plan.
            expected_outcome: What should exist once the plan is done.
            subtasks: The ordered subtasks.
        """
        try:
            plan = Plan(
                name=name,
                description=description,
                expected_outcome=expected_outcome,
                subtasks=[SubTask.model_validate(s) for s in subtasks],
            )
        except ValidationError as exc:
            return _response(f"Invalid plan: {exc}", success=False)
        if self.max_subtasks is not None and len(plan.subtasks) > self.max_subtasks:
            return _response(
                f"A plan may have at most {self.max_subtasks} subtasks, got {len(plan.subtasks)}.",
                success=False,
            )
        if self.current_plan is not None:
            self.current_plan.state = "abandoned"
            self.historical_plans.append(self.current_plan)
        self.current_plan = plan
        return _response(f"Plan '{name}' created.\n{_render(plan)}")

    def _subtask(self, subtask_idx: int) -> SubTask | ToolResponse:
        if self.current_plan is None:
            return _response("There is no current plan. Call 'create_plan' first.", False)
        if not 0 <= subtask_idx < len(self.current_plan.subtasks):
            return _response(
                f"Invalid subtask index {subtask_idx}; the plan has "
                f"{len(self.current_plan.subtasks)} subtasks.",
                success=False,
            )
        return self.current_plan.subtasks[subtask_idx]

    async def update_subtask_state(self, subtask_idx: int, state: SubTaskState) -> ToolResponse:
        """Change the state of a subtask of the current plan.

        Args:
            subtask_idx: The index of the subtask, starting from 0.
            state: The new state: 'todo', 'in_progress', 'done' or 'abandoned'.
        """
        sub = self._subtask(subtask_idx)
        if isinstance(sub, ToolResponse):
            return sub
        sub.state = state
        assert self.current_plan is not None
        if state == "in_progress":
            self.current_plan.state = "in_progress"
        return _response(f"Subtask {subtask_idx} ('{sub.name}') is now '{state}'.")

    async def finish_subtask(self, subtask_idx: int, subtask_outcome: str) -> ToolResponse:
        """Mark a subtask of the current plan as done and record its outcome.

        Args:
            subtask_idx: The index of the subtask, starting from 0.
            subtask_outcome: What the subtask produced.
        """
        sub = self._subtask(subtask_idx)
        if isinstance(sub, ToolResponse):
            return sub
        sub.state, sub.outcome = "done", subtask_outcome
        return _response(f"Subtask {subtask_idx} ('{sub.name}') is done.")

    async def view_subtasks(self, subtask_idx: list[int]) -> ToolResponse:
        """Show the details of subtasks of the current plan.

        Args:
            subtask_idx: The indices of the subtasks to show.
        """
        shown = []
        for index in subtask_idx:
            sub = self._subtask(index)
            if isinstance(sub, ToolResponse):
                return sub
            shown.append(f"Subtask {index}:\n{sub.model_dump_json(indent=2)}")
        return _response("\n".join(shown))

    async def finish_plan(self, state: Literal["done", "abandoned"], outcome: str) -> ToolResponse:
        """Finish the current plan, either done or abandoned.

        Args:
            state: 'done' if the goal was reached, else 'abandoned'.
            outcome: What the plan produced, or why it was abandoned.
        """
        plan = self.current_plan
        if plan is None:
            return _response("There is no current plan to finish.", success=False)
        plan.state, plan.outcome = state, outcome
        self.historical_plans.append(plan)
        self.current_plan = None
        return _response(f"Plan '{plan.name}' is finished ({state}).")


def _dump_plan(plan: Plan | None) -> dict[str, Any] | None:
    return plan.model_dump() if plan is not None else None


def _load_plan(data: dict[str, Any] | None) -> Plan | None:
    return Plan.model_validate(data) if data is not None else None
