"""MsgHub: announcement, automatic broadcast of replies, membership changes."""

from __future__ import annotations

from typing import Any

import pytest

from desktop_agent.agent import AgentBase
from desktop_agent.message import Msg
from desktop_agent.pipeline import MsgHub


class Listener(AgentBase):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.set_console_output_enabled(False)
        self.observed: list[Any] = []

    async def reply(self, msg: Msg | None = None) -> Msg:
        return Msg(self.name, f"{self.name} speaks", "assistant")

    async def observe(self, msg: Msg | list[Msg] | None) -> None:
        self.observed.append(msg)


def _texts(agent: Listener) -> list[str]:
    return [m.content for m in agent.observed]


async def test_announcement_and_replies_reach_the_other_participants() -> None:
    a, b, c = Listener("a"), Listener("b"), Listener("c")
    announcement = Msg("host", "welcome", "system")
    async with MsgHub([a, b, c], announcement=announcement, name="room") as hub:
        assert hub.name == "room"
        await a()
        await b()
    await c()  # after the hub: nobody hears it

    assert _texts(a) == ["welcome", "b speaks"]
    assert _texts(b) == ["welcome", "a speaks"]
    assert _texts(c) == ["welcome", "a speaks", "b speaks"]
    assert a._subscribers == {}


async def test_add_delete_and_auto_broadcast_switch(caplog: pytest.LogCaptureFixture) -> None:
    a, b, c = Listener("a"), Listener("b"), Listener("c")
    async with MsgHub([a, b]) as hub:
        hub.add(c)
        await a()
        assert _texts(c) == ["a speaks"]
        hub.delete(b)
        await a()
        await b()
        assert _texts(b) == ["a speaks"]
        assert _texts(c) == ["a speaks", "a speaks"]
        hub.delete(Listener("stranger"))
        assert "skip its deletion" in caplog.text
        hub.set_auto_broadcast(False)
        await a()
        assert len(c.observed) == 2
        hub.set_auto_broadcast(True)
        await a()
        assert len(c.observed) == 3
        await hub.broadcast(Msg("host", "to all", "system"))
    assert _texts(a)[-1] == "to all" and _texts(c)[-1] == "to all"


async def test_hub_without_auto_broadcast_only_announces() -> None:
    a, b = Listener("a"), Listener("b")
    async with MsgHub([a, b], announcement=[Msg("h", "x", "system")], enable_auto_broadcast=False):
        await a()
    assert len(b.observed) == 1 and isinstance(b.observed[0], list)
