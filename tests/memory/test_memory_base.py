"""``MemoryBase``: the compressed summary state and the unenforced interface."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

import desktop_agent.memory as memory_pkg
from desktop_agent.memory import InMemoryMemory, MemoryBase
from desktop_agent.message import Msg
from desktop_agent.module import StateModule


class Minimal(MemoryBase):
    async def add(self, memories: Any, marks: Any = None, **kwargs: Any) -> None:
        return None

    async def delete(self, msg_ids: list[str], **kwargs: Any) -> int:
        return 0

    async def size(self) -> int:
        return 0

    async def clear(self) -> None:
        return None

    async def get_memory(self, *args: Any, **kwargs: Any) -> list[Msg]:
        return []


def test_memory_is_a_state_module_with_a_registered_summary() -> None:
    memory = Minimal()
    assert isinstance(memory, StateModule)
    assert memory.state_dict() == {"_compressed_summary": ""}


async def test_update_compressed_summary_changes_the_state() -> None:
    memory = Minimal()
    await memory.update_compressed_summary("earlier: we met")
    assert memory.state_dict() == {"_compressed_summary": "earlier: we met"}
    fresh = Minimal()
    fresh.load_state_dict(memory.state_dict())
    assert fresh._compressed_summary == "earlier: we met"


async def test_marks_are_optional_and_unsupported_by_default() -> None:
    memory = Minimal()
    with pytest.raises(NotImplementedError, match="Minimal does not implement delete_by_mark"):
        await memory.delete_by_mark("hint")
    with pytest.raises(NotImplementedError, match="update_messages_mark"):
        await memory.update_messages_mark("new", "old")


def test_abstract_markers_are_not_enforced() -> None:
    assert isinstance(MemoryBase(), MemoryBase)


def test_the_interface_is_async() -> None:
    names = ["add", "delete", "size", "clear", "get_memory", "update_compressed_summary"]
    names += ["delete_by_mark", "update_messages_mark"]
    for name in names:
        assert inspect.iscoroutinefunction(getattr(MemoryBase, name)), name
        assert inspect.iscoroutinefunction(getattr(InMemoryMemory, name)), name


def test_get_memory_signature_matches_the_reference() -> None:
    parameters = inspect.signature(InMemoryMemory.get_memory).parameters
    assert [p for p in parameters if p != "kwargs"] == [
        "self",
        "mark",
        "exclude_mark",
        "prepend_summary",
    ]
    assert parameters["prepend_summary"].default is True


def test_memory_package_exports() -> None:
    assert memory_pkg.__all__ == ["InMemoryMemory", "MemoryBase"]
