"""A 20 MB reply in a session is encoded a slice at a time and written without one more
copy of the whole file, and reads back exactly."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from desktop_agent.app.library import SessionLibrary
from desktop_agent.app.library._codec import (
    STRING_SLICE,
    decode,
    encode_chunks,
    encode_session_chunks,
)
from desktop_agent.app.library._scan import StateScanner
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg


def test_a_long_string_is_encoded_in_slices_and_decodes_exactly() -> None:
    text = 'é"\\ line\n' * (3 * STRING_SLICE // 10)
    value = {"unfinished_reply": {"content": [{"type": "text", "text": text}]}}
    chunks = list(encode_chunks(value))
    assert max(len(chunk) for chunk in chunks) <= 2 * STRING_SLICE * 2  # escaped slices
    assert len(chunks) >= 3
    assert decode(b"".join(chunks)) == value


async def test_a_session_with_a_huge_unfinished_reply_round_trips(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = InMemoryMemory()
    await memory.add(Msg("User", "print the log", "user"))
    reply = Msg("Friday", "log line\n" * (STRING_SLICE // 3), "assistant")
    await library.save(session_id, unfinished_reply=reply, memory=memory)
    await library.close_all()
    again = SessionLibrary(tmp_path)
    loaded = await again.load(session_id, memory=InMemoryMemory())
    assert loaded.unfinished_reply is not None
    assert loaded.unfinished_reply.content == reply.content
    await again.close_all()


@pytest.mark.parametrize("messages", [10, 700], ids=["short-memory", "long-memory"])
async def test_a_long_answer_in_memory_is_encoded_in_pieces(tmp_path: Path, messages: int) -> None:
    memory = InMemoryMemory()
    for number in range(messages):
        await memory.add(Msg("User", f"question {number}", "user"))
    huge = "log line\n" * (STRING_SLICE // 3)
    await memory.add(Msg("Friday", [{"type": "text", "text": huge}], "assistant"))
    scan = StateScanner(tmp_path / "s.blobs").scan({"memory": memory.state_dict()})
    chunks = list(encode_session_chunks({"meta": {}, **scan.parts}, scan.long_items))
    assert max(len(chunk) for chunk in chunks) <= 2 * STRING_SLICE  # escaped newlines
    decoded = decode(b"".join(chunks))
    assert decoded["memory"]["content"][-1][0]["content"][0]["text"] == huge
    assert len(decoded["memory"]["content"]) == messages + 1


async def test_the_scanner_keeps_no_earlier_state_of_a_streaming_reply(tmp_path: Path) -> None:
    """Autosaves while a reply streams: the scanner's cache keeps the saved memory's
    messages (they do not change) but not the streaming reply, whose content is new at
    every save — keeping it held an older copy of a 20 MB text until the next save."""
    memory = InMemoryMemory()
    await memory.add(Msg("User", "print the log", "user"))
    reply = Msg("Friday", [{"type": "text", "text": "log line\n" * 1000}], "assistant")
    scanner = StateScanner(tmp_path / "s.blobs")
    scanner.scan({"memory": memory.state_dict(), "unfinished_reply": reply.to_dict()})
    streamed = reply.content
    kept = {id(obj) for obj in gc.get_referrers(streamed) if type(obj).__name__ == "_CachedMessage"}
    assert kept == set()
    question = memory.state_dict()["content"][0][0]["content"]
    assert any(type(obj).__name__ == "_CachedMessage" for obj in gc.get_referrers(question))
