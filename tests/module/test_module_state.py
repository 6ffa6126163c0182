"""``StateModule``: nested state, registration, (de)serialisation and its quirks."""

from __future__ import annotations

import json
from typing import Any

import pytest

from desktop_agent.module import StateModule


def missing(key: str) -> str:
    return (
        f"Key '{key}' not found in state_dict. Ensure that the state_dict contains all "
        "required keys."
    )


class Counter(StateModule):
    def __init__(self, count: int = 0) -> None:
        super().__init__()
        self.count = count
        self.register_state("count")


class Agent(StateModule):
    def __init__(self) -> None:
        super().__init__()
        self.name = "Friday"
        self.memory = Counter(1)
        self.tags = ["a"]
        self.toolkit = Counter(2)
        self.register_state("name")
        self.register_state("tags")


def test_state_dict_lists_children_first_then_registered_attributes() -> None:
    agent = Agent()
    state = agent.state_dict()
    assert list(state) == ["memory", "toolkit", "name", "tags"]
    assert state == {
        "memory": {"count": 1},
        "toolkit": {"count": 2},
        "name": "Friday",
        "tags": ["a"],
    }
    assert json.loads(json.dumps(state)) == state


def test_state_dict_does_not_copy_values() -> None:
    agent = Agent()
    assert agent.state_dict()["tags"] is agent.tags


def test_unregistered_attributes_are_not_state() -> None:
    agent = Agent()
    agent.scratch = 5  # type: ignore[attr-defined]
    assert "scratch" not in agent.state_dict()


def test_load_state_dict_restores_nested_modules() -> None:
    source = Agent()
    source.name, source.tags = "Jarvis", ["x", "y"]
    source.memory.count, source.toolkit.count = 10, 20
    target = Agent()
    target.load_state_dict(json.loads(json.dumps(source.state_dict())))
    assert (target.name, target.tags) == ("Jarvis", ["x", "y"])
    assert (target.memory.count, target.toolkit.count) == (10, 20)


def test_loading_ignores_extra_keys() -> None:
    agent = Agent()
    agent.load_state_dict({**agent.state_dict(), "unknown": 1, "name": "New"})
    assert agent.name == "New" and not hasattr(agent, "unknown")


@pytest.mark.parametrize("key", ["memory", "toolkit", "name", "tags"])
def test_strict_load_raises_key_error_for_a_missing_key(key: str) -> None:
    state = Agent().state_dict()
    del state[key]
    with pytest.raises(KeyError) as info:
        Agent().load_state_dict(state)
    assert info.value.args == (missing(key),)


def test_a_strict_load_that_fails_changes_nothing() -> None:
    agent = Agent()
    state = {"memory": {"count": 5}, "toolkit": {"count": 6}, "name": "New"}  # no "tags"
    with pytest.raises(KeyError):
        agent.load_state_dict(state)
    assert (agent.memory.count, agent.toolkit.count, agent.name) == (1, 2, "Friday")


def test_non_strict_load_skips_missing_keys() -> None:
    agent = Agent()
    agent.load_state_dict({"toolkit": {"count": 7}, "tags": []}, strict=False)
    assert (agent.memory.count, agent.toolkit.count, agent.name, agent.tags) == (1, 7, "Friday", [])


def test_strict_is_not_propagated_to_children() -> None:
    with pytest.raises(KeyError) as info:
        Agent().load_state_dict({"memory": {}}, strict=False)
    assert info.value.args == (missing("count"),)


def test_load_state_dict_rejects_a_non_dict() -> None:
    with pytest.raises(TypeError, match=r"Counter\.load_state_dict expects a dict, got list"):
        Counter().load_state_dict([])  # type: ignore[arg-type]


def test_custom_converters_are_used_both_ways() -> None:
    class Clock(StateModule):
        def __init__(self) -> None:
            super().__init__()
            self.ticks = {3, 1, 2}
            self.register_state("ticks", custom_to_json=sorted, custom_from_json=set)

    clock = Clock()
    assert clock.state_dict() == {"ticks": [1, 2, 3]}
    clock.load_state_dict({"ticks": [9, 8]})
    assert clock.ticks == {8, 9}


def test_a_failing_custom_from_json_changes_nothing() -> None:
    def explode(value: Any) -> Any:
        raise ValueError("bad")

    class Owner(StateModule):
        def __init__(self) -> None:
            super().__init__()
            self.child = Counter(1)
            self.first = "a"
            self.register_state("first")
            self.second = 0
            self.register_state("second", custom_from_json=explode)

    owner = Owner()
    with pytest.raises(ValueError, match="bad"):
        owner.load_state_dict({"child": {"count": 9}, "first": "b", "second": 1})
    assert (owner.child.count, owner.first, owner.second) == (1, "a", 0)


def test_register_state_of_a_missing_attribute_raises_attribute_error() -> None:
    with pytest.raises(AttributeError):
        Counter().register_state("nope")


def test_register_state_of_a_non_json_value_raises_type_error() -> None:
    counter = Counter()
    counter.lock = object()  # type: ignore[attr-defined]
    with pytest.raises(TypeError) as info:
        counter.register_state("lock")
    assert str(info.value) == (
        "Attribute 'lock' is not JSON serializable. Please provide a custom function to "
        "convert the attribute to a JSON serializable format."
    )
    counter.register_state("lock", custom_to_json=lambda _: "lock")
    assert counter.state_dict()["lock"] == "lock"


def test_registering_a_child_module_raises() -> None:
    agent = Agent()
    with pytest.raises(TypeError, match="'memory' is not JSON serializable"):
        agent.register_state("memory")  # the JSON check comes first
    with pytest.raises(ValueError) as info:
        agent.register_state("memory", custom_to_json=lambda m: m.count)
    assert str(info.value) == "Attribute `memory` is already registered as a module."


def test_re_registering_replaces_the_converters() -> None:
    counter = Counter(4)
    counter.register_state("count", custom_to_json=str, custom_from_json=int)
    assert counter.state_dict() == {"count": "4"}
    counter.load_state_dict({"count": "12"})
    assert counter.count == 12


def test_setting_a_module_before_super_init_raises_attribute_error() -> None:
    class Forgetful(StateModule):
        def __init__(self) -> None:
            self.plain = 1  # plain values are fine
            self.child = Counter()

    with pytest.raises(AttributeError) as info:
        Forgetful()
    assert str(info.value) == (
        "Call the super().__init__() method within the constructor of Forgetful before "
        "setting any attributes."
    )


def test_delattr_forgets_children_and_registered_attributes() -> None:
    agent = Agent()
    del agent.memory
    del agent.tags
    assert agent.state_dict() == {"toolkit": {"count": 2}, "name": "Friday"}
    agent.load_state_dict({"toolkit": {"count": 3}, "name": "N"})  # no longer required
    assert not hasattr(agent, "memory") and not hasattr(agent, "tags")


def test_reassigning_a_child_to_a_plain_value_keeps_the_old_child_for_loading() -> None:
    agent = Agent()
    old = agent.memory
    agent.memory = 42  # type: ignore[assignment]
    assert "memory" not in agent.state_dict()  # state_dict re-checks isinstance
    with pytest.raises(KeyError):
        agent.load_state_dict({"toolkit": {"count": 0}, "name": "n", "tags": []})
    agent.load_state_dict(
        {"memory": {"count": 9}, "toolkit": {"count": 0}, "name": "n", "tags": []}
    )
    assert old.count == 9 and agent.memory == 42


def test_assigning_a_new_child_replaces_the_old_one() -> None:
    agent = Agent()
    agent.memory = Counter(77)
    assert agent.state_dict()["memory"] == {"count": 77}
    assert list(agent.state_dict())[:2] == ["memory", "toolkit"]
