"""``SessionBase``: the async interface every session backend implements."""

from __future__ import annotations

import inspect
from typing import Any

import desktop_agent.session as session_pkg
from desktop_agent.module import StateModule
from desktop_agent.session import JSONSession, SessionBase


class Counter(StateModule):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self.register_state("count")


class DictSession(SessionBase):
    """A backend keeping states in a dict, as a user would write one."""

    def __init__(self) -> None:
        self.saved: dict[str, dict[str, Any]] = {}

    async def save_session_state(
        self, session_id: str, user_id: str = "", **state_modules_mapping: StateModule
    ) -> None:
        self.saved[session_id] = {k: m.state_dict() for k, m in state_modules_mapping.items()}

    async def load_session_state(
        self,
        session_id: str,
        user_id: str = "",
        allow_not_exist: bool = True,
        **state_modules_mapping: StateModule,
    ) -> None:
        for name, module in state_modules_mapping.items():
            module.load_state_dict(self.saved[session_id][name])


async def test_a_custom_backend_saves_and_loads_modules() -> None:
    session = DictSession()
    counter = Counter()
    counter.count = 3
    await session.save_session_state("s1", counter=counter)
    restored = Counter()
    await session.load_session_state("s1", counter=restored)
    assert restored.count == 3


def test_signatures_match_the_reference() -> None:
    save = inspect.signature(SessionBase.save_session_state).parameters
    load = inspect.signature(SessionBase.load_session_state).parameters
    assert list(save) == ["self", "session_id", "user_id", "state_modules_mapping"]
    assert list(load) == [
        "self",
        "session_id",
        "user_id",
        "allow_not_exist",
        "state_modules_mapping",
    ]
    assert save["user_id"].default == "" and load["allow_not_exist"].default is True
    assert inspect.iscoroutinefunction(SessionBase.save_session_state)
    assert inspect.iscoroutinefunction(SessionBase.load_session_state)


def test_abstract_markers_are_not_enforced() -> None:
    assert isinstance(SessionBase(), SessionBase)


def test_json_session_is_a_session_and_exports_are_curated() -> None:
    assert issubclass(JSONSession, SessionBase)
    assert session_pkg.__all__ == ["JSONSession", "SessionBase", "SessionFileError"]
    assert issubclass(session_pkg.SessionFileError, ValueError)
