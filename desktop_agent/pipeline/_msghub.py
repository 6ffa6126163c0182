"""``MsgHub``: a group of agents that hear each other's replies.

Inside ``async with MsgHub(participants)``, every reply an agent produces through
``await agent(...)`` is delivered to the other participants' ``observe`` (by
``AgentBase.__call__``, through the subscriber lists the hub sets up).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType
from typing import Any

import shortuuid

from desktop_agent._logging import logger
from desktop_agent.agent import AgentBase
from desktop_agent.message import Msg


class MsgHub:
    """An async context manager that broadcasts the participants' replies to each other.

    Args:
        participants: The agents in the hub.
        announcement: Message(s) every participant observes on entry.
        enable_auto_broadcast: Deliver each reply to the other participants.
        name: The hub's name (a random id by default).
    """

    def __init__(
        self,
        participants: Sequence[AgentBase],
        announcement: Msg | list[Msg] | None = None,
        enable_auto_broadcast: bool = True,
        name: str | None = None,
    ) -> None:
        self.name = name or shortuuid.uuid()
        self.participants: list[AgentBase] = list(participants)
        self.announcement = announcement
        self.enable_auto_broadcast = enable_auto_broadcast

    async def __aenter__(self) -> MsgHub:
        """Set up the subscribers and broadcast the announcement."""
        self._reset_subscriber()
        if self.announcement is not None:
            await self.broadcast(self.announcement)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Remove the subscribers."""
        if self.enable_auto_broadcast:
            for agent in self.participants:
                agent.remove_subscribers(self.name)

    def _reset_subscriber(self) -> None:
        if self.enable_auto_broadcast:
            for agent in self.participants:
                agent.reset_subscribers(self.name, self.participants)

    def add(self, new_participant: AgentBase | list[AgentBase]) -> None:
        """Add agent(s) to the hub."""
        new = new_participant if isinstance(new_participant, list) else [new_participant]
        for agent in new:
            if agent not in self.participants:
                self.participants.append(agent)
        self._reset_subscriber()

    def delete(self, participant: AgentBase | list[AgentBase]) -> None:
        """Remove agent(s) from the hub."""
        gone = participant if isinstance(participant, list) else [participant]
        for agent in gone:
            if agent in self.participants:
                self.participants.remove(agent)
                if self.enable_auto_broadcast:
                    agent.remove_subscribers(self.name)
            else:
                logger.warning("Cannot find the agent with ID %s, skip its deletion.", agent.id)
        self._reset_subscriber()

    async def broadcast(self, msg: Msg | list[Msg]) -> None:
        """Have every participant observe ``msg``."""
        for agent in self.participants:
            await agent.observe(msg)

    def set_auto_broadcast(self, enable: bool) -> None:
        """Turn the automatic delivery of replies on or off."""
        if enable:
            self.enable_auto_broadcast = True
            self._reset_subscriber()
        else:
            self.enable_auto_broadcast = False
            for agent in self.participants:
                agent.remove_subscribers(self.name)

    def __repr__(self) -> str:
        names: list[Any] = [getattr(a, "name", a.id) for a in self.participants]
        return f"MsgHub(name={self.name!r}, participants={names!r})"
