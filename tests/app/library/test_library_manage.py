"""Rename, delete to the trash, restore, empty the trash."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from library_helpers import big_base64, memory_with, read_file, texts_of

from desktop_agent.app.library import SessionError, SessionLibrary, SessionNotFoundError
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg


async def test_rename_rewrites_only_the_title(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = await memory_with("hello", "hi")
    await library.save(session_id, memory=memory)
    path = library.sessions_dir / f"{session_id}.json"
    body_before = orjson.loads(path.read_bytes())["memory"]

    renamed = await library.rename(session_id, "  Greetings \n ")
    assert renamed.title == "Greetings" and renamed.title_is_custom
    parts = orjson.loads(path.read_bytes())
    assert parts["meta"]["title"] == "Greetings" and parts["memory"] == body_before
    assert (await library.list())[0].title == "Greetings"

    await library.save(session_id, memory=memory)  # later saves keep the user's title
    assert (await library.list())[0].title == "Greetings"
    with pytest.raises(ValueError, match="empty"):
        await library.rename(session_id, "   ")


async def test_rename_of_a_closed_session(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    await library.save(session_id, memory=await memory_with("hello"))
    await library.close(session_id)

    other = SessionLibrary(tmp_path)
    await other.rename(session_id, "From the sidebar")
    memory = InMemoryMemory()
    loaded = await other.load(session_id, memory=memory)
    assert loaded.summary.title == "From the sidebar" and texts_of(memory) == ["hello"]


async def test_delete_moves_to_the_trash_and_restore_brings_it_back(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    keep = await library.create()
    await library.save(keep, memory=await memory_with("keep me"))
    session_id = await library.create()
    memory = await memory_with("delete me", "ok")
    image = {"type": "base64", "media_type": "image/png", "data": big_base64()}
    await memory.add(Msg("user", [{"type": "image", "source": image}], "user"))
    await library.save(session_id, memory=memory)

    await library.delete(session_id)
    assert [row.session_id for row in await library.list()] == [keep]
    assert not any(library.sessions_dir.glob(f"{session_id}*"))
    assert [row.session_id for row in await library.list_trash()] == [session_id]
    assert not library.is_open(session_id)

    restored = await library.restore(session_id)
    assert restored.title == "delete me"
    assert {row.session_id for row in await library.list()} == {keep, session_id}
    again = InMemoryMemory()
    await library.load(session_id, memory=again)
    image_source = again.content[2][0].content[0]["source"]
    assert image_source["type"] == "url" and read_file(image_source["url"])
    assert await library.list_trash() == []


async def test_restore_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    with pytest.raises(SessionNotFoundError, match="not in the trash"):
        await library.restore("missing")
    session_id = await library.create()
    await library.delete(session_id)
    (library.sessions_dir / f"{session_id}.json").write_bytes(b'{"meta": {}}')
    with pytest.raises(SessionError, match="exists already"):
        await library.restore(session_id)


async def test_empty_trash_deletes_for_good(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    for _ in range(3):
        session_id = await library.create()
        await library.delete(session_id)
    assert len(await library.list_trash()) == 3
    assert await library.empty_trash() == 3
    assert await library.list_trash() == []
    assert list(library.trash_dir.iterdir()) == []
    with pytest.raises(SessionNotFoundError):
        await library.delete("gone")
