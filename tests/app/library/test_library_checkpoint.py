"""Checkpoints (whole-file rewrites) with a journal: made off the loop, consistent with
the changes made meanwhile; a rename's rewrite keeps the journal valid; closing saves
once; the sidebar reads a journal's latest metadata."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import orjson
import pytest
from test_library_journal import Open, file_texts, reopened_texts

from desktop_agent.app import AgentState
from desktop_agent.app.library import SessionLibrary
from desktop_agent.app.library._journal import JournalDelta, JournalWriter, journal_meta
from desktop_agent.app.library._scan import StateScanner
from desktop_agent.message import Msg


def _hold_the_scan(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """Make the worker's scan of the state wait: (set when it started, set to let it go)."""
    scanning, go_on = threading.Event(), threading.Event()
    scan = StateScanner.scan

    def held_scan(scanner: StateScanner, parts: dict[str, Any]) -> Any:
        scanning.set()
        go_on.wait(10)
        return scan(scanner, parts)

    monkeypatch.setattr(StateScanner, "scan", held_scan)
    return scanning, go_on


async def test_a_checkpoint_makes_the_messages_saved_form_off_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await Open.create(tmp_path)
    for number in range(300):
        await session.state.memory.add(Msg("user", f"message {number}", "user"))
    threads: list[bool] = []
    to_dict = Msg.to_dict

    def recording(msg: Msg) -> dict[str, Any]:
        threads.append(threading.current_thread() is threading.main_thread())
        return to_dict(msg)

    monkeypatch.setattr(Msg, "to_dict", recording)
    await session.library.save(session.session_id, agent=session.state)
    assert len(threads) >= 300
    assert threads.count(True) <= 1  # on the loop's thread: the first message (a title)
    assert file_texts(session.file)[-1] == "message 299"


async def test_changes_made_while_a_checkpoint_is_written_are_saved_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await Open.create(tmp_path)
    await session.say("one", "two", "three")
    scanning, go_on = _hold_the_scan(monkeypatch)
    checkpoint = asyncio.create_task(session.autosaver.checkpoint())
    assert await asyncio.to_thread(scanning.wait, 10)  # the worker is writing it
    # Meanwhile, on the loop: a message is added and the last one is edited (its
    # content reassigned, as an edit or a finished reply does).
    await session.state.memory.add(Msg("user", "four", "user"))
    last_but_one = session.memory.content[-2][0]
    last_but_one.content = "three, edited"
    session.autosaver.message_finished()
    go_on.set()
    await checkpoint
    await session.autosaver.flush()
    assert file_texts(session.file)[:2] == ["one", "two"]  # a plain file: the checkpoint
    await session.crash()
    expected = ["one", "two", "three, edited", "four"]
    assert await reopened_texts(tmp_path, session.session_id) == expected


async def test_renaming_a_file_whose_meta_is_not_first_keeps_later_autosaves(
    tmp_path: Path,
) -> None:
    """A file another tool rewrote (keys in its own order) is renamed by rewriting it
    whole: it must keep a generation the journal's later records match."""
    session = await Open.create(tmp_path)
    await session.say("one")
    await session.autosaver.checkpoint()
    await session.crash()
    parts = orjson.loads(session.file.read_bytes())
    assert parts["journal"]["generation"] >= 1
    reordered = {name: state for name, state in parts.items() if name != "meta"}
    session.file.write_bytes(orjson.dumps({**reordered, "meta": parts["meta"]}))

    again = await Open.load(tmp_path, session.session_id)
    await again.say("two")
    await again.library.rename(again.session_id, "Renamed")
    await again.say("three")
    await again.crash()

    assert await reopened_texts(tmp_path, session.session_id) == ["one", "two", "three"]
    (row,) = await SessionLibrary(tmp_path).list()
    assert (row.title, row.message_count) == ("Renamed", 3)


async def test_closing_the_autosaver_saves_once(tmp_path: Path) -> None:
    session = await Open.create(tmp_path)
    await session.say("one")
    saves = session.autosaver.saves
    await session.state.memory.add(Msg("assistant", "two", "assistant"))
    session.autosaver.message_finished()
    await session.autosaver.aclose()
    assert session.autosaver.saves == saves + 1  # one checkpoint, no journal record first
    assert not session.journal.exists()
    assert file_texts(session.file) == ["one", "two"]


async def test_closing_during_a_checkpoint_does_not_write_the_file_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await Open.create(tmp_path)
    await session.say("one", "two")
    scanning, go_on = _hold_the_scan(monkeypatch)
    checkpoint = asyncio.create_task(session.autosaver.checkpoint())
    assert await asyncio.to_thread(scanning.wait, 10)
    closing = asyncio.create_task(session.autosaver.aclose())
    await asyncio.sleep(0.05)
    go_on.set()
    await asyncio.gather(checkpoint, closing)
    assert session.autosaver.checkpoints == 1  # the one in flight saved everything
    assert file_texts(session.file) == ["one", "two"]


def test_the_listing_reads_the_latest_meta_of_the_files_generation(tmp_path: Path) -> None:
    file = tmp_path / "s.json"
    file.write_bytes(b'{"meta":{"title":"file"},"journal":{"generation":2}}')
    old = JournalWriter(tmp_path / "s.journal", generation=1)
    old.append(JournalDelta(None, parts={"meta": {"title": "older generation"}}))
    old.close()
    assert journal_meta(file) is None  # its records come before the file: skipped
    current = JournalWriter(tmp_path / "s.journal", generation=2)  # cuts the stale records
    for title in ("first", "second"):
        current.append(JournalDelta(["agent"], 0, [], parts={"meta": {"title": title}}))
    current.append(JournalDelta(["agent"], 0, [], parts={"agent": {}}))  # no meta in it
    current.close()
    with open(tmp_path / "s.journal", "ab") as journal:
        journal.write(b"0000000100 00000000\n{torn")  # a write cut short by a crash
    assert journal_meta(file) == {"title": "second"}
    assert journal_meta(tmp_path / "none.json") is None


async def test_a_checkpoint_of_an_agent_state_is_read_by_a_plain_agent_state(
    tmp_path: Path,
) -> None:
    session = await Open.create(tmp_path)
    await session.say("hello", "hi")
    await session.library.save(session.session_id, agent=session.state)
    await session.crash()
    state = AgentState()
    state.load_state_dict(orjson.loads(session.file.read_bytes())["agent"])
    assert [msg.get_text_content() for msg in await state.memory.get_memory()] == [
        "hello",
        "hi",
    ]
