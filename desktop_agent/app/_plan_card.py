"""The plan checklist shown in the chat: a plan-change hook that prints the current plan.

With plans on (``Settings.plan_mode``), the agent gets a ``PlanNotebook``. This hook runs
after every change the model makes to a plan (create, revise, start or finish a subtask,
finish, recover) and prints one chat message per plan — the same ``Msg`` object every
time, so the conversation updates its row in place: a live checklist in the answer. The
message is only printed, never added to the memory, so the model never reads it and the
session does not keep it (the plan itself is kept in the notebook's state).

``metadata[PLAN_CHECKLIST]`` holds what the chat view draws (:func:`plan_checklist`); the
text content is the same checklist in Markdown, for copying and one-line summaries.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from desktop_agent.message import Msg, TextBlock

if TYPE_CHECKING:
    from desktop_agent.plan import Plan, PlanNotebook

PLAN_CHECKLIST = "plan_checklist"
"""The metadata key of a plan checklist message."""
HOOK_NAME = "chat_checklist"

_MARKS = {"todo": "[ ]", "in_progress": "[~]", "done": "[x]", "abandoned": "[-]"}


def plan_checklist(plan: Plan, *, replaced: bool = False) -> dict[str, Any]:
    """What the chat view shows of ``plan``: names and states, JSON-ready."""
    return {
        "id": plan.id,
        "name": plan.name,
        "state": plan.state,
        "replaced": replaced,
        "subtasks": [{"name": s.name, "state": s.state} for s in plan.subtasks],
    }


def checklist_text(checklist: dict[str, Any]) -> str:
    """The checklist as Markdown text."""
    lines = [f"Plan: {checklist['name']} ({checklist['state']})"]
    lines += [
        f"- {_MARKS.get(s['state'], '[ ]')} {s['name']}" for s in checklist.get("subtasks", [])
    ]
    return "\n".join(lines)


def is_plan_checklist(msg: Msg | None) -> bool:
    """Whether ``msg`` is a plan checklist printed by :class:`PlanCard`."""
    return msg is not None and isinstance(msg.metadata.get(PLAN_CHECKLIST), dict)


class PlanCard:
    """A plan-change hook printing the plans of ``agent``'s notebook into the chat.

    Attributes:
        agent: Prints the checklist (``agent.print``: the chat service's message queue).
    """

    def __init__(self, agent: Any) -> None:
        """Print through ``agent.print``."""
        self.agent = agent
        self._msgs: dict[str, Msg] = {}
        self._shown: Plan | None = None

    async def __call__(self, notebook: PlanNotebook, plan: Plan | None) -> None:
        """Show the changed plan; a plan it replaced (or that just finished) too."""
        previous = self._shown
        if previous is not None and previous is not plan:
            replaced = plan is not None and previous.state not in ("done", "abandoned")
            await self._print(previous, replaced=replaced)
        self._shown = plan
        if plan is not None:
            await self._print(plan)

    async def _print(self, plan: Plan, *, replaced: bool = False) -> None:
        checklist = plan_checklist(plan, replaced=replaced)
        msg = self._msgs.get(plan.id)
        if msg is None:
            msg = Msg(str(self.agent.name), "", "assistant")
            self._msgs[plan.id] = msg
        msg.content = [TextBlock(type="text", text=checklist_text(checklist))]
        msg.metadata = {PLAN_CHECKLIST: checklist}
        await self.agent.print(msg, True)


# One card per notebook: an agent rebuilt around the same notebook (new settings) keeps
# updating the rows already shown instead of starting new ones.
_CARDS: weakref.WeakKeyDictionary[PlanNotebook, PlanCard] = weakref.WeakKeyDictionary()


def attach_plan_card(notebook: PlanNotebook, agent: Any) -> PlanCard:
    """Show ``notebook``'s plans in ``agent``'s chat; its card, printing through ``agent``."""
    card = _CARDS.get(notebook)
    if card is None:
        card = _CARDS[notebook] = PlanCard(agent)
    card.agent = agent
    notebook.register_plan_change_hook(HOOK_NAME, card)
    return card
