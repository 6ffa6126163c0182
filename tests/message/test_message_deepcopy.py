"""``copy.deepcopy(msg)``: a true deep copy through the JSON-specialised fast path."""

from __future__ import annotations

import copy
from collections import OrderedDict
from typing import Any

from desktop_agent.message import Msg


def _msg() -> Msg:
    blocks: list[Any] = [
        {"type": "text", "text": "hi"},
        {"type": "tool_use", "id": "c1", "name": "f", "input": {"a": [1, 2, {"b": None}]}},
        {"type": "tool_result", "id": "c1", "name": "f", "output": [{"type": "text", "text": "r"}]},
    ]
    return Msg("Friday", blocks, "assistant", {"usage": {"in": 3}}, "t", "resp-1")


def test_copy_is_equal_but_shares_no_container() -> None:
    msg = _msg()
    clone = copy.deepcopy(msg)
    assert type(clone) is Msg and clone is not msg
    assert vars(clone) == vars(msg)
    assert clone.id == msg.id
    assert clone.content is not msg.content
    assert clone.content[1]["input"]["a"][2] is not msg.content[1]["input"]["a"][2]
    assert clone.metadata["usage"] is not msg.metadata["usage"]


def test_changing_the_original_does_not_reach_the_copy() -> None:
    msg = _msg()
    clone = copy.deepcopy(msg)
    msg.content[0]["text"] = "changed"
    msg.content[1]["input"]["a"].append(3)
    msg.metadata["usage"]["in"] = 99
    msg.metadata = {"new": True}
    assert clone.content[0]["text"] == "hi"
    assert clone.content[1]["input"]["a"] == [1, 2, {"b": None}]
    assert clone.metadata == {"usage": {"in": 3}}


def test_shared_containers_stay_shared_and_cycles_survive() -> None:
    shared = {"k": [1]}
    loop: list[Any] = ["x"]
    loop.append(loop)
    msg = Msg("a", [shared, shared], "user", metadata={"loop": loop})  # type: ignore[list-item]
    clone = copy.deepcopy(msg)
    assert clone.content[0] is clone.content[1] and clone.content[0] is not shared
    assert clone.metadata["loop"][1] is clone.metadata["loop"]
    assert clone.metadata["loop"] is not loop


def test_a_message_referring_to_itself_refers_to_its_copy() -> None:
    msg = Msg("a", "x", "user")
    msg.metadata["self"] = msg
    clone = copy.deepcopy(msg)
    assert clone.metadata["self"] is clone


def test_non_json_values_are_deep_copied_with_their_types() -> None:
    class Box:
        def __init__(self, items: list[int]) -> None:
            self.items = items

    ordered = OrderedDict(a=[1])
    msg = Msg("a", "x", "user", metadata={"t": (1, [2]), "o": ordered, "box": Box([3]), 1: "k"})
    clone = copy.deepcopy(msg)
    assert clone.metadata["t"] == (1, [2]) and type(clone.metadata["t"]) is tuple
    assert clone.metadata["t"][1] is not msg.metadata["t"][1]
    assert type(clone.metadata["o"]) is OrderedDict and clone.metadata["o"]["a"] is not ordered["a"]
    assert clone.metadata["box"].items == [3]
    assert clone.metadata["box"] is not msg.metadata["box"]
    assert clone.metadata[1] == "k"


def test_extra_attributes_and_subclasses_are_copied() -> None:
    class Noted(Msg):
        pass

    msg = Noted("a", "x", "user")
    msg.note = ["n"]  # type: ignore[attr-defined]
    clone = copy.deepcopy(msg)
    assert type(clone) is Noted
    assert clone.note == ["n"] and clone.note is not msg.note  # type: ignore[attr-defined]


def test_messages_inside_a_list_are_copied_once_each() -> None:
    msg = _msg()
    first, second = copy.deepcopy([msg, msg])
    assert first is second and first is not msg
