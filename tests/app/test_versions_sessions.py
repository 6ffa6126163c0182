"""Versions in saved sessions: the agent's part holds exactly the path on screen (what
``JSONSession`` reads), the other versions are saved beside it and come back, and sessions
saved before versions existed open as a single path that can be edited."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from desktop_agent.agent import ReActAgent
from desktop_agent.app import (
    ChatService,
    Conversation,
    Provider,
    SessionSwitcher,
    Settings,
    VersionInfo,
)
from desktop_agent.app.library._journal import read_with_journal
from desktop_agent.formatter import OpenAIChatFormatter
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg
from desktop_agent.model import OpenAIChatModel
from desktop_agent.session import JSONSession
from desktop_agent.testing import OpenAICompatServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sessions"
V1_SESSION = "TPQfCfTydWVDAQkpgZ4Hgt"


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


class Chat:
    def __init__(self, server: OpenAICompatServer, home: Path) -> None:
        provider = Provider("Test", server.base_url, "test-model", SecretStr("k"), "environment")
        self.conversation = Conversation()
        self.service = ChatService(self.conversation, Settings(), provider)
        self.switcher = SessionSwitcher(self.service, self.conversation, root=home)

    def shown(self) -> list[str]:
        return [
            f"{e.msg.role}: {e.msg.get_text_content()}"
            for e in self.conversation.entries
            if e.msg is not None
        ]

    def user_id(self, text: str) -> str:
        return next(
            e.msg.id
            for e in self.conversation.entries
            if e.msg is not None and e.msg.role == "user" and e.msg.get_text_content() == text
        )

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


async def test_versions_are_saved_beside_the_path_on_screen_and_come_back(
    chat: Chat, server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    server.add_reply("R1", "R2", "A")
    await chat.service.send("q")
    task = await chat.service.versions.regenerate(chat.user_id("q"))
    assert task is not None
    await task
    task = await chat.service.versions.edit(chat.user_id("q"), "q2")
    assert task is not None
    await task
    await chat.switcher.save_now()
    session_id = chat.switcher.active_id
    assert session_id is not None
    saved = _file(desktop_agent_home, session_id)
    on_screen = ["user: q2", "assistant: A"]
    stored = [Msg.from_dict(m[0]) for m in saved["agent"]["memory"]["content"]]
    assert [f"{m.role}: {m.get_text_content()}" for m in stored] == on_screen
    assert "versions" in saved

    # An AgentScope-style JSONSession reads the agent's part as an ordinary agent state.
    model = OpenAIChatModel("m", api_key="k", client_kwargs={"base_url": server.base_url})
    agent = ReActAgent("Assistant", "", model, OpenAIChatFormatter(), memory=InMemoryMemory())
    await JSONSession(save_dir=str(desktop_agent_home / "sessions")).load_session_state(
        session_id, agent=agent
    )
    assert [m.get_text_content() for m in await agent.memory.get_memory()] == ["q2", "A"]
    await model.aclose()

    await chat.aclose()
    again = Chat(server, desktop_agent_home)
    await again.switcher.start()
    try:
        await again.switcher.open(session_id)
        assert again.shown() == on_screen
        versions = again.service.versions
        assert versions.user_versions(again.user_id("q2")) == VersionInfo(1, 2)
        assert await versions.switch(again.user_id("q2"), -1)
        assert again.shown() == ["user: q", "assistant: R2"]
        assert versions.answer_versions(again.user_id("q")) == VersionInfo(1, 2)
        assert await versions.switch(again.user_id("q"), -1, answer=True)
        assert again.shown() == ["user: q", "assistant: R1"]
        await again.service.send("more")
        sent = [m["role"] for m in server.chat_requests[-1].messages]
        assert sent == ["system", "user", "assistant", "user"]
    finally:
        await again.aclose()


async def test_a_session_saved_before_versions_opens_as_one_path(
    chat: Chat, server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    shutil.copytree(FIXTURES / "v1", desktop_agent_home, dirs_exist_ok=True)
    await chat.switcher.open(V1_SESSION)
    versions = chat.service.versions
    users = [e.msg for e in chat.conversation.entries if e.msg is not None and e.msg.role == "user"]
    assert len(users) == 2
    for user in users:
        assert versions.user_versions(user.id) == VersionInfo(0, 1)
        assert versions.answer_versions(user.id) == VersionInfo(0, 1)

    server.add_reply("Circles have none.")
    task = await versions.edit(users[1].id, "Tell me a fact about circles.")
    assert task is not None
    await task
    request = server.chat_requests[-1].messages
    assert [m["role"] for m in request] == ["system", "user", "assistant", "user"]
    assert request[-1]["content"] in (
        "Tell me a fact about circles.",
        [{"type": "text", "text": "Tell me a fact about circles."}],
    )
    await chat.switcher.save_now()
    saved = _file(desktop_agent_home, V1_SESSION)
    assert len(saved["agent"]["memory"]["content"]) == 4
    assert saved["versions"]["forks"]  # the old question and its answer, kept


async def test_a_long_branch_is_saved_flat_and_comes_back(
    chat: Chat, server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    history = []
    for turn in range(400):  # deeper than JSON encoders (and the session scanner) recurse
        history += [Msg("User", f"q{turn}", "user"), Msg("Assistant", f"a{turn}", "assistant")]
    memory: Any = chat.service.agent_state.memory
    memory.content = [(msg, []) for msg in history]
    chat.conversation.reset(history)
    server.add_reply("S", "fresh")
    await chat.service.send("start")
    task = await chat.service.versions.edit(chat.user_id("q0"), "a new start")
    assert task is not None
    await task
    assert chat.shown() == ["user: a new start", "assistant: fresh"]
    await chat.switcher.save_now()
    session_id = chat.switcher.active_id
    assert session_id is not None
    await chat.aclose()
    again = Chat(server, desktop_agent_home)
    await again.switcher.start()
    try:
        await again.switcher.open(session_id)
        assert again.shown() == ["user: a new start", "assistant: fresh"]
        assert await again.service.versions.switch(again.user_id("a new start"), -1)
        assert len(again.shown()) == 802 and again.shown()[-2] == "user: start"
    finally:
        await again.aclose()


async def test_autosave_covers_a_switch_and_a_delete(
    chat: Chat, server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    server.add_reply("R1", "R2", "B")
    await chat.service.send("q")
    task = await chat.service.versions.regenerate(chat.user_id("q"))
    assert task is not None
    await task
    await chat.service.send("b")
    await chat.switcher.save_now()
    session_id = chat.switcher.active_id
    assert session_id is not None

    def saved_texts() -> list[str]:
        content = _file(desktop_agent_home, session_id)["agent"]["memory"]["content"]
        return [Msg.from_dict(m[0]).get_text_content() or "" for m in content]

    assert await chat.service.versions.switch(chat.user_id("q"), -1, answer=True)
    await _until(lambda: saved_texts() == ["q", "R1"])  # no explicit save: the autosave
    assert await chat.service.versions.delete(chat.user_id("q"))
    await _until(lambda: saved_texts() == [])


async def _until(condition: Any, timeout: float = 5.0) -> None:
    import asyncio
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


async def test_an_agentscope_session_with_tool_steps_opens_as_one_path(
    chat: Chat, server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    shutil.copytree(FIXTURES / "v0", desktop_agent_home, dirs_exist_ok=True)
    await chat.switcher.open("friday")
    question = chat.user_id("Wie spät ist es in Tokio? 🗼")
    versions = chat.service.versions
    assert versions.user_versions(question) == VersionInfo(0, 1)
    assert versions.answer_versions(question) == VersionInfo(0, 1)
    server.add_reply("Es ist 19:35 Uhr.")
    task = await versions.regenerate(question)
    assert task is not None
    await task
    request = server.chat_requests[-1].messages
    assert [m["role"] for m in request] == ["system", "user"]  # the tool steps left with it
    assert await versions.switch(question, -1, answer=True)
    roles = [e.msg.role for e in chat.conversation.entries if e.msg is not None]
    assert roles == ["user", "assistant", "system", "assistant"]  # and came back with it


async def test_an_edited_message_is_saved_before_its_request_leaves(
    chat: Chat, server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    server.add_reply("A1")
    await chat.service.send("first")
    await chat.switcher.save_now()
    session_id = chat.switcher.active_id
    assert session_id is not None
    on_disk: list[list[str]] = []

    def answer(_request: Any) -> str:
        content = _file(desktop_agent_home, session_id)["agent"]["memory"]["content"]
        on_disk.append([Msg.from_dict(m[0]).get_text_content() or "" for m in content])
        return "A2"

    server.add_reply(answer)
    task = await chat.service.versions.edit(chat.user_id("first"), "second")
    assert task is not None
    await task
    assert on_disk == [["second"]]
