"""Search by title and by content, off the event loop, newest first."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from library_helpers import memory_with

from desktop_agent.app.library import SessionLibrary, SessionMeta, _library, _search
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg
from desktop_agent.session import JSONSession


async def library_with_sessions(root: Path) -> tuple[SessionLibrary, dict[str, str]]:
    library = SessionLibrary(root)
    ids = {}
    for key, texts in {
        "pasta": ("How do I cook pasta?", "Boil salted water, then add the Spaghetti."),
        "trip": ("Plan a trip to Lisbon", "Day one: the Alfama district."),
        "code": ("Fix my python bug", "Your loop never ends."),
    }.items():
        ids[key] = await library.create()
        await library.save(ids[key], memory=await memory_with(*texts))
    return library, ids


async def test_search_matches_titles_and_content_in_any_case(tmp_path: Path) -> None:
    library, ids = await library_with_sessions(tmp_path)

    by_title = await library.search("LISBON")
    assert [row.session_id for row in by_title] == [ids["trip"]]

    by_content = await library.search("spaghetti")
    assert [row.session_id for row in by_content] == [ids["pasta"]]
    assert by_content[0].snippet == "…pasta? boil salted water, then add the spaghetti."

    assert await library.search("no such words") == []
    assert len(await library.search("  ")) == 3


async def test_results_come_newest_first_and_stop_at_the_limit(tmp_path: Path) -> None:
    library, ids = await library_with_sessions(tmp_path)
    everything = await library.search("o")  # in every session
    assert [row.session_id for row in everything] == [ids["code"], ids["trip"], ids["pasta"]]
    assert [row.session_id for row in await library.search("o", limit=2)] == [
        ids["code"],
        ids["trip"],
    ]


async def test_search_sees_tool_results_and_thinking(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = InMemoryMemory()
    await memory.add(Msg("user", "weather?", "user"))
    await memory.add(
        Msg(
            "Friday",
            [
                {"type": "thinking", "thinking": "I should call the barometer"},
                {"type": "tool_use", "id": "1", "name": "get_weather", "input": {}},
            ],
            "assistant",
        )
    )
    result = [{"type": "text", "text": "Sunny with a chance of meatballs"}]
    await memory.add(
        Msg("system", [{"type": "tool_result", "id": "1", "name": "w", "output": result}], "system")
    )
    await library.save(session_id, memory=memory)
    assert len(await library.search("barometer")) == 1
    assert len(await library.search("meatballs")) == 1


async def test_text_written_by_another_tool_is_searched_too(tmp_path: Path) -> None:
    library, ids = await library_with_sessions(tmp_path)
    await library.close_all()
    await JSONSession(str(library.sessions_dir)).save_session_state(
        ids["code"],
        meta=SessionMeta(title="Fix my python bug", schema_version=1),
        memory=await memory_with("Fix my python bug", "Use a walrus operator"),
    )
    [row] = await library.search("walrus")
    assert row.session_id == ids["code"]


async def test_cancelling_a_search_stops_the_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library, _ = await library_with_sessions(tmp_path)
    started, release, finished = threading.Event(), threading.Event(), threading.Event()
    scanned: list[str] = []
    real = _search._session_text
    real_find = _library.find_in_sessions

    def find(*args: Any) -> dict[str, str]:
        try:
            return real_find(*args)
        finally:
            finished.set()

    def slow_text(paths: object, session_id: str) -> str | None:
        scanned.append(session_id)
        started.set()
        release.wait(10)
        return real(paths, session_id)  # type: ignore[arg-type]

    monkeypatch.setattr(_search, "_session_text", slow_text)
    monkeypatch.setattr(_library, "find_in_sessions", find)
    task = asyncio.create_task(library.search("zzz"), name="search")
    await asyncio.to_thread(started.wait, 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    release.set()
    assert await asyncio.to_thread(finished.wait, 10)
    assert len(scanned) == 1  # of three sessions


def test_snippets_are_cut_around_the_match() -> None:
    text = ("ä" * 100 + " the needle is here " + "ö" * 200).encode()
    snippet = _search.snippet_of(text, b"needle")
    assert snippet is not None
    assert snippet.startswith("…ää") and snippet.endswith("öö…")
    assert "the needle is here" in snippet and len(snippet) < 130
    assert _search.snippet_of(b"a short needle", b"needle") == "a short needle"
    assert _search.snippet_of(b"abc", b"x") is None
