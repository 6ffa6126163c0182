"""Edit & resend, regenerate, versions, delete — against the loopback server: after each
change the next request holds exactly the path on screen, and nothing is lost."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import SecretStr

from desktop_agent.app import ChatService, Conversation, Provider, Settings, VersionInfo
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


class Chat:
    def __init__(self, service: ChatService, conversation: Conversation) -> None:
        self.service = service
        self.versions = service.versions
        self.conversation = conversation

    def shown(self) -> list[str]:
        """The chat rows: role and text (tool steps by their kind)."""
        return [_label(e.msg) for e in self.conversation.entries if e.msg is not None]

    async def remembered(self) -> list[str]:
        return [_label(m) for m in await self.service.memory.get_memory()]

    def user_id(self, text: str) -> str:
        return next(
            e.msg.id
            for e in self.conversation.entries
            if e.msg is not None and e.msg.role == "user" and e.msg.get_text_content() == text
        )

    async def until(self, condition: Callable[[], object], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, "condition not met in time"
            await asyncio.sleep(0.005)


def _label(msg: Any) -> str:
    kinds = {b.get("type") for b in msg.get_content_blocks()} if msg is not None else set()
    if "tool_result" in kinds:
        return "tool result"
    text = msg.get_text_content() or ""
    return f"{msg.role}: {text}" + (" +tool call" if "tool_use" in kinds else "")


def sent(server: OpenAICompatServer) -> list[str]:
    """The last request's messages (no system prompt), labelled like :func:`_label`."""
    labels = []
    for message in server.chat_requests[-1].messages:
        if message["role"] == "system":
            continue
        if message["role"] == "tool":
            labels.append("tool result")
            continue
        content = message.get("content") or ""
        if isinstance(content, list):
            content = "".join(part.get("text", "") for part in content)
        call = " +tool call" if message.get("tool_calls") else ""
        labels.append(f"{message['role']}: {content}{call}")
    return labels


@pytest.fixture
async def chat(server: OpenAICompatServer, tmp_path: Path) -> AsyncIterator[Chat]:
    conversation = Conversation()
    provider = Provider("Test", server.base_url, "test-model", SecretStr(""), "environment")

    async def allow(_request: Any) -> Literal["allow_once"]:
        return "allow_once"

    settings = Settings(working_folder=str(tmp_path), stream_idle_timeout=2.0)
    service = ChatService(conversation, settings, provider, ask_permission=allow)
    yield Chat(service, conversation)
    await service.aclose()


async def test_edit_resends_a_new_version_and_the_old_one_stays(
    chat: Chat, server: OpenAICompatServer
) -> None:
    server.add_reply("A1", "B1", "A2", "C")
    await chat.service.send("a")
    await chat.service.send("b")
    task = await chat.versions.edit(chat.user_id("a"), "a, edited")
    assert task is not None
    await task
    assert sent(server) == ["user: a, edited"]
    assert chat.shown() == ["user: a, edited", "assistant: A2"]
    edited = chat.user_id("a, edited")
    assert chat.versions.user_versions(edited) == VersionInfo(1, 2)

    assert await chat.versions.switch(edited, -1)
    expected = ["user: a", "assistant: A1", "user: b", "assistant: B1"]
    assert chat.shown() == expected
    assert await chat.remembered() == expected
    assert chat.versions.user_versions(chat.user_id("a")) == VersionInfo(0, 2)
    await chat.service.send("c")
    assert sent(server) == [*expected, "user: c"]


async def test_regenerate_makes_a_sibling_answer(chat: Chat, server: OpenAICompatServer) -> None:
    server.add_reply("R1", "R2", "N")
    await chat.service.send("q")
    answer_id = chat.conversation.entries[-1].msg.id  # type: ignore[union-attr]
    task = await chat.versions.regenerate(answer_id)
    assert task is not None
    await task
    assert sent(server) == ["user: q"]  # the old answer is not sent back
    assert chat.shown() == ["user: q", "assistant: R2"]
    q = chat.user_id("q")
    assert chat.versions.answer_versions(q) == VersionInfo(1, 2)
    assert chat.versions.user_versions(q) == VersionInfo(0, 1)

    assert await chat.versions.switch(q, -1, answer=True)
    assert chat.shown() == ["user: q", "assistant: R1"]
    await chat.service.send("next")
    assert sent(server) == ["user: q", "assistant: R1", "user: next"]
    history = [m.get_text_content() for m in chat.service.input_module.short_term_memory]
    assert history == ["q", "R1", "next", "N"]  # the short-term memory follows the path


async def test_tool_steps_move_with_their_turn(chat: Chat, server: OpenAICompatServer) -> None:
    call = ScriptedToolCall("list_directory", {"path": "."})
    server.add_reply(ScriptedReply("Looking.", tool_calls=[call]), "Empty.", "Plain.", "Ok")
    await chat.service.send("files?")
    with_tools = ["user: files?", "assistant: Looking. +tool call", "tool result"]
    assert chat.shown() == [*with_tools, "assistant: Empty."]
    task = await chat.versions.regenerate(chat.user_id("files?"))
    assert task is not None
    await task
    assert sent(server) == ["user: files?"]
    assert await chat.remembered() == ["user: files?", "assistant: Plain."]
    assert await chat.versions.switch(chat.user_id("files?"), -1, answer=True)
    assert await chat.remembered() == [*with_tools, "assistant: Empty."]
    await chat.service.send("thanks")
    assert sent(server) == [*with_tools, "assistant: Empty.", "user: thanks"]


async def test_delete_takes_a_turn_off_the_path_and_undo_puts_it_back(
    chat: Chat, server: OpenAICompatServer
) -> None:
    server.add_reply("A", "B", "C", "D", "E")
    for text in ("a", "b", "c"):
        await chat.service.send(text)
    answer_b = chat.conversation.entries[3].msg.id  # type: ignore[union-attr]
    assert await chat.versions.delete(answer_b)
    assert chat.shown() == ["user: a", "assistant: A", "user: c", "assistant: C"]
    assert chat.versions.can_undo_delete
    assert await chat.versions.undo_delete()
    everything = ["user: a", "assistant: A", "user: b", "assistant: B", "user: c", "assistant: C"]
    assert chat.shown() == everything
    assert await chat.remembered() == everything
    assert await chat.versions.delete(chat.user_id("b"))
    await chat.service.send("d")
    assert sent(server) == ["user: a", "assistant: A", "user: c", "assistant: C", "user: d"]


async def test_editing_a_running_turn_stops_it_and_keeps_the_partial_answer(
    chat: Chat, server: OpenAICompatServer
) -> None:
    server.add_reply(ScriptedReply("Half an answ", stall_after_chunks=2), "Whole.")
    task = chat.service.send("long one")
    await chat.until(lambda: chat.shown()[-1].startswith("assistant: Half"))
    edit = await chat.versions.edit(chat.user_id("long one"), "short one")
    assert edit is not None and task.done()
    await edit
    assert sent(server) == ["user: short one"]
    assert await chat.versions.switch(chat.user_id("short one"), -1)
    assert chat.shown()[0] == "user: long one"  # kept, as a version:
    assert chat.shown()[1].startswith("assistant: Half")
    assert chat.conversation.entries[1].msg.metadata.get("_is_interrupted")  # type: ignore[union-attr]


async def test_continue_works_on_a_version_that_was_cut_off(
    chat: Chat, server: OpenAICompatServer
) -> None:
    server.add_reply(ScriptedReply("Once upon", finish_reason="length"), "The end.")
    await chat.service.send("story")
    assert chat.service.can_continue
    task = await chat.versions.regenerate(chat.user_id("story"))
    assert task is not None
    await task
    assert not chat.service.can_continue
    assert await chat.versions.switch(chat.user_id("story"), -1, answer=True)
    assert chat.service.can_continue  # the version shown was cut off: it offers Continue
    assert chat.conversation.entries[-1].actions == ("continue",)
    server.add_reply(" a time.")
    continued = chat.service.continue_answer()
    assert continued is not None
    await continued
    assert chat.shown() == ["user: story", "assistant: Once upon a time."]
    assert sent(server)[:2] == ["user: story", "assistant: Once upon"]
    assert chat.versions.answer_versions(chat.user_id("story")) == VersionInfo(0, 2)


async def test_a_failed_regenerate_retries_as_a_regenerate(
    chat: Chat, server: OpenAICompatServer
) -> None:
    server.add_reply("R1", ScriptedReply.error(500, "boom"), "R2")
    await chat.service.send("q")
    task = await chat.versions.regenerate(chat.user_id("q"))
    assert task is not None
    await task
    assert chat.service.can_retry
    retried = chat.service.retry()
    assert retried is not None
    await retried
    assert sent(server) == ["user: q"]
    assert chat.shown() == ["user: q", "assistant: R2"]
