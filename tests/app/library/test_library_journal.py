"""The session journal: autosaves append what changed; the file is a checkpoint."""

from __future__ import annotations

import asyncio
import shutil
import zipfile
from pathlib import Path
from typing import Any, Literal, cast

import orjson
from library_helpers import big_base64

from desktop_agent.app import AgentState
from desktop_agent.app._session_memory import SessionMemory
from desktop_agent.app._settings import Settings, save_settings
from desktop_agent.app.library import Autosaver, SessionLibrary
from desktop_agent.app.library._journal import read_with_journal
from desktop_agent.app.transfer import write_backup
from desktop_agent.message import Msg
from desktop_agent.session import JSONSession


class Open:
    """A library, one session in it and its autosaver over an ``AgentState``."""

    def __init__(self, root: Path, session_id: str, state: AgentState, library: SessionLibrary):
        self.root, self.session_id, self.state, self.library = root, session_id, state, library
        self.autosaver = Autosaver(library, session_id, {"agent": state}, checkpoint_after=3600.0)

    @classmethod
    async def create(cls, root: Path) -> Open:
        library = SessionLibrary(root)
        return cls(root, await library.create(), AgentState(), library)

    @classmethod
    async def load(cls, root: Path, session_id: str) -> Open:
        library = SessionLibrary(root)
        state = AgentState()
        await library.load(session_id, agent=state)
        return cls(root, session_id, state, library)

    @property
    def memory(self) -> SessionMemory:
        return cast(SessionMemory, self.state.memory)

    @property
    def file(self) -> Path:
        return self.library.sessions_dir / f"{self.session_id}.json"

    @property
    def journal(self) -> Path:
        return self.library.sessions_dir / f"{self.session_id}.journal"

    async def say(self, *texts: str) -> None:
        """Add messages (user, assistant, ...) and save them (journaled)."""
        for text in texts:
            role: Literal["user", "assistant"] = (
                "user" if len(self.memory.content) % 2 == 0 else "assistant"
            )
            await self.state.memory.add(Msg(role, text, role))
        self.autosaver.message_finished()
        await self.autosaver.flush()

    async def crash(self) -> None:
        """Stop as a killed process would: nothing more written, the lock released."""
        task = self.autosaver._task
        if task is not None:
            task.cancel()
        self.library._open[self.session_id].journal.close()
        self.library._open[self.session_id].lock.release()


def texts_in(parts: dict[str, Any]) -> list[str]:
    return [entry[0]["content"] for entry in parts["agent"]["memory"]["content"]]


def file_texts(path: Path) -> list[str]:
    return texts_in(orjson.loads(path.read_bytes()))


async def reopened_texts(root: Path, session_id: str) -> list[str | None]:
    library = SessionLibrary(root)
    state = AgentState()
    await library.load(session_id, agent=state)
    await library.close_all()
    return [msg.get_text_content() for msg, _ in cast(SessionMemory, state.memory).content]


async def test_autosaves_append_to_the_journal_and_opening_replays_it(tmp_path: Path) -> None:
    session = await Open.create(tmp_path)
    await session.say("hello", "hi!")
    await session.say("how are you?")
    assert "agent" not in orjson.loads(session.file.read_bytes())  # create()'s checkpoint
    assert session.journal.stat().st_size > 0
    await session.crash()
    assert await reopened_texts(tmp_path, session.session_id) == ["hello", "hi!", "how are you?"]


async def test_a_record_holds_the_change_not_the_chat(tmp_path: Path) -> None:
    session = await Open.create(tmp_path)
    await session.say(*(f"old message number {n}" for n in range(200)))
    before = session.journal.stat().st_size
    await session.say("a new one")
    record = session.journal.read_bytes()[before:]
    assert b"a new one" in record and b"old message number 150" not in record
    await session.autosaver.aclose()


async def test_a_torn_last_record_is_dropped_and_the_next_append_cuts_it_off(
    tmp_path: Path,
) -> None:
    session = await Open.create(tmp_path)
    await session.say("kept")
    size = session.journal.stat().st_size
    await session.say("torn")
    await session.crash()
    data = session.journal.read_bytes()
    session.journal.write_bytes(data[: size + (len(data) - size) // 2])  # cut mid-record
    assert await reopened_texts(tmp_path, session.session_id) == ["kept"]

    again = await Open.load(tmp_path, session.session_id)
    await again.say("after the crash")
    await again.crash()
    assert await reopened_texts(tmp_path, session.session_id) == ["kept", "after the crash"]


async def test_a_record_with_a_wrong_checksum_is_dropped(tmp_path: Path) -> None:
    session = await Open.create(tmp_path)
    await session.say("kept")
    size = session.journal.stat().st_size
    await session.say("damaged")
    await session.crash()
    data = bytearray(session.journal.read_bytes())
    data[size + 40] ^= 0x01  # a flipped bit inside the last record's payload
    session.journal.write_bytes(bytes(data))
    assert await reopened_texts(tmp_path, session.session_id) == ["kept"]


async def test_closing_checkpoints_the_whole_file_and_removes_the_journal(
    tmp_path: Path,
) -> None:
    session = await Open.create(tmp_path)
    await session.say("one", "two")
    await session.autosaver.aclose()
    await session.library.close_all()
    assert not session.journal.exists()
    assert file_texts(session.file) == ["one", "two"]
    assert await reopened_texts(tmp_path, session.session_id) == ["one", "two"]


async def test_records_older_than_the_checkpoint_are_not_replayed(tmp_path: Path) -> None:
    session = await Open.create(tmp_path)
    await session.say("one")
    stale = session.journal.read_bytes()
    await session.say("two")
    await session.autosaver.checkpoint()
    # A crash between writing the checkpoint and deleting the journal leaves old records.
    session.journal.write_bytes(stale)
    await session.crash()
    assert await reopened_texts(tmp_path, session.session_id) == ["one", "two"]

    again = await Open.load(tmp_path, session.session_id)
    await again.say("three")
    await again.crash()
    assert await reopened_texts(tmp_path, session.session_id) == ["one", "two", "three"]


async def test_a_streamed_reply_an_edit_and_a_delete_are_replayed(tmp_path: Path) -> None:
    session = await Open.create(tmp_path)
    await session.say("question", "first answer", "second question")
    reply = Msg("assistant", "Once upon", "assistant")
    session.autosaver.changed(unfinished_reply=reply)
    await session.autosaver.flush()
    reply.content = "Once upon a time there was"
    session.autosaver.changed(unfinished_reply=reply)
    await session.autosaver.flush()
    found = read_with_journal(session.file).parts
    assert found["unfinished_reply"]["content"] == "Once upon a time there was"

    await session.state.memory.add(reply)
    await session.say()  # the reply is finished: in memory, no longer unfinished
    edited = session.memory.content[1][0]
    edited.content = "an edited first answer"  # reassigned in place, as edits do
    await session.say()
    await session.state.memory.delete([session.memory.content[2][0].id])
    await session.say()
    await session.crash()
    found = read_with_journal(session.file).parts
    assert "unfinished_reply" not in found
    assert texts_in(found) == ["question", "an edited first answer", "Once upon a time there was"]


async def test_the_sidebar_search_export_and_trash_see_journaled_messages(
    tmp_path: Path,
) -> None:
    session = await Open.create(tmp_path)
    await session.say("Where is the ferry?", "At the harbour.")
    await session.autosaver.checkpoint()
    await session.say("And the zanzibar boat?", "Also there.")
    await session.crash()  # nothing but the journal holds the last two messages

    library = SessionLibrary(tmp_path)
    (row,) = await library.list()
    assert row.title == "Where is the ferry?" and row.message_count == 4
    (hit,) = await library.search("zanzibar")
    assert "zanzibar boat" in hit.snippet
    parts = await library.read_parts(session.session_id)
    assert texts_in(parts) == [
        "Where is the ferry?",
        "At the harbour.",
        "And the zanzibar boat?",
        "Also there.",
    ]
    await library.delete(session.session_id)
    assert texts_in(await library.read_trashed(session.session_id)) == texts_in(parts)
    await library.restore(session.session_id)
    assert await reopened_texts(tmp_path, session.session_id) == texts_in(parts)


async def test_a_rename_survives_a_crash_with_a_journal(tmp_path: Path) -> None:
    session = await Open.create(tmp_path)
    await session.say("hello")
    await session.library.rename(session.session_id, "My title")
    await session.crash()
    (row,) = await SessionLibrary(tmp_path).list()
    assert row.title == "My title"


async def test_the_checkpoint_is_a_plain_jsonsession_file(tmp_path: Path) -> None:
    session = await Open.create(tmp_path)
    await session.say("one", "two")
    await session.autosaver.checkpoint()
    await session.say("three")  # only in the journal: AgentScope sees the checkpoint
    await session.crash()
    state = AgentState()
    store = JSONSession(str(session.library.sessions_dir))
    await store.load_session_state(session.session_id, agent=state)
    memory = cast(SessionMemory, state.memory)
    assert [msg.get_text_content() for msg, _ in memory.content] == ["one", "two"]


async def test_a_copied_session_folder_opens_with_its_journal(tmp_path: Path) -> None:
    session = await Open.create(tmp_path / "a")
    await session.say("one")
    await session.crash()
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    assert await reopened_texts(tmp_path / "b", session.session_id) == ["one"]


async def test_a_backup_holds_journaled_messages(tmp_path: Path) -> None:
    session = await Open.create(tmp_path / "a")
    await session.say("backed up", "yes")
    await session.crash()
    settings = tmp_path / "settings.json"
    save_settings(Settings(), settings)
    written = await write_backup(session.library, tmp_path / "b.zip", settings_file=settings)
    with zipfile.ZipFile(written.path) as archive:
        parts = orjson.loads(archive.read(f"sessions/{session.session_id}.json"))
    assert texts_in(parts) == ["backed up", "yes"]


async def test_an_idle_session_and_a_long_journal_are_checkpointed(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    state = AgentState()
    journal = library.sessions_dir / f"{session_id}.journal"
    saved = asyncio.Event()
    idle = Autosaver(
        library, session_id, {"agent": state}, checkpoint_after=0.05, on_saved=lambda _: saved.set()
    )
    await state.memory.add(Msg("user", "hello", "user"))
    idle.message_finished()
    await idle.flush()
    assert journal.exists() and idle.checkpoints == 0
    saved.clear()
    async with asyncio.timeout(10):
        await saved.wait()  # nothing changes: the idle checkpoint comes
    assert idle.checkpoints == 1 and not journal.exists()
    await idle.aclose()

    small = Autosaver(library, session_id, {"agent": state}, journal_limit=1)
    for text in ("one", "two"):
        await state.memory.add(Msg("user", text, "user"))
        small.message_finished()
        await small.flush()
    assert small.checkpoints == 1 and not journal.exists()  # the second save was one
    await small.aclose()
    await library.close_all()
    assert file_texts(library.sessions_dir / f"{session_id}.json") == ["hello", "one", "two"]


async def test_a_large_image_in_a_journaled_message_becomes_a_blob_file(tmp_path: Path) -> None:
    session = await Open.create(tmp_path)
    image = big_base64(300_000)
    source = {"type": "base64", "media_type": "image/png", "data": image}
    blocks: Any = [{"type": "text", "text": "look"}, {"type": "image", "source": source}]
    await session.state.memory.add(Msg("user", blocks, "user"))
    await session.say()
    await session.crash()
    assert image.encode() not in session.journal.read_bytes()
    (blob,) = session.library.blobs_dir(session.session_id).iterdir()
    found = read_with_journal(session.file).parts
    saved_source = found["agent"]["memory"]["content"][0][0]["content"][1]["source"]
    assert saved_source == {"type": "url", "url": str(blob), "media_type": "image/png"}
