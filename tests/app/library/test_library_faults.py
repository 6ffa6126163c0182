"""Faults: a read-only or full disk, another process, and kill -9 mid-stream."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import random
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from library_helpers import Child, memory_with, texts_of

from desktop_agent.app._session_memory import SessionMemory
from desktop_agent.app.library import (
    Autosaver,
    SessionError,
    SessionLibrary,
    SessionLockedError,
    SessionSaveError,
    SessionStatus,
    _storage,
)
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg


def _writable(folder: Path) -> bool:
    probe = folder / ".probe"
    try:
        probe.write_bytes(b"")
    except OSError:
        return False
    probe.unlink()
    return True


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """Make ``folder`` read-only for real: permissions, or (as root) the immutable flag."""
    mode = folder.stat().st_mode
    os.chmod(folder, 0o555)
    immutable = False
    try:
        if _writable(folder) and shutil.which("chattr"):
            os.chmod(folder, mode)
            immutable = (
                subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode == 0
            )
        if _writable(folder):
            pytest.skip("cannot make a folder read-only here")
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        os.chmod(folder, mode)


async def test_a_read_only_folder_is_reported_and_memory_kept(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = await memory_with("before")
    errors: list[SessionError] = []
    autosaver = Autosaver(
        library, session_id, {"memory": memory}, on_error=errors.append, interval=0.01
    )
    autosaver.message_finished()
    await autosaver.flush()

    with read_only(library.sessions_dir):
        await memory.add(Msg("assistant", "during", "assistant"))
        autosaver.message_finished()
        await autosaver.flush()
        assert [type(error) for error in errors] == [SessionSaveError]
        assert "could not be saved" in str(errors[0])
        assert texts_of(memory) == ["before", "during"]
        assert [row.title for row in await library.list()] == ["before"]  # still listable

    await memory.add(Msg("user", "after", "user"))
    autosaver.message_finished()
    await autosaver.aclose()
    assert autosaver.last_error is None
    restored = InMemoryMemory()
    await library.close(session_id)
    await SessionLibrary(tmp_path).load(session_id, memory=restored)
    assert texts_of(restored) == ["before", "during", "after"]


async def test_a_full_disk_is_reported_and_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = await memory_with("hello")
    real_write = _storage.atomic_write_bytes
    full = True

    def write(path: Path, data: bytes) -> None:
        if full:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_write(path, data)

    monkeypatch.setattr(_storage, "atomic_write_bytes", write)
    errors: list[SessionError] = []
    saved = asyncio.Event()
    autosaver = Autosaver(
        library,
        session_id,
        {"memory": memory},
        interval=0.01,
        on_error=errors.append,
        on_saved=lambda _: saved.set(),
    )
    autosaver.message_finished()
    await autosaver.flush()
    assert isinstance(errors[0], SessionSaveError)
    assert "No space left on device" in str(errors[0])

    full = False  # space was freed: the autosaver retries by itself
    async with asyncio.timeout(10):
        await saved.wait()
    await autosaver.aclose()
    assert saved_texts(library, session_id) == ["hello"]


def saved_texts(library: SessionLibrary, session_id: str) -> list[object]:
    parts = orjson.loads((library.sessions_dir / f"{session_id}.json").read_bytes())
    return [entry[0]["content"] for entry in parts["memory"]["content"]]


async def test_another_process_cannot_save_a_session_open_here(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    await library.save(session_id, memory=await memory_with("mine"))
    before = (library.sessions_dir / f"{session_id}.json").read_bytes()

    child = Child("try-save", str(tmp_path), session_id)
    lines = [await child.line() for _ in range(3)]
    child.finish()
    assert lines == ["read_only True", "status locked", "error SessionLockedError"]
    assert (library.sessions_dir / f"{session_id}.json").read_bytes() == before

    await library.close(session_id)
    child = Child("try-save", str(tmp_path), session_id)
    lines = [await child.line() for _ in range(3)]
    child.finish()
    assert lines == ["read_only False", "status ok", "saved"]


async def test_a_session_open_in_another_process_is_read_only_here(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    await library.save(session_id, memory=await memory_with("shared"))
    await library.close(session_id)
    child = Child("hold", str(tmp_path), session_id)
    try:
        assert await child.line() == "held"
        assert [row.status for row in await library.list()] == [SessionStatus.LOCKED]
        memory = InMemoryMemory()
        loaded = await library.load(session_id, memory=memory)
        assert loaded.read_only and library.is_read_only(session_id)
        assert texts_of(memory) == ["shared"]
        with pytest.raises(SessionLockedError, match="open in another"):
            await library.save(session_id, memory=memory)
        with pytest.raises(SessionLockedError):
            await library.rename(session_id, "Mine now")
        with pytest.raises(SessionLockedError):
            await library.delete(session_id)
        child.send("quit")
        assert await child.line() == "closed"
    finally:
        child.finish()
    await library.save(session_id, memory=memory)  # the other window closed it
    assert not library.is_read_only(session_id)


async def _stale_copy(library: SessionLibrary, memory: InMemoryMemory) -> str:
    """A session loaded read-only into ``memory`` while another process held it, which
    then saved it and closed: ``memory`` is a stale copy of it. Its id."""
    session_id = await library.create()
    await library.save(session_id, memory=await memory_with("shared"))
    await library.close(session_id)
    child = Child("hold", str(library.root), session_id)
    try:
        assert await child.line() == "held"
        assert (await library.load(session_id, memory=memory)).read_only
        child.send("save written over there")
        assert await child.line() == "saved"
        child.send("quit")
        assert await child.line() == "closed"
    finally:
        child.finish()
    await memory.add(Msg("user", "written here, on a stale copy", "user"))
    return session_id


async def test_a_session_changed_elsewhere_is_not_overwritten(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    memory = InMemoryMemory()
    session_id = await _stale_copy(library, memory)
    with pytest.raises(SessionLockedError, match="changed in another"):
        await library.save(session_id, memory=memory)

    fresh = InMemoryMemory()
    assert not (await library.load(session_id, memory=fresh)).read_only
    assert texts_of(fresh) == ["shared", "written over there"]
    await library.save(session_id, memory=fresh)


async def test_an_autosave_does_not_journal_over_a_session_changed_elsewhere(
    tmp_path: Path,
) -> None:
    library = SessionLibrary(tmp_path)
    memory = SessionMemory()
    session_id = await _stale_copy(library, memory)
    with pytest.raises(SessionLockedError, match="changed in another"):
        await library.append(session_id, memory, memory=memory)
    fresh = InMemoryMemory()
    await library.close(session_id)
    await library.load(session_id, memory=fresh)
    assert texts_of(fresh) == ["shared", "written over there"]
    await library.close_all()


async def test_create_in_a_read_only_folder_keeps_the_session_in_memory(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    library.sessions_dir.mkdir(parents=True)
    with read_only(library.sessions_dir):
        with pytest.raises(SessionSaveError) as caught:
            await library.create()
        session_id = caught.value.session_id
        assert library.is_open(session_id)
    await library.save(session_id, memory=await memory_with("saved at last"))
    assert [row.title for row in await library.list()] == ["saved at last"]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
async def test_kill_9_during_a_stream_leaves_valid_files(tmp_path: Path) -> None:
    interval = 0.1
    child = Child("stream", str(tmp_path), str(interval))
    appended: dict[int, float] = {}
    saved: list[int] = []

    def note(line: str) -> None:
        kind, count, *rest = line.split()
        if kind == "saved":
            saved.append(int(count))
        else:
            appended[int(count)] = float(rest[0])

    try:
        session_id = (await child.line()).split()[1]
        target = random.randint(3, 10)
        while len(saved) < target:
            note(await child.line())
        child.process.send_signal(signal.SIGKILL)  # wherever it is: mid-save, mid-append
        child.process.wait(timeout=30)
        for line in child.process.stdout or []:
            note(line)
    finally:
        child.finish()

    sessions = tmp_path / "sessions"
    for path in sessions.glob("*.json"):
        orjson.loads(path.read_bytes())  # every file complete and valid
    library = SessionLibrary(tmp_path)
    [row] = await library.list()
    assert (row.session_id, row.status) == (session_id, SessionStatus.OK)
    memory = InMemoryMemory()
    loaded = await library.load(session_id, memory=memory)
    assert not loaded.read_only  # the dead process's lock went with it
    kept = len(memory.content)
    assert kept == row.message_count >= max(saved)
    last = max(appended)
    assert [m.get_text_content().split()[1] for m, _ in memory.content] == [  # type: ignore[union-attr]
        str(n) for n in range(1, kept + 1)
    ]
    if kept < last:  # what was lost was appended within about the last interval
        assert appended[last] - appended[kept + 1] < 1.0


async def test_renaming_a_session_with_a_journal_keeps_its_latest_meta(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = SessionMemory()
    await memory.add(Msg("user", "one", "user"))
    await library.save(session_id, memory=memory)  # the file holds one message
    await memory.add([Msg("user", f"more {n}", "user") for n in range(3)])
    await library.append(session_id, memory, memory=memory)  # the journal, three more
    renamed = await library.rename(session_id, "Renamed")
    assert renamed.message_count == 4
    listed = {row.session_id: row for row in await SessionLibrary(tmp_path).list()}
    assert listed[session_id].message_count == 4 and listed[session_id].title == "Renamed"
    await library.close_all()
