"""Damaged, truncated, wrong-shape and newer files: listed with a reason, never modified."""

from __future__ import annotations

import asyncio
from pathlib import Path

import orjson
import pytest
from library_helpers import memory_with

from desktop_agent.app.library import (
    Autosaver,
    SessionChange,
    SessionCorruptError,
    SessionError,
    SessionFromNewerVersionError,
    SessionLibrary,
    SessionStatus,
)
from desktop_agent.memory import InMemoryMemory
from desktop_agent.session import SessionFileError

META = {
    "title": "Old chat",
    "created": "2025-01-01T00:00:00.000+00:00",
    "updated": "2025-01-02T00:00:00.000+00:00",
    "model": "m",
    "message_count": 1,
    "schema_version": 1,
    "title_is_custom": False,
}
MEMORY = {
    "_compressed_summary": "",
    "content": [[{"name": "u", "role": "user", "content": "hi"}, []]],
}


def good_file() -> bytes:
    return orjson.dumps({"meta": META, "memory": MEMORY})


def large_good_file() -> bytes:
    content = [[{"name": "u", "role": "user", "content": "x" * 500}, []] for _ in range(1000)]
    return orjson.dumps({"meta": META, "memory": {"_compressed_summary": "", "content": content}})


DAMAGED = {
    "not-json": (b'{"meta": {"title": "Old chat"', "not valid JSON"),
    "empty": (b"", "empty"),
    "binary": (b"\xff\xfe\x00garbage", "not UTF-8"),
    "truncated": (good_file()[:-30], "not valid JSON"),
    "truncated-large": (large_good_file()[:-5000], "cut short"),
    "top-level-list": (b"[1, 2, 3]", "not an object"),
    "meta-not-object": (b'{"meta": "x", "memory": {}}', "'meta' is a str"),
    "meta-bad-field": (orjson.dumps({"meta": {**META, "message_count": "many"}}), "message_count"),
    "part-not-object": (orjson.dumps({"meta": META, "memory": [1]}), "'memory' is a list"),
}


def put(root: Path, session_id: str, data: bytes) -> Path:
    folder = root / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{session_id}.json"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("case", sorted(DAMAGED))
async def test_a_damaged_file_is_listed_refused_and_left_alone(tmp_path: Path, case: str) -> None:
    data, reason = DAMAGED[case]
    path = put(tmp_path, "damaged", data)
    library = SessionLibrary(tmp_path)

    [row] = await library.list()
    assert row.status is SessionStatus.CORRUPT
    assert reason in row.error

    with pytest.raises(SessionCorruptError) as caught:
        await library.load("damaged", memory=InMemoryMemory())
    assert "left untouched" in str(caught.value)
    if case != "truncated-large":  # the full read says where the JSON breaks instead
        assert reason in str(caught.value)
    assert isinstance(caught.value, SessionFileError)

    with pytest.raises(SessionCorruptError):
        await library.save("damaged", memory=await memory_with("new words"))
    with pytest.raises(SessionCorruptError):
        await library.rename("damaged", "New name")
    errors: list[SessionError] = []
    autosaver = Autosaver(library, "damaged", {"memory": InMemoryMemory()}, on_error=errors.append)
    autosaver.message_finished()
    await autosaver.aclose()
    assert [type(error) for error in errors] == [SessionCorruptError]

    assert path.read_bytes() == data
    assert sorted(p.name for p in path.parent.glob("damaged*")) == ["damaged.json"]


async def test_a_state_its_module_rejects_is_found_at_load(tmp_path: Path) -> None:
    memory = {"_compressed_summary": "", "content": [["not a message", []]]}
    data = orjson.dumps({"meta": META, "memory": memory})
    path = put(tmp_path, "misfit", data)
    library = SessionLibrary(tmp_path)
    assert (await library.list())[0].status is SessionStatus.OK  # its meta is fine
    heard: list[SessionChange] = []
    library.add_listener(heard.append)

    with pytest.raises(SessionCorruptError, match="'memory' does not fit"):
        await library.load("misfit", memory=InMemoryMemory())
    assert [(c.kind, type(c.error)) for c in heard] == [("damaged", SessionCorruptError)]
    [row] = await library.list()
    assert row.status is SessionStatus.CORRUPT and "does not fit" in row.error
    assert row.title == "Old chat"
    assert [row.status for row in await SessionLibrary(tmp_path).list()] == [SessionStatus.CORRUPT]
    assert path.read_bytes() == data


async def test_a_session_from_a_newer_version(tmp_path: Path) -> None:
    data = orjson.dumps({"meta": {**META, "schema_version": 7}, "memory": MEMORY, "x": {}})
    path = put(tmp_path, "future", data)
    library = SessionLibrary(tmp_path)

    [row] = await library.list()
    assert row.status is SessionStatus.NEWER_SCHEMA and row.title == "Old chat"
    assert "newer version" in row.error
    with pytest.raises(SessionFromNewerVersionError, match="format 7; this version reads up to 1"):
        await library.load("future", memory=InMemoryMemory())
    with pytest.raises(SessionFromNewerVersionError):
        await library.save("future", memory=InMemoryMemory())
    with pytest.raises(SessionFromNewerVersionError):
        await SessionLibrary(tmp_path).rename("future", "New name")
    assert path.read_bytes() == data
    assert [r.status for r in await library.search("old")] == [SessionStatus.NEWER_SCHEMA]


async def test_replacing_a_damaged_session_keeps_the_old_file_in_the_trash(
    tmp_path: Path,
) -> None:
    data = DAMAGED["not-json"][0]
    put(tmp_path, "damaged", data)
    library = SessionLibrary(tmp_path)
    with pytest.raises(SessionCorruptError):
        await library.load("damaged", memory=InMemoryMemory())

    summary = await library.save(
        "damaged", replace_damaged=True, memory=await memory_with("a fresh start")
    )
    assert summary.status is SessionStatus.OK and summary.title == "a fresh start"
    [kept] = list(library.trash_dir.glob("damaged.damaged-*.json"))
    assert kept.read_bytes() == data
    memory = InMemoryMemory()
    await SessionLibrary(tmp_path).load("damaged", memory=memory)
    assert memory.content[0][0].content == "a fresh start"


async def test_list_copes_with_many_damaged_files_concurrently(tmp_path: Path) -> None:
    for number, (data, _) in enumerate(DAMAGED.values()):
        put(tmp_path, f"bad{number}", data)
    library = SessionLibrary(tmp_path)
    first, second = await asyncio.gather(library.list(), SessionLibrary(tmp_path).list())
    assert {row.status for row in first} == {SessionStatus.CORRUPT}
    assert len(first) == len(second) == len(DAMAGED)
