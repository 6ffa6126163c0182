"""``SubTask`` and ``Plan``: the pydantic models a :class:`PlanNotebook` manages.

Default pydantic config, as in AgentScope: unknown keys are ignored and assignment is
not validated. Timestamps are local time, ``"YYYY-mm-dd HH:MM:SS.mmm"`` (like
``Msg.timestamp``).
"""

from __future__ import annotations

from typing import Literal

import shortuuid
from pydantic import BaseModel, Field

from desktop_agent._utils import timestamp_now

State = Literal["todo", "in_progress", "done", "abandoned"]

_ONELINE_PREFIX = {
    "todo": "- []",
    "in_progress": "- [][WIP]",
    "done": "- [x]",
    "abandoned": "- [][Abandoned]",
}
_MARKDOWN_PREFIX = {
    "todo": "- [ ] ",
    "in_progress": "- [ ] [WIP]",
    "done": "- [x] ",
    "abandoned": "- [ ] [Abandoned]",
}


class SubTask(BaseModel):
    """The subtask model used in the plan module."""

    name: str = Field(
        description="The subtask name, should be concise, descriptive and notexceed 10 words."
    )
    description: str = Field(
        description=(
            "The subtask description, including the constraints, target and outcome to be "
            "achieved. The description should be clear, specific and concise, and all the "
            "constraints, target and outcome should be specific and measurable."
        )
    )
    expected_outcome: str = Field(
        description=(
            "The expected outcome of the subtask, which should be specific, concrete and "
            "measurable."
        )
    )
    outcome: str | None = Field(default=None, description="The actual outcome of the subtask.")
    state: State = Field(default="todo", description="The state of the subtask.")
    created_at: str = Field(
        default_factory=timestamp_now, description="The time the subtask was created."
    )
    finished_at: str | None = Field(default=None, description="The time the subtask was finished.")

    def finish(self, outcome: str) -> None:
        """Mark the subtask done with ``outcome``, now."""
        self.state = "done"
        self.outcome = outcome
        self.finished_at = timestamp_now()

    def to_oneline_markdown(self) -> str:
        """One line: a checkbox by state, a space and the name (``"- [][WIP] Book"``)."""
        return f"{_ONELINE_PREFIX.get(self.state, '- []')} {self.name}"

    def to_markdown(self, detailed: bool = False) -> str:
        """A checkbox line (``"- [ ] [WIP]Book"``), with the details when ``detailed``."""
        line = f"{_MARKDOWN_PREFIX.get(self.state, '- [ ] ')}{self.name}"
        if not detailed:
            return line
        lines = [
            line,
            f"\t- Created At: {self.created_at}",
            f"\t- Description: {self.description}",
            f"\t- Expected Outcome: {self.expected_outcome}",
            f"\t- State: {self.state}",
        ]
        if self.state == "done":
            lines += [f"\t- Finished At: {self.finished_at}", f"\t- Actual Outcome: {self.outcome}"]
        return "\n".join(lines)


class Plan(BaseModel):
    """A plan: a goal and its ordered subtasks."""

    id: str = Field(default_factory=shortuuid.uuid)
    name: str = Field(
        description="The plan name, should be concise, descriptive and not exceed 10 words."
    )
    description: str = Field(
        description=(
            "The plan description, including the constraints, target and outcome to be "
            "achieved. The description should be clear, specific and concise, and all the "
            "constraints, target and outcome should be specific and measurable."
        )
    )
    expected_outcome: str = Field(
        description=(
            "The expected outcome of the plan, which should be specific, concrete and measurable."
        )
    )
    subtasks: list[SubTask] = Field(description="A list of subtasks that make up the plan.")
    created_at: str = Field(
        default_factory=timestamp_now, description="The time the plan was created."
    )
    state: State = Field(default="todo", description="The state of the plan.")
    finished_at: str | None = Field(default=None, description="The time the plan was finished.")
    outcome: str | None = Field(default=None, description="The actual outcome of the plan.")

    def refresh_plan_state(self) -> str:
        """Move the plan between "todo" and "in_progress" after its subtasks.

        Returns:
            A sentence saying what changed, or "" when nothing did.
        """
        if self.state in ("done", "abandoned"):
            return ""
        working = any(subtask.state == "in_progress" for subtask in self.subtasks)
        if working and self.state == "todo":
            self.state = "in_progress"
            return "The plan state has been updated to 'in_progress'."
        if not working and self.state == "in_progress":
            self.state = "todo"
            return "The plan state has been updated to 'todo'."
        return ""

    def finish(self, state: Literal["done", "abandoned"], outcome: str) -> None:
        """End the plan as ``state`` (not validated) with ``outcome``, now."""
        self.state = state
        self.outcome = outcome
        self.finished_at = timestamp_now()

    def to_markdown(self, detailed: bool = False) -> str:
        """The plan as Markdown: heading, fields, then the subtask checklist."""
        return "\n".join(
            [
                f"# {self.name}",
                f"**Description**: {self.description}",
                f"**Expected Outcome**: {self.expected_outcome}",
                f"**State**: {self.state}",
                f"**Created At**: {self.created_at}",
                "## Subtasks",
                "\n".join(subtask.to_markdown(detailed) for subtask in self.subtasks),
            ]
        )
