"""``PlanNotebook``: the current plan, its tools for the model, hints and change hooks.

Mirrors AgentScope 1.0.21's ``agentscope.plan.PlanNotebook``: the tool names, parameter
schemas and result texts are the model-facing contract, so they are exact (stray spaces
included). The defects the reference lists are mirrored too (``max_subtasks`` is not
enforced, ``finish_subtask`` activates the next subtask unconditionally, ...).
"""

from __future__ import annotations

import inspect
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from desktop_agent.message import Msg, TextBlock
from desktop_agent.module import StateModule
from desktop_agent.plan._plan_model import Plan, SubTask
from desktop_agent.plan._plan_to_hint import DefaultPlanToHint
from desktop_agent.plan._storage import InMemoryPlanStorage, PlanStorageBase
from desktop_agent.tool import ToolResponse

PlanChangeHook = Callable[["PlanNotebook", Plan | None], Awaitable[None] | None]

_NO_PLAN = "The current plan is None, you need to create a plan by calling create_plan() first."
_ACTIONS = ("add", "revise", "delete")
_SETTABLE_STATES = ("todo", "in_progress", "abandoned")


def _text(text: str) -> ToolResponse:
    return ToolResponse(content=[TextBlock(type="text", text=text)])


def _as_index(subtask_idx: Any) -> Any:
    """``int(subtask_idx)`` for a numeric string; anything else unchanged."""
    if isinstance(subtask_idx, str):
        try:
            return int(subtask_idx)
        except ValueError:
            return subtask_idx
    return subtask_idx


def _is_closed(subtask: SubTask) -> bool:
    return subtask.state in ("done", "abandoned")


class PlanNotebook(StateModule):
    """Holds the current plan and historical plans, and offers the tools to manage them."""

    description: str = (
        "The plan-related tools. Activate this tool when you need to execute complex task, "
        "e.g. building a website or a game. Once activated, you'll enter the plan mode, where "
        "you will be guided to complete the given query by creating and following a plan, and "
        "hint message wrapped by <system-hint></system-hint> will guide you to complete the "
        "task. If you think the user no longer wants to perform the current task, you need to "
        "confirm with the user and call the 'finish_plan' function."
    )

    def __init__(
        self,
        max_subtasks: int | None = None,
        plan_to_hint: Callable[[Plan | None], str | None] | None = None,
        storage: PlanStorageBase | None = None,
    ) -> None:
        """Create an empty notebook.

        Args:
            max_subtasks: Stored as ``max_tasks``; not enforced (as in AgentScope).
            plan_to_hint: Turns the current plan into a hint; ``DefaultPlanToHint()``.
            storage: Where finished plans go; an ``InMemoryPlanStorage`` by default.
        """
        super().__init__()
        self.max_tasks = max_subtasks
        self.plan_to_hint = plan_to_hint if plan_to_hint is not None else DefaultPlanToHint()
        self.storage = storage if storage is not None else InMemoryPlanStorage()
        self.current_plan: Plan | None = None
        self._plan_change_hooks: OrderedDict[str, PlanChangeHook] = OrderedDict()
        self.register_state("current_plan", _dump_plan, _load_plan)

    def list_tools(self) -> list[Callable[..., Awaitable[ToolResponse]]]:
        """The plan tools, in the order a ``ReActAgent`` registers them."""
        return [
            self.view_subtasks,
            self.update_subtask_state,
            self.finish_subtask,
            self.create_plan,
            self.revise_current_plan,
            self.finish_plan,
            self.view_historical_plans,
            self.recover_historical_plan,
        ]

    async def get_current_hint(self) -> Msg | None:
        """``Msg("user", hint, "user")`` for the current plan, or ``None`` without a hint."""
        text = self.plan_to_hint(self.current_plan)
        if text:
            return Msg("user", text, "user")
        return None

    # -- hooks --------------------------------------------------------------------------

    def register_plan_change_hook(self, hook_name: str, hook: PlanChangeHook) -> None:
        """Call ``hook(notebook, current_plan)`` after every change (replaces a namesake)."""
        self._plan_change_hooks[hook_name] = hook

    def remove_plan_change_hook(self, hook_name: str) -> None:
        """Remove a hook.

        Raises:
            ValueError: No hook has that name.
        """
        if hook_name not in self._plan_change_hooks:
            raise ValueError(f"Hook '{hook_name}' not found.")
        del self._plan_change_hooks[hook_name]

    async def _changed(self) -> None:
        for hook in list(self._plan_change_hooks.values()):
            result = hook(self, self.current_plan)
            if inspect.isawaitable(result):
                await result

    def _plan(self) -> Plan:
        if self.current_plan is None:
            raise ValueError(_NO_PLAN)
        return self.current_plan

    # -- tools --------------------------------------------------------------------------

    async def create_plan(
        self,
        name: str,
        description: str,
        expected_outcome: str,
        subtasks: list[SubTask],
    ) -> ToolResponse:
        """Create a plan by given name and sub-tasks.

        Args:
            name (`str`):
                The plan name, should be concise, descriptive and not exceed
                10 words.
            description (`str`):
                The plan description, including the constraints, target and
                outcome to be achieved. The description should be clear,
                specific and concise, and all the constraints, target and
                outcome should be specific and measurable.
            expected_outcome (`str`):
                The expected outcome of the plan, which should be specific,
                concrete and measurable.
            subtasks (`list[SubTask]`):
                A list of sequential sub-tasks that make up the plan.
        """
        plan = Plan(
            name=name,
            description=description,
            expected_outcome=expected_outcome,
            subtasks=[SubTask.model_validate(subtask) for subtask in subtasks],
        )
        if self.current_plan is None:
            text = f"Plan '{name}' created successfully."
        else:
            text = (
                f"The current plan named '{self.current_plan.name}' is replaced by the newly "
                f"created plan named '{name}'."
            )
        self.current_plan = plan
        await self._changed()
        return _text(text)

    async def revise_current_plan(
        self,
        subtask_idx: int,
        action: Literal["add", "revise", "delete"],
        subtask: SubTask | None = None,
    ) -> ToolResponse:
        """Revise the current plan by adding, revising or deleting a sub-task.

        Args:
            subtask_idx (`int`):
                The index of the sub-task to be revised, starting from 0.
            action (`Literal["add", "revise", "delete"]`):
                The action to be performed on the sub-task. If "add", the
                sub-task will be inserted before the given index. If "revise",
                the sub-task at the given index will be revised. If "delete",
                the sub-task at the given index will be deleted.
            subtask (`SubTask | None`, optional):
                The sub-task to be added or revised. Required if action is
                "add" or "revise".
        """
        index = _as_index(subtask_idx)
        if not isinstance(index, int):
            return _text(
                "Error: Invalid type for argument 'subtask_idx'. Expected 'int', but got "
                f"'{type(index)}'."
            )
        errors = []
        if action not in _ACTIONS:
            errors.append(f"Invalid action '{action}'. Must be one of 'add', 'revise', 'delete'.")
        if action in ("add", "revise") and subtask is None:
            errors.append(f"The subtask must be provided when action is '{action}', but got None.")
        plan = self._plan()
        size = len(plan.subtasks)
        if action != "add" and index >= size:
            errors.append(
                f"Invalid subtask_idx '{index}' for action '{action}'. Must be between 0 and "
                f"{size - 1}."
            )
        if action == "add" and not 0 <= index <= size:
            errors.append(
                f"Invalid subtask_idx '{index}' for action 'add'. Must be between 0 and {size}."
            )
        if errors:
            return _text("Error: " + errors[0])
        return await self._revise(plan, index, action, subtask)

    async def _revise(
        self, plan: Plan, index: int, action: str, subtask: SubTask | None
    ) -> ToolResponse:
        new = SubTask.model_validate(subtask) if subtask is not None else None
        if action == "delete":
            removed = plan.subtasks.pop(index)
            text = f"Subtask (named '{removed.name}') at index {index} is deleted successfully."
        elif action == "add":
            assert new is not None
            plan.subtasks.insert(index, new)
            text = f"New subtask is added successfully at index {index}."
        else:
            assert new is not None
            plan.subtasks[index] = new
            text = f"Subtask at index {index} is revised successfully."
        await self._changed()
        return _text(text)

    def _index_error(self, plan: Plan, subtask_idx: Any) -> tuple[int, str | None]:
        """The index as an int, and the error text if it is not a valid one."""
        index = _as_index(subtask_idx)
        if not isinstance(index, int):
            return 0, (
                f"Invalid type for argument 'subtask_idx'. Expected 'int', but got '{type(index)}'."
            )
        if not 0 <= index < len(plan.subtasks):
            return index, (
                f"Invalid subtask_idx '{index}'. Must be between 0 and {len(plan.subtasks) - 1}."
            )
        return index, None

    async def update_subtask_state(
        self,
        subtask_idx: int,
        state: Literal["todo", "in_progress", "abandoned"],
    ) -> ToolResponse:
        """Update the state of a subtask by given index and state. Note if you
        want to mark a subtask as done, you SHOULD call `finish_subtask`
        instead with the specific outcome.

        Args:
            subtask_idx (`int`):
                The index of the subtask to be updated, starting from 0.
            state (`Literal["todo", "in_progress", "abandoned"]`):
                The new state of the subtask. If you want to mark a subtask
                as done, you SHOULD call `finish_subtask` instead with the
                specific outcome.
        """
        plan = self._plan()
        index, error = self._index_error(plan, subtask_idx)
        if error is not None:
            return _text(error)
        if state not in _SETTABLE_STATES:
            return _text(
                f"Invalid state '{state}'. Must be one of 'todo', 'in_progress', 'abandoned'."
            )
        if state == "in_progress":
            blocker = _start_blocker(plan, index)
            if blocker is not None:
                return _text(blocker)
        subtask = plan.subtasks[index]
        subtask.state = state
        suffix = plan.refresh_plan_state()
        await self._changed()
        return _text(
            f"Subtask at index {index}, named '{subtask.name}' is marked as '{state}' "
            f"successfully. {suffix}"
        )

    async def finish_subtask(self, subtask_idx: int, subtask_outcome: str) -> ToolResponse:
        """Label the subtask as done by given index and outcome.

        Args:
            subtask_idx (`int`):
                The index of the sub-task to be marked as done, starting from 0.
            subtask_outcome (`str`):
                The specific outcome of the sub-task, should exactly match the
                expected outcome in the sub-task description. SHOULDN'T be what
                you did or a general description; it SHOULD be the specific data,
                information, or path to the file.
        """
        plan = self._plan()
        index, error = self._index_error(plan, subtask_idx)
        if error is not None:
            return _text(error)
        for earlier, subtask in enumerate(plan.subtasks[:index]):
            if not _is_closed(subtask):
                return _text(
                    f"Cannot finish subtask at index {index} because the previous subtask (at "
                    f"index {earlier}) named '{subtask.name}' is not done yet. You should "
                    "finish the previous subtasks first."
                )
        finished = plan.subtasks[index]
        finished.finish(subtask_outcome)
        text = (
            f"Subtask (at index {index}) named '{finished.name}' is marked as done successfully. "
        )
        if index + 1 < len(plan.subtasks):
            following = plan.subtasks[index + 1]
            following.state = "in_progress"
            text += f"The next subtask named '{following.name}' is activated."
        await self._changed()
        return _text(text)

    async def view_subtasks(self, subtask_idx: list[int]) -> ToolResponse:
        """View the details of the sub-tasks by given indexes.

        Args:
            subtask_idx (`list[int]`):
                The indexes of the sub-tasks to be viewed, starting from 0.
        """
        plan = self._plan()
        size = len(plan.subtasks)
        pieces, invalid = [], []
        for index in subtask_idx:
            if isinstance(index, int) and 0 <= index < size:
                details = plan.subtasks[index].to_markdown(detailed=True)
                pieces.append(f"Subtask at index {index}:\n```\n{details}\n```\n")
            else:
                invalid.append(index)
        if invalid:
            pieces.append(f"Invalid subtask_idx '{invalid}'. Must be between 0 and {size - 1}.")
        return _text("\n".join(pieces))

    async def finish_plan(
        self,
        state: Literal["done", "abandoned"],
        outcome: str,
    ) -> ToolResponse:
        """Finish the current plan by given outcome, or abandon it with the
        given reason if the user no longer wants to perform it. Note that you
        SHOULD confirm with the user before abandoning the plan.

        Args:
            state (`Literal["done", "abandoned"]`):
                The state to finish the plan. If "done", the plan will be
                marked as done with the given outcome. If "abandoned", the
                plan will be abandoned with the given reason.
            outcome (`str`):
                The specific outcome of the plan if state is "done", or the
                reason for abandoning the plan if state is "abandoned".
        """
        plan = self.current_plan
        if plan is None:
            return _text("There is no plan to finish.")
        plan.finish(state, outcome)
        await self.storage.add_plan(plan)
        self.current_plan = None
        await self._changed()
        return _text(f"The current plan is finished successfully as '{state}'.")

    async def view_historical_plans(self) -> ToolResponse:
        """View the historical plans."""
        pieces = [
            f"Plan named '{plan.name}':\n- ID: {plan.id}\n- Created at: {plan.created_at}\n"
            f"- Description: {plan.description}\n- State: {plan.state}\n"
            for plan in await self.storage.get_plans()
        ]
        return _text("\n".join(pieces))

    async def recover_historical_plan(self, plan_id: str) -> ToolResponse:
        """Recover a historical plan by given plan ID, the plan ID can be
        obtained by calling `view_historical_plans`. Note the recover
        operation will override the current plan if exists.

        Args:
            plan_id (`str`):
                The ID of the historical plan to be recovered.
        """
        recovered = await self.storage.get_plan(plan_id)
        if recovered is None:
            return _text(f"Cannot find the plan with ID '{plan_id}'.")
        current = self.current_plan
        if current is not None:
            if current.state != "done":
                current.finish(
                    "abandoned",
                    f"The plan execution is interrupted by a new plan with ID '{recovered.id}'.",
                )
            await self.storage.add_plan(current)
            text = (
                f"The current plan named '{current.name}' is replaced by the historical plan "
                f"named '{recovered.name}' with ID '{recovered.id}'."
            )
        else:
            text = (
                f"Historical plan named '{recovered.name}' with ID '{recovered.id}' is "
                "recovered successfully."
            )
        self.current_plan = recovered
        await self._changed()
        return _text(text)


def _start_blocker(plan: Plan, index: int) -> str | None:
    """Why subtask ``index`` cannot start now, or ``None`` when it can."""
    for position, subtask in enumerate(plan.subtasks):
        if position < index and not _is_closed(subtask):
            return (
                f"Subtask (at index {position}) named '{subtask.name}' is not done yet. You "
                "should finish the previous subtasks first."
            )
        if subtask.state == "in_progress":
            return (
                f"Subtask (at index {position}) named '{subtask.name}' is already "
                "'in_progress'. You should finish it first before starting another subtask."
            )
    return None


def _dump_plan(plan: Plan | None) -> dict[str, Any] | None:
    return plan.model_dump() if plan is not None else None


def _load_plan(data: dict[str, Any] | None) -> Plan | None:
    return Plan.model_validate(data) if data else None
