"""Where a :class:`PlanNotebook` keeps finished (historical) plans."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from desktop_agent.module import StateModule
from desktop_agent.plan._plan_model import Plan


class PlanStorageBase(StateModule):
    """Stores plans by id. Subclasses implement the four async methods (not enforced)."""

    async def add_plan(self, plan: Plan) -> None:
        """Store ``plan``."""
        raise NotImplementedError

    async def delete_plan(self, plan_id: str) -> None:
        """Forget the plan with ``plan_id``."""
        raise NotImplementedError

    async def get_plans(self) -> list[Plan]:
        """Every stored plan."""
        raise NotImplementedError

    async def get_plan(self, plan_id: str) -> Plan | None:
        """The plan with ``plan_id``, or ``None``."""
        raise NotImplementedError


class InMemoryPlanStorage(PlanStorageBase):
    """Plans in an ordered dict keyed by id; its state is ``{"plans": {id: plan}}``."""

    def __init__(self) -> None:
        super().__init__()
        self.plans: OrderedDict[str, Plan] = OrderedDict()
        self.register_state("plans", _dump_plans, _load_plans)

    async def add_plan(self, plan: Plan, override: bool = True) -> None:
        """Store ``plan``; an overridden id keeps its position.

        Raises:
            ValueError: The id is taken and ``override`` is False.
        """
        if plan.id in self.plans and not override:
            raise ValueError(f"Plan with id {plan.id} already exists.")
        self.plans[plan.id] = plan

    async def delete_plan(self, plan_id: str) -> None:
        """Forget the plan with ``plan_id`` (a missing id is ignored)."""
        self.plans.pop(plan_id, None)

    async def get_plans(self) -> list[Plan]:
        """The stored plans themselves, in insertion order (a new list)."""
        return list(self.plans.values())

    async def get_plan(self, plan_id: str) -> Plan | None:
        """The stored plan with ``plan_id``, or ``None``."""
        return self.plans.get(plan_id)


def _dump_plans(plans: OrderedDict[str, Plan]) -> dict[str, Any]:
    return {plan_id: plan.model_dump() for plan_id, plan in plans.items()}


def _load_plans(data: dict[str, Any]) -> OrderedDict[str, Plan]:
    return OrderedDict((plan_id, Plan.model_validate(plan)) for plan_id, plan in data.items())
