"""The autosaver: after each finished message, regularly while streaming, one at a time."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import orjson
import pytest
from library_helpers import memory_with

from desktop_agent.app.library import (
    Autosaver,
    SessionLibrary,
    SessionSummary,
)
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg


def saved_texts(library: SessionLibrary, session_id: str) -> list[Any]:
    parts = orjson.loads((library.sessions_dir / f"{session_id}.json").read_bytes())
    return [entry[0]["content"] for entry in parts["memory"]["content"]]


class SaveCounter:
    """Counts saves and lets a test wait for the n-th one."""

    def __init__(self) -> None:
        self.summaries: list[SessionSummary] = []
        self._changed = asyncio.Event()

    def __call__(self, summary: SessionSummary) -> None:
        self.summaries.append(summary)
        self._changed.set()

    async def wait_for(self, count: int) -> None:
        async with asyncio.timeout(10):
            while len(self.summaries) < count:
                self._changed.clear()
                await self._changed.wait()


async def test_a_finished_message_is_saved(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = await memory_with("hello")
    autosaver = Autosaver(library, session_id, {"memory": memory})
    autosaver.message_finished()
    await autosaver.flush()
    assert saved_texts(library, session_id) == ["hello"]

    await memory.add(Msg("assistant", "hi!", "assistant"))
    autosaver.message_finished()
    await autosaver.aclose()
    assert saved_texts(library, session_id) == ["hello", "hi!"]
    assert autosaver.saves == 2 and not autosaver.pending


async def test_a_stream_is_saved_at_least_once_per_interval(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = InMemoryMemory()
    counter = SaveCounter()
    autosaver = Autosaver(library, session_id, {"memory": memory}, interval=0.05, on_saved=counter)
    changes = 0

    async def stream() -> None:
        nonlocal changes
        while True:
            await memory.add(Msg("assistant", f"chunk {changes}", "assistant"))
            changes += 1
            autosaver.changed()
            await asyncio.sleep(0.002)  # the pace of a fast stream

    streaming = asyncio.create_task(stream(), name="fake stream")
    await counter.wait_for(5)  # without any finished message
    streaming.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await streaming
    await autosaver.aclose()
    assert changes > 2 * len(counter.summaries)  # coalesced, not one save per chunk
    counts = [summary.message_count for summary in counter.summaries]
    assert counts == sorted(counts) and counts[-1] == changes


async def test_one_save_in_flight_and_the_latest_state_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = InMemoryMemory()
    in_flight, most, release = 0, 0, asyncio.Event()
    real_save = library.save

    async def slow_save(*args: Any, **kwargs: Any) -> SessionSummary:
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        try:
            await release.wait()
            return await real_save(*args, **kwargs)
        finally:
            in_flight -= 1

    monkeypatch.setattr(library, "save", slow_save)
    counter = SaveCounter()
    autosaver = Autosaver(library, session_id, {"memory": memory}, on_saved=counter)
    for number in range(20):
        await memory.add(Msg("user", f"message {number}", "user"))
        autosaver.message_finished()
        await asyncio.sleep(0)
    release.set()
    await autosaver.flush()
    assert most == 1
    assert len(counter.summaries) <= 3  # the first, then one for everything after it
    assert saved_texts(library, session_id)[-1] == "message 19"


async def test_the_unfinished_reply_is_saved_while_streaming(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = await memory_with("tell me")
    autosaver = Autosaver(library, session_id, {"memory": memory})
    reply = Msg("Friday", [{"type": "text", "text": "Once"}], "assistant")
    autosaver.changed(unfinished_reply=reply)
    await autosaver.flush()
    reply.content = [{"type": "text", "text": "Once upon a time"}]
    autosaver.changed()
    await autosaver.flush()
    await library.close(session_id)

    reader = SessionLibrary(tmp_path)
    loaded = await reader.load(session_id, memory=InMemoryMemory())
    assert loaded.unfinished_reply is not None
    assert loaded.unfinished_reply.get_text_content() == "Once upon a time"
    await reader.close_all()

    await library.load(session_id, memory=InMemoryMemory())
    await memory.add(reply)
    autosaver.message_finished()
    await autosaver.aclose()
    loaded = await SessionLibrary(tmp_path).load(session_id, memory=InMemoryMemory())
    assert loaded.unfinished_reply is None


async def test_flush_without_changes_and_closing_twice(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    autosaver = Autosaver(library, session_id, {"memory": InMemoryMemory()})
    await autosaver.flush()
    await autosaver.aclose()
    await autosaver.aclose()
    assert autosaver.saves == 0
    with pytest.raises(RuntimeError, match="closed"):
        autosaver.changed()


async def test_a_flush_restarts_a_save_task_that_died(tmp_path: Path) -> None:
    """Qt may step the save task while no asyncio loop runs (between two
    ``run_until_complete`` calls): it dies, and a flush must not wait for it forever."""
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = await memory_with("hello")
    autosaver = Autosaver(library, session_id, {"memory": memory}, interval=60.0)
    autosaver.changed()
    dying = autosaver._task
    assert dying is not None
    dying.cancel()
    await asyncio.wait({dying})
    async with asyncio.timeout(10):  # a guard against hanging, not a timing assertion
        await autosaver.flush()
    assert saved_texts(library, session_id) == ["hello"] and not autosaver.pending
    await autosaver.aclose()
