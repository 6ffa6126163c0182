"""``InMemoryMemory``: marks, duplicates, deep copies, deletion, state (1.0.12+ API)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg


def msg(text: str, role: Any = "user", **kwargs: Any) -> Msg:
    return Msg(role, text, role, **kwargs)


async def filled(*marked: tuple[str, Any]) -> tuple[InMemoryMemory, list[Msg]]:
    memory = InMemoryMemory()
    messages = []
    for text, marks in marked:
        message = msg(text)
        messages.append(message)
        await memory.add(message, marks=marks)
    return memory, messages


async def texts(memory: InMemoryMemory, **kwargs: Any) -> list[str | None]:
    return [m.get_text_content() for m in await memory.get_memory(**kwargs)]


# -- add ------------------------------------------------------------------------------


async def test_add_none_is_a_no_op() -> None:
    memory = InMemoryMemory()
    await memory.add(None)
    await memory.add([])
    assert await memory.size() == 0


async def test_add_a_message_or_a_list() -> None:
    memory = InMemoryMemory()
    await memory.add(msg("a"))
    await memory.add([msg("b"), msg("c")])
    assert await texts(memory) == ["a", "b", "c"]
    assert await memory.size() == 3


@pytest.mark.parametrize(
    ("marks", "stored"), [(None, []), ("hint", ["hint"]), (["a", "b"], ["a", "b"]), ([], [])]
)
async def test_marks_may_be_none_a_string_or_a_list(marks: Any, stored: list[str]) -> None:
    memory = InMemoryMemory()
    await memory.add([msg("x"), msg("y")], marks=marks)
    assert [entry_marks for _, entry_marks in memory.content] == [stored, stored]
    assert memory.content[0][1] is not memory.content[1][1]


@pytest.mark.parametrize("marks", [1, ("a",), {"a"}, ["a", 2], [None]])
async def test_other_marks_raise_type_error(marks: Any) -> None:
    memory = InMemoryMemory()
    with pytest.raises(TypeError, match="The mark must be None, a string or a list of strings"):
        await memory.add(msg("x"), marks=marks)
    assert await memory.size() == 0


@pytest.mark.parametrize("memories", ["text", {"role": "user"}, [msg("ok"), "text"], 3])
async def test_adding_something_else_than_messages_raises_type_error(memories: Any) -> None:
    memory = InMemoryMemory()
    with pytest.raises(TypeError, match="The memories must be a Msg, a list of Msg or None"):
        await memory.add(memories)
    assert await memory.size() == 0


async def test_messages_already_stored_are_skipped_by_id() -> None:
    memory = InMemoryMemory()
    first = msg("a")
    await memory.add(first)
    await memory.add([first, msg("b")])
    twin = msg("c")
    twin.id = first.id
    await memory.add(twin)
    assert await texts(memory) == ["a", "b"]


async def test_allow_duplicates_stores_them() -> None:
    memory = InMemoryMemory()
    first = msg("a")
    await memory.add(first)
    await memory.add(first, allow_duplicates=True)
    assert await memory.size() == 2


async def test_duplicates_inside_one_call_are_not_checked() -> None:
    memory = InMemoryMemory()
    first = msg("a")
    await memory.add([first, first])
    assert await memory.size() == 2


async def test_add_stores_deep_copies() -> None:
    memory = InMemoryMemory()
    original = Msg("Friday", [{"type": "text", "text": "hi"}], "assistant", {"k": [1]})
    marks = ["m"]
    await memory.add(original, marks=marks)
    original.content[0]["text"] = "changed"
    original.metadata["k"].append(2)
    original.metadata = {"replaced": True}
    marks.append("later")
    stored, stored_marks = memory.content[0]
    assert stored is not original and stored.id == original.id
    assert stored.content == [{"type": "text", "text": "hi"}]
    assert stored.metadata == {"k": [1]}
    assert stored_marks == ["m"]


# -- get_memory -----------------------------------------------------------------------


async def test_get_memory_returns_the_stored_messages_in_a_new_list() -> None:
    memory, _ = await filled(("a", None), ("b", None))
    first = await memory.get_memory()
    assert [m for m, _ in memory.content] == first
    assert all(a is b for a, b in zip(first, (m for m, _ in memory.content), strict=True))
    assert first is not await memory.get_memory()


async def test_get_memory_filters_by_mark_and_exclude_mark() -> None:
    memory, _ = await filled(("a", "hint"), ("b", ["hint", "old"]), ("c", None), ("d", "old"))
    assert await texts(memory) == ["a", "b", "c", "d"]
    assert await texts(memory, mark="hint") == ["a", "b"]
    assert await texts(memory, exclude_mark="old") == ["a", "c"]
    assert await texts(memory, mark="hint", exclude_mark="old") == ["a"]
    assert await texts(memory, mark="none") == []


@pytest.mark.parametrize("argument", ["mark", "exclude_mark"])
@pytest.mark.parametrize("value", [1, ["hint"], b"hint"])
async def test_get_memory_rejects_non_string_marks(argument: str, value: Any) -> None:
    memory, _ = await filled(("a", "hint"))
    with pytest.raises(TypeError, match=f"The {argument} must be a string or None"):
        await memory.get_memory(**{argument: value})


async def test_the_summary_is_prepended_as_a_new_user_message() -> None:
    memory, _ = await filled(("a", "hint"), ("b", None))
    await memory.update_compressed_summary("We talked about cats.")
    got = await memory.get_memory(mark="hint")
    assert len(got) == 2
    summary = got[0]
    assert (summary.name, summary.content, summary.role) == (
        "user",
        "We talked about cats.",
        "user",
    )
    assert got[1].get_text_content() == "a"
    again = await memory.get_memory()
    assert again[0] is not summary and again[0].id != summary.id
    assert await memory.size() == 2  # the summary is not stored
    assert await texts(memory, prepend_summary=False) == ["a", "b"]


async def test_no_summary_message_when_the_summary_is_empty() -> None:
    memory, _ = await filled(("a", None))
    await memory.update_compressed_summary("")
    assert await texts(memory) == ["a"]


# -- delete, delete_by_mark, clear, size ----------------------------------------------


async def test_delete_by_ids_returns_the_count_and_ignores_unknown_ids() -> None:
    memory, messages = await filled(("a", None), ("b", None), ("c", None))
    assert await memory.delete([messages[0].id, "unknown", messages[2].id]) == 2
    assert await texts(memory) == ["b"]
    assert await memory.delete(["unknown"]) == 0
    assert await memory.delete([]) == 0


async def test_delete_removes_every_duplicate_of_an_id() -> None:
    memory = InMemoryMemory()
    first = msg("a")
    await memory.add([first, first])
    assert await memory.delete([first.id]) == 2


async def test_delete_by_mark_with_a_string_or_a_list() -> None:
    memory, _ = await filled(("a", "x"), ("b", ["x", "y"]), ("c", "y"), ("d", None), ("e", "z"))
    assert await memory.delete_by_mark("x") == 2
    assert await texts(memory) == ["c", "d", "e"]
    assert await memory.delete_by_mark(["y", "z", "absent"]) == 2
    assert await texts(memory) == ["d"]
    assert await memory.delete_by_mark([]) == 0


@pytest.mark.parametrize("mark", [["x", 1], 3, None, ("x",)])
async def test_delete_by_mark_rejects_non_string_marks(mark: Any) -> None:
    memory, _ = await filled(("a", "x"))
    with pytest.raises(TypeError):
        await memory.delete_by_mark(mark)
    assert await memory.size() == 1


async def test_clear_and_size() -> None:
    memory, _ = await filled(("a", None), ("b", "x"))
    await memory.update_compressed_summary("kept")
    assert await memory.size() == 2
    await memory.clear()
    assert await memory.size() == 0
    assert await memory.get_memory(prepend_summary=False) == []
    assert memory._compressed_summary == "kept"


# -- update_messages_mark ---------------------------------------------------------------


async def marks_of(memory: InMemoryMemory) -> list[list[str]]:
    return [list(marks) for _, marks in memory.content]


async def test_adding_a_mark_counts_only_messages_that_lacked_it() -> None:
    memory, _ = await filled(("a", None), ("b", "new"), ("c", "x"))
    assert await memory.update_messages_mark("new") == 2
    assert await marks_of(memory) == [["new"], ["new"], ["x", "new"]]


async def test_replacing_a_mark_only_touches_messages_carrying_the_old_one() -> None:
    memory, _ = await filled(("a", "old"), ("b", ["old", "new"]), ("c", None), ("d", "new"))
    assert await memory.update_messages_mark("new", old_mark="old") == 2
    assert await marks_of(memory) == [["new"], ["new"], [], ["new"]]


async def test_none_as_new_mark_removes_the_old_mark() -> None:
    memory, _ = await filled(("a", ["old", "k"]), ("b", None), ("c", "old"))
    assert await memory.update_messages_mark(None, old_mark="old") == 2
    assert await marks_of(memory) == [["k"], [], []]
    assert await memory.update_messages_mark(None) == 0


async def test_the_same_mark_as_old_and_new_counts_and_moves_it_last() -> None:
    memory, _ = await filled(("a", ["m", "k"]), ("b", None))
    assert await memory.update_messages_mark("m", old_mark="m") == 1
    assert await marks_of(memory) == [["k", "m"], []]


async def test_msg_ids_restrict_the_update() -> None:
    memory, messages = await filled(("a", "old"), ("b", "old"), ("c", None))
    ids = [messages[1].id, messages[2].id]
    assert await memory.update_messages_mark("new", msg_ids=ids) == 2
    assert await marks_of(memory) == [["old"], ["old", "new"], ["new"]]
    assert await memory.update_messages_mark("z", old_mark="old", msg_ids=ids) == 1
    assert await marks_of(memory) == [["old"], ["new", "z"], ["new"]]
    assert await memory.update_messages_mark("q", msg_ids=[]) == 0


async def test_update_is_visible_through_get_memory() -> None:
    memory, _ = await filled(("a", "hint"), ("b", None))
    await memory.update_messages_mark("seen", old_mark="hint")
    assert await texts(memory, mark="seen") == ["a"]
    assert await texts(memory, mark="hint") == []


@pytest.mark.parametrize(("new", "old"), [(1, None), ("x", 2), (["x"], None)])
async def test_update_rejects_non_string_marks(new: Any, old: Any) -> None:
    memory, _ = await filled(("a", None))
    with pytest.raises(TypeError):
        await memory.update_messages_mark(new, old_mark=old)


# -- state ----------------------------------------------------------------------------


async def test_state_dict_shape() -> None:
    memory, messages = await filled(("a", "hint"), ("b", None))
    await memory.update_compressed_summary("s")
    state = memory.state_dict()
    assert list(state) == ["_compressed_summary", "content"]
    assert state == {
        "_compressed_summary": "s",
        "content": [[messages[0].to_dict(), ["hint"]], [messages[1].to_dict(), []]],
    }
    assert state["content"][0][1] is memory.content[0][1]  # not copied
    assert json.loads(json.dumps(state)) == state


async def test_state_round_trip_keeps_ids_marks_summary_and_invocation_ids() -> None:
    memory = InMemoryMemory()
    await memory.add(
        Msg("Friday", [{"type": "text", "text": "hi"}], "assistant", invocation_id="r")
    )
    await memory.add(msg("b"), marks=["x", "y"])
    await memory.update_compressed_summary("summary")
    restored = InMemoryMemory()
    restored.load_state_dict(json.loads(json.dumps(memory.state_dict())))
    assert restored.state_dict() == memory.state_dict()
    assert restored.content[0][0].invocation_id == "r"
    assert restored._compressed_summary == "summary"


async def test_loading_one_state_twice_gives_independent_memories() -> None:
    memory, _ = await filled(("a", "x"))
    state = memory.state_dict()
    first, second = InMemoryMemory(), InMemoryMemory()
    first.load_state_dict(state)
    second.load_state_dict(state)
    await first.update_messages_mark("y")
    assert await marks_of(second) == [["x"]]
    assert await marks_of(memory) == [["x"]]


def test_strict_load_requires_content() -> None:
    memory = InMemoryMemory()
    with pytest.raises(KeyError) as info:
        memory.load_state_dict({"_compressed_summary": "s"})
    assert "Key 'content' not found in state_dict" in info.value.args[0]
    assert memory._compressed_summary == ""


async def test_non_strict_load_without_content_gives_an_empty_memory() -> None:
    memory, _ = await filled(("a", None))
    memory.load_state_dict({"_compressed_summary": "s"}, strict=False)
    assert await memory.size() == 0 and memory._compressed_summary == "s"


async def test_the_summary_defaults_to_empty() -> None:
    memory = InMemoryMemory()
    await memory.update_compressed_summary("old")
    memory.load_state_dict({"content": []})
    assert memory._compressed_summary == ""


def test_legacy_plain_message_dicts_load_without_marks() -> None:
    legacy = Msg("a", "old format", "user").to_dict()
    memory = InMemoryMemory()
    memory.load_state_dict({"content": [legacy, [Msg("b", "new", "user").to_dict(), ["m"]]]})
    assert [(m.get_text_content(), marks) for m, marks in memory.content] == [
        ("old format", []),
        ("new", ["m"]),
    ]
    assert memory.content[0][0].id == legacy["id"]


def test_tuple_pairs_are_accepted() -> None:
    memory = InMemoryMemory()
    memory.load_state_dict({"content": [(Msg("a", "x", "user").to_dict(), ["m"])]})
    assert memory.content[0][1] == ["m"]


@pytest.mark.parametrize(
    "entry",
    [
        "text",
        3,
        None,
        [],
        [{"name": "a", "content": "x", "role": "user"}],
        [{"name": "a", "content": "x", "role": "user"}, ["m"], "extra"],
        [{"name": "a", "content": "x", "role": "user"}, "m"],
        [{"name": "a", "content": "x", "role": "user"}, [1]],
        ["not a dict", []],
    ],
)
async def test_any_other_entry_raises_value_error_and_changes_nothing(entry: Any) -> None:
    memory, _ = await filled(("kept", None))
    good = Msg("b", "fine", "user").to_dict()
    with pytest.raises(ValueError, match="Memory entry 1 must be"):
        memory.load_state_dict({"_compressed_summary": "new", "content": [good, entry]})
    assert await texts(memory) == ["kept"]
    assert memory._compressed_summary == ""


@pytest.mark.parametrize("content", [{}, "x", None, 5])
def test_content_that_is_not_a_list_raises_value_error(content: Any) -> None:
    with pytest.raises(ValueError, match="The memory content must be a list"):
        InMemoryMemory().load_state_dict({"content": content})


def test_a_summary_that_is_not_a_string_raises_value_error() -> None:
    with pytest.raises(ValueError, match="compressed summary must be a string"):
        InMemoryMemory().load_state_dict({"_compressed_summary": ["x"], "content": []})


def test_a_bad_message_dict_names_its_entry() -> None:
    memory = InMemoryMemory()
    good = Msg("b", "fine", "user").to_dict()
    with pytest.raises(KeyError) as info:
        memory.load_state_dict({"content": [[good, []], [{"content": "x", "role": "user"}, []]]})
    assert info.value.args == ("name",)
    assert "while loading memory entry 1" in info.value.__notes__
    assert memory.content == []


def test_load_state_dict_rejects_a_non_dict() -> None:
    with pytest.raises(TypeError, match="expects a dict"):
        InMemoryMemory().load_state_dict([])  # type: ignore[arg-type]


async def test_a_deep_copy_of_the_memory_is_independent() -> None:
    memory, _ = await filled(("a", "x"))
    clone = copy.deepcopy(memory)
    await clone.update_messages_mark("y")
    clone.content[0][0].content = "changed"
    assert await marks_of(memory) == [["x"]]
    assert await texts(memory) == ["a"]
    assert clone.state_dict()["content"][0][1] == ["x", "y"]
