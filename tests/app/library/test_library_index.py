"""The index: written on every change, read by list(), rebuilt from the files when needed."""

from __future__ import annotations

import asyncio
import builtins
import io
import os
import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest
from library_helpers import memory_with

from desktop_agent.app.library import SessionLibrary, SessionMeta, SessionStatus, _files
from desktop_agent.session import JSONSession


def index_of(library: SessionLibrary) -> dict[str, Any]:
    data = orjson.loads((library.sessions_dir / "index.json").read_bytes())
    return data["sessions"]  # type: ignore[no-any-return]


async def two_sessions(library: SessionLibrary) -> tuple[str, str]:
    first = await library.create(model="m1")
    await library.save(first, memory=await memory_with("first session", "reply"))
    second = await library.create(model="m2")
    await library.save(second, memory=await memory_with("second session"))
    return first, second


async def test_the_index_follows_create_and_save(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create(model="m")
    entry = index_of(library)[session_id]
    assert (entry["title"], entry["message_count"], entry["status"]) == ("", 0, "ok")

    summary = await library.save(session_id, memory=await memory_with("hello", "hi", "bye"))
    entry = index_of(library)[session_id]
    assert (entry["title"], entry["message_count"]) == ("hello", 3)
    assert entry["updated"] == summary.updated > entry["created"]


async def test_list_is_sorted_by_last_activity(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    first, second = await two_sessions(library)
    assert [row.session_id for row in await library.list()] == [second, first]
    await library.save(first, memory=await memory_with("first session", "more"))
    assert [row.session_id for row in await library.list()] == [first, second]


async def test_list_reads_the_index_not_the_session_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = SessionLibrary(tmp_path)
    first, second = await two_sessions(library)
    opened: list[str] = []
    real_open = builtins.open

    def counting_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(os.fspath(file) if isinstance(file, (str, os.PathLike)) else repr(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(io, "open", counting_open)
    rows = await SessionLibrary(tmp_path).list()
    monkeypatch.undo()

    assert {row.session_id for row in rows} == {first, second}
    assert not [path for path in opened if path.endswith(f"{first}.json")]
    assert not [path for path in opened if path.endswith(f"{second}.json")]
    assert any(path.endswith("index.json") for path in opened)


def overwrite_keeping_stamp(path: Path) -> None:
    stat = path.stat()
    with open(path, "r+b") as file:
        file.write(b"X" * stat.st_size)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_ino == stat.st_ino


async def test_an_unchanged_file_is_not_read_again(tmp_path: Path) -> None:
    # Overwrite a session's body in place with the same size and mtime: its stamp is
    # unchanged, so list() still shows what the index says, without looking.
    library = SessionLibrary(tmp_path)
    first, _ = await two_sessions(library)
    await library.close_all()
    overwrite_keeping_stamp(library.sessions_dir / f"{first}.json")

    rows = {row.session_id: row for row in await SessionLibrary(tmp_path).list()}
    assert rows[first].title == "first session" and rows[first].status is SessionStatus.OK


@pytest.mark.parametrize("damage", ["delete", "garbage", "wrong-format", "empty"])
async def test_a_missing_or_unreadable_index_is_rebuilt(tmp_path: Path, damage: str) -> None:
    library = SessionLibrary(tmp_path)
    await two_sessions(library)
    await library.close_all()
    before = await library.list()
    index = library.sessions_dir / "index.json"
    if damage == "delete":
        index.unlink()
    elif damage == "garbage":
        index.write_bytes(b'{"format": 1, "sessions": {"trunc')
    elif damage == "wrong-format":
        index.write_bytes(b'{"format": 99, "sessions": {}}')
    else:
        index.write_bytes(b"")

    assert await SessionLibrary(tmp_path).list() == before
    assert set(index_of(library)) == {row.session_id for row in before}


async def test_files_added_changed_or_removed_behind_its_back(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    first, second = await two_sessions(library)
    await library.close_all()
    sessions = library.sessions_dir

    shutil.copy(sessions / f"{first}.json", sessions / "copied.json")  # e.g. a file manager
    (sessions / f"{second}.json").unlink()
    meta = SessionMeta(title="Written elsewhere", schema_version=1)
    await JSONSession(str(sessions)).save_session_state(
        first, meta=meta, memory=await memory_with("x")
    )

    rows = {row.session_id: row for row in await SessionLibrary(tmp_path).list()}
    assert set(rows) == {first, "copied"}
    assert rows[first].title == "Written elsewhere"
    assert rows["copied"].title == "first session"
    assert set(index_of(library)) == {first, "copied"}


async def test_a_rebuild_reads_only_the_meta_of_large_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = await memory_with(*[f"message {n} " + "text " * 100 for n in range(1000)])
    await library.save(session_id, memory=memory)
    assert (library.sessions_dir / f"{session_id}.json").stat().st_size > 400_000
    (library.sessions_dir / "index.json").unlink()
    parsed: list[int] = []
    real = _files.decode_parts
    monkeypatch.setattr(_files, "decode_parts", lambda data: parsed.append(len(data)) or real(data))

    [row] = await SessionLibrary(tmp_path).list()
    assert row.title.startswith("message 0 text text") and row.message_count == 1000
    assert parsed == []


async def test_index_writers_merge_instead_of_overwriting(tmp_path: Path) -> None:
    one, two = SessionLibrary(tmp_path), SessionLibrary(tmp_path)
    ids_one = [await one.create() for _ in range(5)]
    ids_two = [await two.create() for _ in range(5)]

    async def save(library: SessionLibrary, session_id: str, text: str) -> None:
        await library.save(session_id, memory=await memory_with(text))

    await asyncio.gather(
        *(save(one, sid, f"one {n}") for n, sid in enumerate(ids_one)),
        *(save(two, sid, f"two {n}") for n, sid in enumerate(ids_two)),
    )
    entries = index_of(one)
    assert set(entries) == set(ids_one) | set(ids_two)
    assert sorted(entry["title"] for entry in entries.values()) == sorted(
        [f"one {n}" for n in range(5)] + [f"two {n}" for n in range(5)]
    )
