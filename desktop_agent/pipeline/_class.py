"""Reusable pipeline objects around the pipeline functions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from desktop_agent.agent import AgentBase
from desktop_agent.message import Msg
from desktop_agent.pipeline._functional import fanout_pipeline, sequential_pipeline


class SequentialPipeline:
    """Runs its agents one after another, each on the previous reply."""

    def __init__(self, agents: Sequence[AgentBase]) -> None:
        self.agents = list(agents)

    async def __call__(self, msg: Msg | list[Msg] | None = None) -> Msg | list[Msg] | None:
        """Run the pipeline on ``msg`` and return the last reply."""
        return await sequential_pipeline(self.agents, msg)


class FanoutPipeline:
    """Runs its agents on copies of the same input, concurrently by default."""

    def __init__(self, agents: Sequence[AgentBase], enable_gather: bool = True) -> None:
        self.agents = list(agents)
        self.enable_gather = enable_gather

    async def __call__(self, msg: Msg | list[Msg] | None = None, **kwargs: Any) -> list[Msg]:
        """Run every agent on a copy of ``msg`` and return the replies in order."""
        return await fanout_pipeline(self.agents, msg, self.enable_gather, **kwargs)
