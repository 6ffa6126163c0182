"""The chat's parameters reach the request body; a parameter the server rejects is named
in the chat and Retry sends the message without it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import SecretStr

from desktop_agent.app import ChatService, Conversation, Provider, Settings, TurnFailed
from desktop_agent.testing import OpenAICompatServer, RecordedRequest, ScriptedReply


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


def _service(server: OpenAICompatServer, settings: Settings) -> ChatService:
    provider = Provider("Test", server.base_url, "test-model", SecretStr("sk-x"), "environment")
    return ChatService(Conversation(), settings, provider)


async def test_parameters_reach_the_request_body(server: OpenAICompatServer) -> None:
    settings = Settings(
        temperature=0.3, max_output_tokens=256, top_p=0.9, reasoning_effort="low", stream=False
    )
    service = _service(server, settings)
    await service.send("hi")
    body = server.chat_requests[-1].body
    assert body["temperature"] == 0.3
    assert body["max_tokens"] == 256
    assert body["top_p"] == 0.9
    assert body["reasoning_effort"] == "low"
    assert body["stream"] is False
    await service.aclose()


async def test_unset_parameters_are_not_sent(server: OpenAICompatServer) -> None:
    service = _service(server, Settings())
    await service.send("hi")
    body = server.chat_requests[-1].body
    assert not {"max_tokens", "top_p", "reasoning_effort"} & set(body)
    assert body["stream"] is True
    await service.aclose()


async def test_a_rejected_parameter_is_named_and_retry_sends_without_it(
    server: OpenAICompatServer,
) -> None:
    def answer(request: RecordedRequest) -> ScriptedReply | str:
        if "top_p" in request.body:
            return ScriptedReply.error(400, "Unrecognized request argument supplied: top_p")
        return "Fine."

    server.default_reply = answer
    service = _service(server, Settings(top_p=0.5))
    events: list[object] = []
    service.subscribe(events.append)
    await service.send("hi")
    failed = events[-1]
    assert isinstance(failed, TurnFailed)
    assert "does not accept the parameter “top_p”" in failed.message
    assert "Retry sends the message without it" in failed.message
    task = service.retry()
    assert task is not None
    await task
    assert "top_p" not in server.chat_requests[-1].body
    assert (await service.memory.get_memory())[-1].get_text_content() == "Fine."
    await service.aclose()
