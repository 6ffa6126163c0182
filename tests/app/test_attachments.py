"""Attachments are copied into the session at send time; session files cannot make the app
read (and upload) files outside the session's blob folder; remote audio is not fetched.

The chat service, switcher and library run against the loopback server; what the model
server receives is the observable result.
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from pydantic import SecretStr

from desktop_agent.app import ChatService, Conversation, Provider, SessionSwitcher, Settings
from desktop_agent.testing import OpenAICompatServer, ScriptedReply

# A real 1×1 PNG: what the model server must receive, byte for byte.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
PNG_URL = "data:image/png;base64," + base64.b64encode(PNG).decode()


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        running.default_reply = ScriptedReply("Seen.")
        yield running


class Chat:
    """A conversation, its service and switcher on one data root."""

    def __init__(self, server: OpenAICompatServer, home: Path) -> None:
        provider = Provider("Test", server.base_url, "test-model", SecretStr("k"), "environment")
        self.conversation = Conversation()
        self.service = ChatService(self.conversation, Settings(), provider)
        self.switcher = SessionSwitcher(self.service, self.conversation, root=home)

    async def until(self, condition: Callable[[], object], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, "condition not met in time"
            await asyncio.sleep(0.005)

    async def aclose(self) -> None:
        await self.service.aclose()
        await self.switcher.aclose()


@pytest.fixture
async def chats(
    server: OpenAICompatServer, desktop_agent_home: Path
) -> AsyncIterator[Callable[[], Any]]:
    made: list[Chat] = []

    async def make() -> Chat:
        chat = Chat(server, desktop_agent_home)
        await chat.switcher.start()
        made.append(chat)
        return chat

    yield make
    for chat in made:
        await chat.aclose()


def _image(url: str) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "url", "url": url}}


def _sent_parts(server: OpenAICompatServer) -> list[dict[str, Any]]:
    """The content parts of every user message in the last request."""
    parts: list[dict[str, Any]] = []
    for message in server.chat_requests[-1].messages:
        if message["role"] == "user" and isinstance(message["content"], list):
            parts += message["content"]
    return parts


async def test_an_attached_file_is_copied_and_survives_its_original(
    chats: Callable[[], Any], server: OpenAICompatServer, tmp_path: Path, desktop_agent_home: Path
) -> None:
    original = tmp_path / "photo.png"
    original.write_bytes(PNG)
    chat = await chats()
    await chat.service.send([{"type": "text", "text": "What is this?"}, _image(str(original))])
    await chat.until(lambda: chat.switcher.active_id is not None)
    await chat.switcher.save_now()
    session_id = chat.switcher.active_id
    assert PNG_URL in [p.get("image_url", {}).get("url") for p in _sent_parts(server)]
    original.unlink()  # the user tidies up their pictures folder

    saved = (desktop_agent_home / "sessions" / f"{session_id}.json").read_bytes()
    assert str(original).encode() not in saved
    await chat.aclose()

    again = await chats()
    await again.switcher.open(session_id)
    await again.service.send("And now?")
    await again.until(lambda: not again.service.busy and len(server.chat_requests) == 2)
    assert [e.kind.value for e in again.conversation.entries].count("error") == 0
    assert PNG_URL in [p.get("image_url", {}).get("url") for p in _sent_parts(server)]


def _write_session(home: Path, session_id: str, content: list[dict[str, Any]]) -> None:
    """A session file as another tool (or an attacker) could write it: format 0."""
    sessions = home / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    user = {
        "id": "m1",
        "name": "User",
        "role": "user",
        "content": content,
        "metadata": {},
        "timestamp": "2026-01-01 00:00:00.000",
    }
    assistant = {
        "id": "m2",
        "name": "Friday",
        "role": "assistant",
        "content": "Nice.",
        "metadata": {},
        "timestamp": "2026-01-01 00:00:01.000",
    }
    state = {"agent": {"memory": {"content": [[user, []], [assistant, []]]}}}
    (sessions / f"{session_id}.json").write_text(json.dumps(state), "utf-8")


@pytest.mark.parametrize(
    "reference",
    ["{sessions}/hostile.blobs/../../outside/secret.png", "{sessions}/other.blobs/secret.png"],
    ids=["dot-dot", "other-session-blobs"],
)
async def test_a_blob_reference_leaving_the_blob_folder_is_not_read(
    chats: Callable[[], Any],
    server: OpenAICompatServer,
    desktop_agent_home: Path,
    reference: str,
) -> None:
    sessions = desktop_agent_home / "sessions"
    for secret in (
        desktop_agent_home / "outside" / "secret.png",
        sessions / "other.blobs" / "secret.png",
    ):
        secret.parent.mkdir(parents=True, exist_ok=True)
        secret.write_bytes(PNG)
    (sessions / "hostile.blobs").mkdir()  # the session's own blob folder exists
    url = reference.format(sessions=sessions)
    _write_session(desktop_agent_home, "hostile", [{"type": "text", "text": "look"}, _image(url)])
    chat = await chats()
    await chat.switcher.open("hostile")
    await chat.service.send("Describe it again.")
    await chat.until(lambda: not chat.service.busy and server.chat_requests)
    parts = _sent_parts(server)
    assert PNG_URL not in json.dumps(parts)
    assert not [p for p in parts if p["type"] == "image_url"]
    assert any("not a file attached in this app" in p.get("text", "") for p in parts)
    assert [e.kind.value for e in chat.conversation.entries].count("error") == 0


async def test_a_path_in_an_assistant_message_is_never_read(
    chats: Callable[[], Any], server: OpenAICompatServer, desktop_agent_home: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.png"
    secret.write_bytes(PNG)
    _write_session(desktop_agent_home, "fromfile", [{"type": "text", "text": "hi"}])
    data = orjson.loads((desktop_agent_home / "sessions" / "fromfile.json").read_bytes())
    data["agent"]["memory"]["content"][1][0]["content"] = [_image(str(secret))]
    (desktop_agent_home / "sessions" / "fromfile.json").write_bytes(orjson.dumps(data))
    chat = await chats()
    await chat.switcher.open("fromfile")
    await chat.service.send("Go on.")
    await chat.until(lambda: not chat.service.busy and server.chat_requests)
    assert PNG_URL not in json.dumps(server.chat_requests[-1].messages)


async def test_a_missing_legacy_attachment_does_not_fail_the_turn(
    chats: Callable[[], Any], server: OpenAICompatServer, desktop_agent_home: Path, tmp_path: Path
) -> None:
    gone = tmp_path / "moved-away.png"
    _write_session(
        desktop_agent_home, "legacy", [{"type": "text", "text": "see"}, _image(str(gone))]
    )
    chat = await chats()
    await chat.switcher.open("legacy")
    await chat.service.send("Still there?")
    await chat.until(lambda: not chat.service.busy and server.chat_requests)
    assert [e.kind.value for e in chat.conversation.entries].count("error") == 0
    notes = [p.get("text", "") for p in _sent_parts(server)]
    assert any("'moved-away.png' not sent: the file was moved or deleted" in n for n in notes)


async def test_remote_audio_in_a_session_file_is_not_downloaded(
    chats: Callable[[], Any], server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    audio_url = f"{server.base_url}/audio/clip.wav"  # the loopback server logs every fetch
    audio = {"type": "audio", "source": {"type": "url", "url": audio_url}}
    _write_session(desktop_agent_home, "remote", [{"type": "text", "text": "hear"}, audio])
    chat = await chats()
    await chat.switcher.open("remote")
    await chat.service.send("Again?")
    await chat.until(lambda: not chat.service.busy and server.chat_requests)
    assert [r.path for r in server.requests if r.method == "GET" and "audio" in r.path] == []
    assert [e.kind.value for e in chat.conversation.entries].count("error") == 0
    notes = [p.get("text", "") for p in _sent_parts(server)]
    assert any("remote audio is not downloaded" in n for n in notes)


async def test_a_huge_earlier_answer_is_sent_back_shortened(
    chats: Callable[[], Any], server: OpenAICompatServer
) -> None:
    from desktop_agent.app._agent_factory import MAX_ANSWER_CHARS

    huge = "log line\n" * (MAX_ANSWER_CHARS // 4)
    server.add_reply(ScriptedReply(huge, chunk_size=65536))
    chat = await chats()
    await chat.service.send("Print the log.")
    await chat.until(lambda: not chat.service.busy and len(server.chat_requests) == 1)
    await chat.service.send("Summarise it.")
    await chat.until(lambda: not chat.service.busy and len(server.chat_requests) == 2)
    (answer,) = [m for m in server.chat_requests[-1].messages if m["role"] == "assistant"]
    text = answer["content"][0]["text"]
    assert text.startswith(huge[:MAX_ANSWER_CHARS])
    assert len(text) < MAX_ANSWER_CHARS + 200
    assert "more characters of this earlier answer are not repeated" in text
    memory = await chat.service.memory.get_memory()
    assert memory[1].get_text_content() == huge  # kept whole in the chat and the session


async def test_a_session_from_before_keeps_its_attachment_paths(
    chats: Callable[[], Any], server: OpenAICompatServer, desktop_agent_home: Path, tmp_path: Path
) -> None:
    photo = tmp_path / "photo.png"
    photo.write_bytes(PNG)
    _write_session(
        desktop_agent_home, "older", [{"type": "text", "text": "see"}, _image(str(photo))]
    )
    chat = await chats()  # the first start of this version: "older" was there already
    await chat.switcher.open("older")
    await chat.service.send("Again?")
    await chat.until(lambda: not chat.service.busy and server.chat_requests)
    assert PNG_URL in [p.get("image_url", {}).get("url") for p in _sent_parts(server)]


async def test_a_session_file_arriving_later_cannot_name_local_files(
    chats: Callable[[], Any], server: OpenAICompatServer, desktop_agent_home: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "passport.png"
    secret.write_bytes(PNG)
    first = await chats()
    await first.aclose()
    _write_session(
        desktop_agent_home, "dropped", [{"type": "text", "text": "x"}, _image(str(secret))]
    )
    chat = await chats()
    await chat.switcher.open("dropped")
    await chat.service.send("Describe it.")
    await chat.until(lambda: not chat.service.busy and server.chat_requests)
    parts = _sent_parts(server)
    assert PNG_URL not in json.dumps(parts)
    assert any("not a file attached in this app" in p.get("text", "") for p in parts)
