"""Tool cards tell the truth (waiting for permission, denied, error, not run), and the
tools allowed for the chat can be listed and revoked — through ChatService and the
loopback server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from desktop_agent.app import ChatService, Conversation, Provider, Settings, ToolStatus
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


def _service(
    server: OpenAICompatServer, conversation: Conversation, ask: Any, folder: Path
) -> ChatService:
    provider = Provider("Test", server.base_url, "test-model", SecretStr(""), "environment")
    settings = Settings(working_folder=str(folder))
    return ChatService(conversation, settings, provider, ask_permission=ask)


def _call(name: str, call_id: str = "call_0", **arguments: Any) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedToolCall(name, arguments, id=call_id)])


async def test_statuses_waiting_denied_error_done(
    server: OpenAICompatServer, tmp_path: Path
) -> None:
    conversation = Conversation()
    seen: list[ToolStatus] = []
    answers = iter(["deny", "allow_once", "allow_once"])

    async def ask(_request: Any) -> str:
        seen.append(conversation.tool_status(f"call_{len(seen)}"))
        return next(answers)

    service = _service(server, conversation, ask, tmp_path)
    (tmp_path / "a.txt").write_text("hello")
    server.add_reply(
        _call("read_text_file", "call_0", path="a.txt"),
        "Denied.",
        _call("read_text_file", "call_1", path="missing.txt"),
        "Missing.",
        _call("read_text_file", "call_2", path="a.txt"),
        "Read.",
    )
    try:
        for _ in range(3):
            await service.send("read it")
    finally:
        await service.aclose()
    assert seen == [ToolStatus.WAITING] * 3
    ids = [
        b["id"]
        for e in conversation.entries
        if e.msg is not None
        for b in e.msg.get_content_blocks("tool_use")
    ]
    statuses = [conversation.tool_status(call_id) for call_id in ids]
    assert statuses == [ToolStatus.DENIED, ToolStatus.ERROR, ToolStatus.DONE]


async def test_always_allowed_tools_are_listed_and_revocable(
    server: OpenAICompatServer, tmp_path: Path
) -> None:
    asked: list[str] = []

    async def ask(request: Any) -> str:
        asked.append(request.tool_name)
        return "allow_always"

    service = _service(server, Conversation(), ask, tmp_path)
    changes: list[list[str]] = []
    service.subscribe_permissions(lambda: changes.append(service.allowed_tools))
    server.add_reply(
        _call("read_text_file", path="a.txt"),
        "One.",
        _call("read_text_file", path="a.txt"),
        "Two.",
        _call("read_text_file", path="a.txt"),
        "Three.",
    )
    try:
        await service.send("one")
        assert service.allowed_tools == ["read_text_file"]
        assert changes[-1] == ["read_text_file"]
        await service.send("two")  # not asked again
        assert asked == ["read_text_file"]
        service.revoke_tool("read_text_file")
        assert service.allowed_tools == [] and changes[-1] == []
        await service.send("three")  # asked again
        assert asked == ["read_text_file", "read_text_file"]
        await service.new_conversation()
        assert service.allowed_tools == [] and changes[-1] == []
    finally:
        await service.aclose()
