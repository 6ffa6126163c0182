"""``SessionMemory.take_changes``: the first entry that changed since the last save."""

from __future__ import annotations

import pytest

from desktop_agent.app._session_memory import SessionMemory
from desktop_agent.message import Msg


async def memory_of(count: int) -> SessionMemory:
    memory = SessionMemory()
    await memory.add([Msg("user", f"m{n}", "user") for n in range(count)])
    memory.mark_saved()
    return memory


def texts(changes: tuple[int, list[list[object]]]) -> tuple[int, list[object]]:
    at, entries = changes
    return at, [entry[0]["content"] for entry in entries]  # type: ignore[index]


async def test_nothing_changed_means_nothing_to_save() -> None:
    memory = await memory_of(100)
    assert memory.take_changes() == (100, [])


async def test_added_messages_are_the_change() -> None:
    memory = await memory_of(100)
    await memory.add(Msg("user", "new", "user"))
    assert texts(memory.take_changes()) == (100, ["new"])
    assert memory.take_changes() == (101, [])  # taken: saved from now on


async def test_a_delete_changes_from_the_deleted_message_on() -> None:
    memory = await memory_of(100)
    await memory.delete([memory.content[40][0].id])
    at, entries = texts(memory.take_changes())
    assert at == 40 and entries == [f"m{n}" for n in range(41, 100)]


@pytest.mark.parametrize(
    ("mutate", "first"),
    [
        (lambda content: content.__setitem__(slice(60, None), content[61:]), 60),  # a new path
        (lambda content: content.__delitem__(slice(10, 12)), 10),
        (lambda content: content.insert(5, content[0]), 5),
        (lambda content: content.insert(-50, content[0]), 50),  # lands before entry 50
        (lambda content: content.pop(), 99),
        (lambda content: content.clear(), 0),
    ],
)
async def test_list_operations_on_the_entries_are_tracked(mutate: object, first: int) -> None:
    memory = await memory_of(100)
    mutate(memory.content)  # type: ignore[operator]
    assert memory.take_changes()[0] == first


async def test_a_reassigned_content_or_metadata_near_the_end_is_a_change() -> None:
    memory = await memory_of(100)
    memory.content[97][0].content = "edited"
    memory.content[99][0].metadata = {"finish": "stop"}
    assert texts(memory.take_changes()) == (97, ["edited", "m98", "m99"])


async def test_a_mark_is_a_change_of_its_message() -> None:
    memory = await memory_of(100)
    await memory.update_messages_mark("hint", msg_ids=[memory.content[30][0].id])
    assert memory.take_changes()[0] == 30


async def test_a_failed_save_gives_the_changes_back() -> None:
    memory = await memory_of(10)
    await memory.add(Msg("user", "new", "user"))
    at, _ = memory.take_changes()
    memory.unsaved_from(at)
    assert texts(memory.take_changes()) == (10, ["new"])


async def test_a_loaded_state_counts_as_changed_until_marked_saved() -> None:
    memory = await memory_of(3)
    other = SessionMemory()
    other.load_state_dict(memory.state_dict())
    assert other.take_changes()[0] == 0
    other.load_state_dict(memory.state_dict())
    other.mark_saved()
    assert other.take_changes() == (3, [])


# -- add() skips stored ids without collecting them on every call -------------------------


async def test_add_skips_a_stored_id_across_changes_made_outside_add() -> None:
    memory = await memory_of(3)
    first, second = memory.content[0][0], memory.content[1][0]
    await memory.add(first)  # already stored: skipped
    assert await memory.size() == 3
    await memory.delete([second.id])  # a change add() did not make
    await memory.add(second)  # no longer stored: added again
    assert [m.id for m in await memory.get_memory()][-1] == second.id
    memory.content.pop()  # a list change behind memory's back
    await memory.add(second)
    assert await memory.size() == 3
    memory.load_state_dict(memory.state_dict())  # a new list (a load)
    await memory.add([first, Msg("user", "new", "user")])
    assert [m.get_text_content() for m in await memory.get_memory()][-1] == "new"
    assert await memory.size() == 4


async def test_add_with_duplicates_allowed_or_bad_input_behaves_as_in_memory_memory() -> None:
    memory = await memory_of(1)
    stored = memory.content[0][0]
    await memory.add(stored, allow_duplicates=True)
    assert await memory.size() == 2
    with pytest.raises(TypeError):
        await memory.add([Msg("user", "ok", "user"), "not a message"])  # type: ignore[list-item]
    assert await memory.size() == 2
    await memory.add(None)
    assert await memory.size() == 2
