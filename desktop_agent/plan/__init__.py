"""Plans (mirror of ``agentscope.plan``): a notebook of plans the model manages by tools.

``PlanNotebook`` keeps the current plan, offers its eight tools to a ``ReActAgent``
(``plan_notebook=``), produces the ``<system-hint>`` the agent adds before each reasoning
step, and calls plan-change hooks after every change (the app's live checklist uses them).
"""

from desktop_agent.plan._plan_model import Plan, SubTask
from desktop_agent.plan._plan_notebook import PlanNotebook
from desktop_agent.plan._plan_to_hint import DefaultPlanToHint
from desktop_agent.plan._storage import InMemoryPlanStorage, PlanStorageBase

__all__ = [
    "DefaultPlanToHint",
    "InMemoryPlanStorage",
    "Plan",
    "PlanNotebook",
    "PlanStorageBase",
    "SubTask",
]
