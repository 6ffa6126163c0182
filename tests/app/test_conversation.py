"""The Qt-free conversation model: rows, events, streaming by reference, tool status."""

from __future__ import annotations

import threading
import time

import pytest

from desktop_agent.app import (
    Changed,
    Conversation,
    ConversationEvent,
    EntryKind,
    Inserted,
    Removed,
    Reset,
    ToolStatus,
)
from desktop_agent.message import Msg


def _recording(conversation: Conversation) -> list[ConversationEvent]:
    events: list[ConversationEvent] = []
    conversation.subscribe(events.append)
    return events


def _tool_call(call_id: str = "call-1", name: str = "search") -> Msg:
    return Msg(
        "assistant",
        [{"type": "tool_use", "id": call_id, "name": name, "input": {"q": "x"}}],
        "assistant",
    )


def _tool_result(output: object, call_id: str = "call-1", name: str = "search") -> Msg:
    return Msg(
        "system", [{"type": "tool_result", "id": call_id, "name": name, "output": output}], "system"
    )


def test_upsert_inserts_then_changes_the_same_row() -> None:
    conversation = Conversation()
    events = _recording(conversation)
    msg = Msg("assistant", [{"type": "text", "text": "He"}], "assistant")

    assert conversation.upsert(msg, last=False) == 0
    msg.content = [{"type": "text", "text": "Hello"}]
    assert conversation.upsert(msg, last=False) == 0
    assert conversation.upsert(msg, last=True) == 0

    assert events == [Inserted(0), Changed(0), Changed(0)]
    entry = conversation.entries[0]
    assert len(conversation) == 1
    assert entry.kind is EntryKind.MESSAGE
    assert entry.msg is msg  # by reference, never copied
    assert entry.streaming is False
    assert entry.revision == 2


def test_streaming_flag_follows_last() -> None:
    conversation = Conversation()
    msg = Msg("assistant", "x", "assistant")
    conversation.upsert(msg, last=False)
    assert conversation.entries[0].streaming
    assert conversation.turn_active
    conversation.upsert(msg, last=True)
    assert not conversation.entries[0].streaming


def test_a_new_object_with_the_same_id_replaces_the_reference() -> None:
    conversation = Conversation()
    first = Msg("assistant", "a", "assistant")
    conversation.upsert(first, last=False)
    second = Msg.from_dict(first.to_dict())
    conversation.upsert(second, last=True)
    assert len(conversation) == 1
    assert conversation.entries[0].msg is second


def test_reset_replaces_rows_and_emits_reset() -> None:
    conversation = Conversation()
    conversation.add_error("boom", retryable=True)
    events = _recording(conversation)
    msgs = [Msg("user", f"m{i}", "user") for i in range(5)]

    conversation.reset(msgs)

    assert events == [Reset()]
    assert [e.msg for e in conversation.entries] == msgs
    assert all(not e.streaming for e in conversation.entries)
    assert conversation.row_of(msgs[3].id) == 3
    assert not conversation.turn_active


def test_errors_are_added_and_removed_and_rows_stay_indexed() -> None:
    conversation = Conversation()
    a = Msg("user", "a", "user")
    conversation.upsert(a, last=True)
    events = _recording(conversation)

    assert conversation.add_error("Rate limited", retryable=True) == 1
    b = Msg("assistant", "b", "assistant")
    conversation.upsert(b, last=True)
    error = conversation.entries[1]
    assert error.kind is EntryKind.ERROR
    assert error.error_text == "Rate limited"
    assert error.retryable
    assert error.msg is None

    conversation.remove_errors()

    assert events == [Inserted(1), Inserted(2), Removed(1)]
    assert [e.msg for e in conversation.entries] == [a, b]
    assert conversation.row_of(b.id) == 1
    b.content = "b2"
    assert conversation.upsert(b, last=True) == 1


def test_remove_errors_without_errors_emits_nothing() -> None:
    conversation = Conversation()
    events = _recording(conversation)
    conversation.remove_errors()
    assert events == []


def test_finish_streaming_marks_streaming_rows_done() -> None:
    conversation = Conversation()
    done = Msg("user", "q", "user")
    streaming = Msg("assistant", "partial", "assistant")
    conversation.upsert(done, last=True)
    conversation.upsert(streaming, last=False)
    events = _recording(conversation)

    conversation.finish_streaming()

    assert events == [Changed(1)]
    assert not conversation.entries[1].streaming
    assert not conversation.turn_active


def test_unsubscribe_stops_events() -> None:
    conversation = Conversation()
    events: list[ConversationEvent] = []
    unsubscribe = conversation.subscribe(events.append)
    unsubscribe()
    unsubscribe()  # idempotent
    conversation.upsert(Msg("user", "x", "user"), last=True)
    assert events == []


def test_tool_status_running_then_done() -> None:
    conversation = Conversation()
    conversation.upsert(_tool_call(), last=True)
    assert conversation.tool_status("call-1") is ToolStatus.RUNNING

    result = _tool_result([])
    conversation.upsert(result, last=False)
    assert conversation.tool_status("call-1") is ToolStatus.RUNNING
    result.content[0]["output"] = [{"type": "text", "text": "42 results"}]
    conversation.upsert(result, last=True)
    assert conversation.tool_status("call-1") is ToolStatus.DONE
    assert conversation.tool_result("call-1") is result.content[0]


def test_tool_status_error_and_interrupted() -> None:
    conversation = Conversation()
    conversation.upsert(_tool_call("a"), last=True)
    conversation.upsert(_tool_call("b"), last=True)
    conversation.upsert(_tool_call("c"), last=True)
    conversation.upsert(_tool_result("Error: no such file", "a"), last=True)
    conversation.upsert(
        _tool_result("The tool call has been interrupted by the user.", "b"), last=True
    )
    streamed = [
        {"type": "text", "text": "partial output"},
        {
            "type": "text",
            "text": "<system-info>The tool call has been interrupted by the user.</system-info>",
        },
    ]
    conversation.upsert(_tool_result(streamed, "c"), last=True)

    assert conversation.tool_status("a") is ToolStatus.ERROR
    assert conversation.tool_status("b") is ToolStatus.INTERRUPTED
    assert conversation.tool_status("c") is ToolStatus.INTERRUPTED


def test_tool_without_result_is_interrupted_once_the_turn_ends() -> None:
    conversation = Conversation()
    conversation.upsert(_tool_call(), last=True)
    events = _recording(conversation)
    conversation.finish_streaming()
    assert conversation.tool_status("call-1") is ToolStatus.INTERRUPTED
    assert events == [Changed(0)]  # the card's row repaints with its new status


def test_a_tool_result_marks_its_tool_use_row_changed() -> None:
    conversation = Conversation()
    conversation.upsert(_tool_call(), last=True)
    events = _recording(conversation)
    conversation.upsert(_tool_result("ok"), last=True)
    assert events == [Inserted(1), Changed(0)]
    assert conversation.entries[0].revision == 1


def test_tool_status_of_a_loaded_session() -> None:
    conversation = Conversation()
    conversation.reset([_tool_call(), _tool_result("fine")])
    assert conversation.tool_status("call-1") is ToolStatus.DONE
    assert conversation.tool_status("unknown") is ToolStatus.INTERRUPTED


def test_upsert_cost_does_not_grow_with_content_length() -> None:
    """Per-chunk work is flat: the cumulative content is never copied or scanned."""
    conversation = Conversation()
    conversation.reset([Msg("user", f"m{i}", "user") for i in range(2000)])
    block = {"type": "text", "text": ""}
    msg = Msg("assistant", [block, {"type": "thinking", "thinking": ""}], "assistant")
    short_text, long_text = "token " * 10, "token " * 1_000_000

    def timed_chunks(text: str, count: int = 2000) -> float:
        block["text"] = text
        start = time.perf_counter()
        for _ in range(count):
            conversation.upsert(msg, last=False)
        return time.perf_counter() - start

    timed_chunks(short_text)  # warm up
    short = min(timed_chunks(short_text) for _ in range(3))
    long = min(timed_chunks(long_text) for _ in range(3))
    assert long < short * 3


def test_adopt_shows_rows_built_elsewhere_with_one_reset() -> None:
    conversation = Conversation()
    conversation.upsert(Msg("user", "old", "user"), last=False)
    events = _recording(conversation)
    messages = [Msg("user", "q", "user"), _tool_call(), _tool_result("fine")]
    built: list[Conversation] = []
    worker = threading.Thread(target=lambda: built.append(_built(messages)))
    worker.start()  # as opening a session does: the rows are made in a worker thread
    worker.join()
    conversation.adopt(built[0])
    assert events == [Reset()]
    assert [e.msg for e in conversation.entries] == messages
    assert conversation.row_of(messages[2].id) == 2
    assert conversation.tool_status("call-1") is ToolStatus.DONE
    assert not conversation.turn_active
    assert len(built[0]) == 0  # the rows moved, nothing is shared
    observed = Conversation()
    _recording(observed)
    with pytest.raises(ValueError):
        conversation.adopt(observed)


def _built(messages: list[Msg]) -> Conversation:
    built = Conversation()
    built.reset(messages)
    return built
