"""SessionSwitcher with the chat service and the loopback server, on a plain asyncio loop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from pydantic import SecretStr

from desktop_agent.app import (
    ActiveSessionChanged,
    ChatService,
    Conversation,
    EntryKind,
    Provider,
    SessionSwitcher,
    Settings,
)
from desktop_agent.app.library import SessionCorruptError, SessionLibrary
from desktop_agent.app.library._journal import read_with_journal
from desktop_agent.message import Msg
from desktop_agent.testing import OpenAICompatServer, ScriptedReply


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


class Chat:
    """A conversation, its service and switcher, and the switcher's events."""

    def __init__(self, server: OpenAICompatServer, home: Path) -> None:
        provider = Provider("Test", server.base_url, "test-model", SecretStr("k"), "environment")
        self.conversation = Conversation()
        self.service = ChatService(self.conversation, Settings(), provider)
        self.switcher = SessionSwitcher(self.service, self.conversation, root=home)
        self.events: list[Any] = []
        self.switcher.add_listener(self.events.append)

    async def turn(self, text: str) -> None:
        await self.service.send(text)

    def texts(self) -> list[str]:
        return [
            e.msg.get_text_content() or "" if e.msg is not None else f"error: {e.error_text}"
            for e in self.conversation.entries
        ]

    async def until(self, condition: Callable[[], object], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, "condition not met in time"
            await asyncio.sleep(0.005)

    async def aclose(self) -> None:
        await self.service.aclose()
        await self.switcher.aclose()


@pytest.fixture
async def chat(server: OpenAICompatServer, desktop_agent_home: Path) -> AsyncIterator[Chat]:
    made = Chat(server, desktop_agent_home)
    await made.switcher.start()
    yield made
    await made.aclose()


def _file(home: Path, session_id: str) -> dict[str, Any]:
    """The saved session as the app reads it: the file with its journal replayed."""
    return read_with_journal(home / "sessions" / f"{session_id}.json").parts


async def test_the_first_message_makes_a_session_titled_after_it(
    chat: Chat, server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    assert await chat.switcher.list_sessions() == []
    server.add_reply(ScriptedReply("Hi!"))
    await chat.turn("Hello there, assistant")
    await chat.until(lambda: chat.switcher.active_id is not None)
    await chat.switcher.save_now()
    (row,) = await chat.switcher.list_sessions()
    assert row.title == "Hello there, assistant" and row.model == "test-model"
    saved = _file(desktop_agent_home, row.session_id)
    assert [m[0]["role"] for m in saved["agent"]["memory"]["content"]] == ["user", "assistant"]
    assert saved["meta"]["message_count"] == 2
    opened = [e for e in chat.events if isinstance(e, ActiveSessionChanged)]
    assert opened[-1].session_id == row.session_id


async def test_opening_a_session_restores_chat_memory_and_template(
    chat: Chat, server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    server.add_reply(ScriptedReply("Blue."))
    await chat.turn("Favourite colour?")
    await chat.until(lambda: chat.switcher.active_id is not None)
    first = chat.switcher.active_id
    assert first is not None
    template = chat.service.input_module.config.model_dump(mode="json", exclude_none=True)
    template["context_template"][0]["module_name"] = "identity"
    await chat.service.apply_template(template)
    assert (
        _file(desktop_agent_home, first)["agent"]["input_module"]["config"]["context_template"][0][
            "module_name"
        ]
        == "identity"
    )

    await chat.switcher.new_chat()
    assert (
        chat.texts() == []
        and chat.service.input_module.config.context_template[0].module_name == "persona"
    )
    server.add_reply(ScriptedReply("Sure."))
    await chat.turn("Another topic")
    await chat.until(lambda: chat.switcher.active_id not in (None, first))

    loaded = await chat.switcher.open(first)
    assert loaded is not None and not loaded.read_only
    assert chat.texts() == ["Favourite colour?", "Blue."]
    assert [m.get_text_content() for m in await chat.service.memory.get_memory()] == chat.texts()
    assert chat.service.input_module.config.context_template[0].module_name == "identity"
    server.add_reply(ScriptedReply("Still blue."))
    await chat.turn("And now?")
    contents = [m["content"] for m in server.chat_requests[-1].messages]
    assert any("Favourite colour?" in str(c) for c in contents)
    assert any("Blue." in str(c) for c in contents)


async def test_a_damaged_session_leaves_the_chat_as_it_was(
    chat: Chat, server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    library = SessionLibrary(desktop_agent_home)
    damaged = await library.create(title="Broken")
    await library.close_all()
    path = desktop_agent_home / "sessions" / f"{damaged}.json"
    path.write_bytes(b'{"meta": {"schema_version": 1}, "agent": {"memory": 12}}')
    server.add_reply(ScriptedReply("Kept."))
    await chat.turn("Keep me")
    await chat.until(lambda: chat.switcher.active_id is not None)
    active = chat.switcher.active_id
    with pytest.raises(SessionCorruptError):
        await chat.switcher.open(damaged)
    assert chat.switcher.active_id == active and chat.texts() == ["Keep me", "Kept."]
    assert path.read_bytes() == b'{"meta": {"schema_version": 1}, "agent": {"memory": 12}}'


async def test_the_last_session_is_remembered(
    server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    first = Chat(server, desktop_agent_home)
    server.add_reply(ScriptedReply("Stored."))
    await first.turn("Remember this")
    await first.until(lambda: first.switcher.active_id is not None)
    active = first.switcher.active_id
    await first.aclose()
    assert orjson.loads((desktop_agent_home / "state.json").read_bytes()) == {
        "last_session": active
    }

    second = Chat(server, desktop_agent_home)
    try:
        loaded = await second.switcher.reopen_last()
        assert loaded is not None and second.switcher.active_id == active
        assert second.texts() == ["Remember this", "Stored."]
    finally:
        await second.aclose()


async def test_an_unfinished_reply_comes_back_as_interrupted(
    server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    library = SessionLibrary(desktop_agent_home)
    chat = Chat(server, desktop_agent_home)
    state = chat.service.agent_state
    await state.memory.add(Msg("User", "Write a poem", "user"))
    session_id = await library.create()
    partial = Msg("Assistant", [{"type": "text", "text": "Roses are"}], "assistant")
    await library.save(session_id, agent=state, unfinished_reply=partial)
    await library.close_all()
    try:
        await chat.switcher.open(session_id)
        kinds = [
            (e.kind, e.msg.get_text_content() if e.msg else "") for e in chat.conversation.entries
        ]
        assert kinds[:2] == [(EntryKind.MESSAGE, "Write a poem"), (EntryKind.MESSAGE, "Roses are")]
        assert chat.conversation.entries[2].kind is EntryKind.ERROR
        memory = await chat.service.memory.get_memory()
        assert memory[-1].metadata["_is_interrupted"] is True
        await chat.switcher.save_now()
        assert "unfinished_reply" not in _file(desktop_agent_home, session_id)
        assert len(_file(desktop_agent_home, session_id)["agent"]["memory"]["content"]) == 2
    finally:
        await chat.aclose()


async def test_deleting_the_active_session_starts_an_empty_chat(
    chat: Chat, server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    server.add_reply(ScriptedReply("Bye."))
    await chat.turn("Delete me")
    await chat.until(lambda: chat.switcher.active_id is not None)
    session_id = chat.switcher.active_id
    assert session_id is not None
    assert await chat.switcher.delete(session_id) is True
    assert chat.switcher.active_id is None and chat.texts() == []
    assert await chat.switcher.list_sessions() == []
    await chat.switcher.restore(session_id)
    assert [row.session_id for row in await chat.switcher.list_sessions()] == [session_id]
