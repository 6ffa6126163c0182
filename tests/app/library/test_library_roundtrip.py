"""Create, save and load sessions: real modules, real files, the file format."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from library_helpers import memory_with, texts_of

from desktop_agent.app.library import (
    SCHEMA_VERSION,
    SessionLibrary,
    SessionMeta,
    SessionNotFoundError,
    data_root,
)
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg
from desktop_agent.session import JSONSession


def test_data_root_follows_the_environment(desktop_agent_home: Path) -> None:
    assert data_root() == desktop_agent_home
    assert SessionLibrary().root == desktop_agent_home


def test_data_root_defaults_to_the_platform_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DESKTOP_AGENT_HOME")
    assert data_root().name == "desktop-agent"


async def test_a_memory_round_trips_with_its_metadata(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create(model="gpt-test")
    memory = await memory_with("What is the capital of France?\nThanks!", "Paris.")
    await memory.add(Msg("user", [{"type": "text", "text": "And Italy?"}], "user"), marks="m")

    saved = await library.save(session_id, memory=memory)
    await library.close(session_id)

    restored = InMemoryMemory()
    loaded = await SessionLibrary(tmp_path).load(session_id, memory=restored)
    assert texts_of(restored) == texts_of(memory)
    assert [m.id for m, _ in restored.content] == [m.id for m, _ in memory.content]
    assert restored.content[2][1] == ["m"]
    assert loaded.summary == saved
    assert saved.title == "What is the capital of France?"
    assert (saved.model, saved.message_count) == ("gpt-test", 3)
    assert not loaded.read_only and loaded.unfinished_reply is None


async def test_the_file_is_meta_first_and_jsonsession_reads_it(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create(title="Kept title")
    await library.save(session_id, memory=await memory_with("hello", "hi"))

    data = (library.sessions_dir / f"{session_id}.json").read_bytes()
    assert data.startswith(b'{"meta":{')
    parts = orjson.loads(data)
    assert list(parts) == ["meta", "memory"]
    assert parts["meta"]["schema_version"] == SCHEMA_VERSION
    assert parts["meta"]["title"] == "Kept title" and parts["meta"]["title_is_custom"]

    memory, meta = InMemoryMemory(), SessionMeta()
    await JSONSession(str(library.sessions_dir)).load_session_state(
        session_id, memory=memory, meta=meta
    )
    assert texts_of(memory) == ["hello", "hi"]
    assert meta.title == "Kept title"


async def test_title_comes_from_the_first_user_message_trimmed(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    assert (await library.list())[0].display_title == "New session"
    long_line = "   " + "word " * 30 + "\nsecond line"
    summary = await library.save(session_id, memory=await memory_with(long_line, "ok"))
    assert len(summary.title) == 60 and summary.title.startswith("word word")
    assert summary.title.endswith("…") and not summary.title_is_custom

    await library.save(session_id, memory=await memory_with("another first message"))
    assert (await library.list())[0].title == summary.title  # derived once, then kept


async def test_refine_title_respects_a_custom_title(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    await library.save(session_id, memory=await memory_with("hi there", "hello"))
    assert await library.refine_title(session_id, "Greetings")
    assert (await library.list())[0].title == "Greetings"
    await library.rename(session_id, "Mine")
    assert not await library.refine_title(session_id, "Model's idea")
    assert (await library.list())[0].title == "Mine"


async def test_an_unfinished_reply_is_saved_and_given_back(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = await memory_with("tell me a story")
    partial = Msg("Friday", [{"type": "text", "text": "Once upon a"}], "assistant")
    await library.save(session_id, unfinished_reply=partial, memory=memory)

    loaded = await SessionLibrary(tmp_path).load(session_id, memory=InMemoryMemory())
    assert loaded.read_only  # the first library still holds it
    assert loaded.unfinished_reply is not None
    assert loaded.unfinished_reply.id == partial.id
    assert loaded.unfinished_reply.get_text_content() == "Once upon a"

    await library.save(session_id, memory=memory)  # the reply finished: no longer saved
    again = await SessionLibrary(tmp_path).load(session_id, memory=InMemoryMemory())
    assert again.unfinished_reply is None


async def test_loading_an_unknown_session_raises(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    with pytest.raises(SessionNotFoundError, match="no session"):
        await library.load("nope", memory=InMemoryMemory())
    with pytest.raises(ValueError, match="Invalid session id"):
        await library.load("../escape", memory=InMemoryMemory())


async def test_saving_a_session_that_is_not_open_is_a_mistake(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    with pytest.raises(RuntimeError, match="not open"):
        await library.save("neverseen", memory=InMemoryMemory())
    session_id = await library.create()
    with pytest.raises(ValueError, match="reserved"):
        await library.save(session_id, meta=SessionMeta())


async def test_listeners_hear_about_changes(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    heard: list[tuple[str, str | None]] = []
    remove = library.add_listener(
        lambda change: heard.append((change.kind, change.summary and change.summary.title))
    )
    session_id = await library.create()
    await library.save(session_id, memory=await memory_with("first words"))
    await library.rename(session_id, "Renamed")
    await library.delete(session_id)
    await library.restore(session_id)
    remove()
    await library.rename(session_id, "Unheard")
    assert heard == [
        ("created", ""),
        ("saved", "first words"),
        ("renamed", "Renamed"),
        ("deleted", None),
        ("restored", "Renamed"),
    ]
