"""How a turn ends against real-server behaviour (the loopback server): cut-off streams,
token-limit stops, thinking-only replies, Stop, Continue, Retry — and that the next
request always has well-formed, alternating turns."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from desktop_agent.app import (
    ChatService,
    Conversation,
    EntryKind,
    Provider,
    Settings,
    TurnFailed,
    TurnFinished,
    TurnInterrupted,
    TurnStarted,
    answer_ending,
)
from desktop_agent.message import Msg
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall

CUT = {"send_finish": False, "send_done": False, "usage": None}
"""A stream that just ends: no finish reason, no [DONE] (a proxy closed it)."""


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


class Chat:
    def __init__(self, service: ChatService, conversation: Conversation) -> None:
        self.service = service
        self.conversation = conversation
        self.events: list[Any] = []
        self.asked: list[Any] = []
        service.subscribe(self.events.append)

    async def memory(self) -> list[Msg]:
        return list(await self.service.memory.get_memory())

    def answers(self) -> list[Msg]:
        return [
            e.msg
            for e in self.conversation.entries
            if e.msg is not None and e.msg.role == "assistant"
        ]

    async def until(self, condition: Callable[[], object], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, "condition not met in time"
            await asyncio.sleep(0.005)


@pytest.fixture
async def chat(server: OpenAICompatServer, tmp_path: Path) -> AsyncIterator[Chat]:
    conversation = Conversation()
    asked: list[Any] = []

    async def allow(request: Any) -> str:
        asked.append(request)
        return "allow_once"

    provider = Provider("Test", server.base_url, "test-model", SecretStr(""), "environment")
    settings = Settings(working_folder=str(tmp_path), stream_idle_timeout=0.3)
    service = ChatService(conversation, settings, provider, ask_permission=allow)
    harness = Chat(service, conversation)
    harness.asked = asked
    yield harness
    await service.aclose()


def assert_well_formed(messages: list[dict[str, Any]]) -> None:
    """system?, then user/assistant alternating; an assistant's tool calls are followed by
    exactly their tool results, then the assistant again (or the user, after a Stop); the
    request ends with the user (a new turn) or tool results (the next step of a turn)."""
    roles = [m["role"] for m in messages]
    index = 1 if roles and roles[0] == "system" else 0
    expected = "user"
    while index < len(messages):
        message = messages[index]
        assert message["role"] == expected, f"{roles}: expected {expected} at {index}"
        index += 1
        if expected == "assistant" and message.get("tool_calls"):
            ids = [call["id"] for call in message["tool_calls"]]
            results = [m.get("tool_call_id") for m in messages[index : index + len(ids)]]
            assert results == ids, f"{roles}: tool calls {ids} answered by {results}"
            index += len(ids)
            if index < len(messages) and messages[index]["role"] == "assistant":
                continue  # the assistant speaks again after the results
            # ... or the turn was stopped there and the user speaks next
        expected = "assistant" if expected == "user" else "user"
    assert roles[-1] in ("user", "tool"), roles  # a new turn, or the next step of one


async def test_a_cut_off_stream_is_marked_with_retry_and_continue(
    chat: Chat, server: OpenAICompatServer
) -> None:
    server.add_reply(ScriptedReply("The capital of France is Pa", **CUT))
    await chat.service.send("capital?")
    ending = chat.events[-1]
    assert isinstance(ending, TurnFinished) and ending.cut_off
    (answer,) = chat.answers()
    assert answer.get_text_content() == "The capital of France is Pa"
    assert answer_ending(answer) == "cut_off"
    assert chat.conversation.entries[-1].actions == ("retry", "continue")
    stored = await chat.memory()
    assert _ending_metadata(stored[-1]) == {"finish_reason": None}  # what the session saves
    assert chat.service.can_retry and chat.service.can_continue

    server.add_reply("The capital of France is Paris.")
    task = chat.service.retry()
    assert task is not None
    await task
    assert [m.get_text_content() for m in await chat.memory()] == [
        "capital?",
        "The capital of France is Paris.",
    ]
    assert chat.conversation.entries[-1].actions == ()
    assert all(e.actions == () for e in chat.conversation.entries)
    assert_well_formed(server.chat_requests[-1].messages)


async def test_continue_grows_one_answer(chat: Chat, server: OpenAICompatServer) -> None:
    server.add_reply(ScriptedReply("Once upon a time there", finish_reason="length"))
    await chat.service.send("a story")
    assert chat.events[-1] == TurnFinished(chat.events[-1].usage, "length")
    assert answer_ending(chat.answers()[0]) == "length"
    assert chat.conversation.entries[-1].actions == ("continue",)
    assert not chat.service.can_retry

    server.add_reply(ScriptedReply(" was a dragon.", chunk_size=3))
    task = chat.service.continue_answer()
    assert task is not None
    await task
    assert chat.events[-2] == TurnStarted(continuation=True)
    request = server.chat_requests[-1].messages
    assert [m["role"] for m in request] == ["system", "user", "assistant", "user"]
    assert "Continue" in str(request[-1]["content"])
    (answer,) = chat.answers()  # one answer, grown — not a second bubble
    assert answer.get_text_content() == "Once upon a time there was a dragon."
    assert answer_ending(answer) is None
    stored = await chat.memory()
    assert [(m.role, m.get_text_content()) for m in stored] == [
        ("user", "a story"),
        ("assistant", "Once upon a time there was a dragon."),
    ]
    assert _ending_metadata(stored[-1]) == {"finish_reason": "stop"}
    assert chat.service.continue_answer() is None  # nothing left to continue
    history = [m.get_text_content() for m in chat.service.input_module.short_term_memory]
    assert history == ["a story", "Once upon a time there", " was a dragon."]  # no repeat


async def test_a_length_stop_inside_tool_arguments_never_runs_the_tool(
    chat: Chat, server: OpenAICompatServer, tmp_path: Path
) -> None:
    call = ScriptedToolCall("write_text_file", '{"path": "notes.txt", "content": "Dear')
    server.add_reply(ScriptedReply("Writing it.", tool_calls=[call], finish_reason="length"))
    await chat.service.send("write a letter")
    assert not (tmp_path / "notes.txt").exists()
    assert chat.asked == []  # not even asked: it will not run
    results = [
        b for m in await chat.memory() for b in m.get_content_blocks() if b["type"] == "tool_result"
    ]
    assert len(results) == 1 and "not executed" in str(results[0]["output"])
    assert isinstance(chat.events[-1], TurnFinished) and chat.events[-1].at_token_limit
    assert len(server.chat_requests) == 1  # the turn ended there
    await chat.service.send("try again, shorter")
    assert_well_formed(server.chat_requests[-1].messages)


async def test_a_cut_stream_inside_tool_arguments_never_runs_the_tool(
    chat: Chat, server: OpenAICompatServer, tmp_path: Path
) -> None:
    call = ScriptedToolCall("write_text_file", '{"path": "notes.txt", "content": "Dear')
    server.add_reply(ScriptedReply(tool_calls=[call], **CUT))
    await chat.service.send("write a letter")
    assert not (tmp_path / "notes.txt").exists()
    assert isinstance(chat.events[-1], TurnFinished) and chat.events[-1].cut_off


async def test_arguments_that_do_not_fit_are_a_readable_tool_error(
    chat: Chat, server: OpenAICompatServer, caplog: pytest.LogCaptureFixture
) -> None:
    call = ScriptedToolCall("write_text_file", {"path": "notes.txt"})  # no content
    server.add_reply(ScriptedReply(tool_calls=[call]), "Sorry.")
    await chat.service.send("write")
    results = [
        b for m in await chat.memory() for b in m.get_content_blocks() if b["type"] == "tool_result"
    ]
    assert "missing the required argument 'content'" in str(results[0]["output"])
    assert "Traceback" not in caplog.text
    assert chat.asked == []


async def test_a_relative_path_resolves_in_the_working_folder(
    chat: Chat, server: OpenAICompatServer, tmp_path: Path
) -> None:
    call = ScriptedToolCall("write_text_file", {"path": "notes.txt", "content": "hi"})
    server.add_reply(ScriptedReply(tool_calls=[call]), "Done.")
    await chat.service.send("write")
    assert (tmp_path / "notes.txt").read_text() == "hi"
    assert str(tmp_path / "notes.txt") in chat.asked[0].summary


async def test_programs_run_in_the_working_folder(
    chat: Chat, server: OpenAICompatServer, tmp_path: Path
) -> None:
    code = "import os; print(os.getcwd())"
    call = ScriptedToolCall("execute_python_code", {"code": code})
    server.add_reply(ScriptedReply(tool_calls=[call]), "Done.")
    await chat.service.send("where are you?")
    results = [
        b for m in await chat.memory() for b in m.get_content_blocks() if b["type"] == "tool_result"
    ]
    assert f"<stdout>{tmp_path}\n</stdout>" in results[0]["output"][0]["text"]
    assert f"Run this Python code in {tmp_path} " in chat.asked[0].summary


async def test_a_thinking_only_reply_keeps_its_turn(chat: Chat, server: OpenAICompatServer) -> None:
    server.add_reply(ScriptedReply(reasoning="Let me think about this at length", **CUT))
    await chat.service.send("hard question")
    (answer,) = chat.answers()
    assert answer_ending(answer) == "cut_off"
    server.add_reply(ScriptedReply(reasoning="Hmm, long.", finish_reason="length"))
    await chat.service.send("and?")
    assert answer_ending(chat.answers()[-1]) == "length"
    await chat.service.send("well?")
    request = server.chat_requests[-1].messages
    assert [m["role"] for m in request] == ["system", "user", "assistant"] * 1 + [
        "user",
        "assistant",
        "user",
    ]
    assert_well_formed(request)


async def test_every_ending_leaves_a_well_formed_next_request(
    chat: Chat, server: OpenAICompatServer, tmp_path: Path
) -> None:
    """Stop mid-text, Stop during a tool, Stop before the first token, thinking only, cut
    stream, length stop, retry, continue — each followed by a request that a strict chat
    template (alternating roles, paired tool results) accepts."""
    service = chat.service

    async def stop_when(condition: Callable[[], object]) -> None:
        await chat.until(condition, timeout=15)
        await service.stop()
        assert isinstance(chat.events[-1], TurnInterrupted)

    # Stop mid-text.
    server.add_reply(ScriptedReply("word " * 400, chunk_size=5, chunk_delay=0.01))
    service.send("talk")
    await stop_when(lambda: len(chat.answers()) == 1 and chat.answers()[0].get_text_content())
    # Stop during a tool.
    started = tmp_path / "started"
    code = f"open({str(started)!r}, 'w').close()\nimport time\ntime.sleep(30)"
    server.add_reply(
        ScriptedReply(tool_calls=[ScriptedToolCall("execute_python_code", {"code": code})])
    )
    service.send("run")
    await stop_when(started.exists)
    # Stop before the first token.
    server.add_reply(ScriptedReply("late", first_chunk_delay=30))
    service.send("wait")
    await server.wait_for_request()
    count = len(server.chat_requests)
    await stop_when(lambda: len(server.chat_requests) == count)
    # Thinking only, a cut stream, a length stop, a retry and a continue.
    server.add_reply(ScriptedReply(reasoning="Only thoughts."))
    await service.send("think")
    server.add_reply(ScriptedReply("Half an ans", **CUT))
    await service.send("answer")
    server.add_reply("A whole answer.")
    retry = service.retry()
    assert retry is not None
    await retry
    server.add_reply(ScriptedReply("Long answer", finish_reason="length"))
    await service.send("long")
    server.add_reply(" goes on.")
    continuation = service.continue_answer()
    assert continuation is not None
    await continuation
    await service.send("last")
    for sent in server.chat_requests:  # each request is the one after an ending above
        assert_well_formed(sent.messages)
    request = server.chat_requests[-1].messages
    assert request[-1]["role"] == "user"
    texts = " ".join(str(m.get("content")) for m in request)
    assert "I noticed that you have interrupted me" not in texts
    assert "Long answer goes on." in texts
    assert not any(e.kind is EntryKind.ERROR for e in chat.conversation.entries)


@pytest.mark.parametrize("style", ["litellm", "vllm"])
async def test_an_unknown_model_tells_the_user_to_pick_another(
    chat: Chat, server: OpenAICompatServer, style: str
) -> None:
    server.add_reply(ScriptedReply.model_not_found("test-model", style=style))
    await chat.service.send("hi")
    failed = chat.events[-1]
    assert isinstance(failed, TurnFailed)
    assert "Pick another model" in failed.message
    assert chat.conversation.entries[-1].kind is EntryKind.ERROR


async def test_a_server_that_goes_silent_becomes_a_retryable_error(
    chat: Chat, server: OpenAICompatServer
) -> None:
    server.add_reply(ScriptedReply("I will stop talk", chunk_size=4, stall_after_chunks=3))
    await chat.service.send("hi")  # the settings say 0.3 s of silence is too long
    failed = chat.events[-1]
    assert isinstance(failed, TurnFailed) and failed.retryable
    assert "sent nothing for 0.3 s" in failed.message
    assert chat.conversation.entries[-1].retryable
    await server.wait_for_disconnect()


async def test_the_app_sets_its_own_timeouts() -> None:
    from desktop_agent.app._agent_factory import CONNECT_TIMEOUT, build_agent_parts

    provider = Provider("Test", "http://127.0.0.1:9/v1", "m", SecretStr(""), "environment")
    parts = await build_agent_parts(provider, Settings(stream_idle_timeout=42))
    try:
        timeout = parts.model.client.timeout
        assert timeout.connect == CONNECT_TIMEOUT == 10.0
        assert timeout.read == 42  # "no byte for 42 s" ends a streaming answer
    finally:
        await parts.aclose()


def _ending_metadata(msg: Msg) -> dict[str, object]:
    """The metadata about how the answer ended (not its model and stats: issue 17)."""
    return {k: v for k, v in msg.metadata.items() if k not in ("model", "turn_stats")}
