"""Every failure of a model call surfaces as a typed, readable ModelError."""

from __future__ import annotations

import asyncio
import socket

import openai
import pytest
from model_helpers import USER, collect

from desktop_agent.model import (
    ModelAPIError,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelError,
    ModelNotFoundError,
    ModelRateLimitError,
    ModelResponseError,
    OpenAIChatModel,
)
from desktop_agent.testing import ScriptedReply


@pytest.mark.parametrize("stream", [True, False])
async def test_401_is_an_authentication_error(server, make_model, stream) -> None:
    server.add_reply(ScriptedReply.error(401, "Incorrect API key provided: sk-bad."))
    with pytest.raises(ModelAuthenticationError) as caught:
        await make_model(stream=stream)(USER)
    error = caught.value
    assert error.status_code == 401
    assert error.server_message == "Incorrect API key provided: sk-bad."
    assert error.body["type"] == "authentication_error"
    assert error.retryable is False
    assert "HTTP 401" in str(error) and "API key" in str(error)
    assert isinstance(error.__cause__, openai.AuthenticationError)


async def test_403_is_an_authentication_error(server, make_model) -> None:
    server.add_reply(ScriptedReply.error(403))
    with pytest.raises(ModelAuthenticationError) as caught:
        await make_model()(USER)
    assert caught.value.status_code == 403


async def test_404_is_a_not_found_error_naming_the_base_url(server, make_model) -> None:
    server.add_reply(ScriptedReply.error(404, "The model `gpt-9` does not exist."))
    with pytest.raises(ModelNotFoundError) as caught:
        await make_model()(USER)
    assert caught.value.status_code == 404
    assert "The model `gpt-9` does not exist." in str(caught.value)
    assert server.base_url in str(caught.value)


async def test_unknown_model_on_a_strict_server(server, make_model) -> None:
    server.reject_unknown_models = True
    with pytest.raises(ModelNotFoundError, match="gpt-unknown"):
        await make_model("gpt-unknown")(USER)


async def test_429_carries_retry_after(server, make_model) -> None:
    server.add_reply(ScriptedReply.error(429, "Slow down.", retry_after=2))
    with pytest.raises(ModelRateLimitError) as caught:
        await make_model()(USER)
    error = caught.value
    assert error.retry_after == 2.0
    assert error.retryable is True
    assert "Try again in 2 s." in str(error)


async def test_429_without_header_has_no_retry_after(server, make_model) -> None:
    server.add_reply(ScriptedReply.error(429))
    with pytest.raises(ModelRateLimitError) as caught:
        await make_model()(USER)
    assert caught.value.retry_after is None


async def test_500_is_a_retryable_api_error(server, make_model) -> None:
    server.add_reply(ScriptedReply.error(500, "Boom."))
    with pytest.raises(ModelAPIError) as caught:
        await make_model()(USER)
    error = caught.value
    assert type(error) is ModelAPIError
    assert (error.status_code, error.retryable, error.server_message) == (500, True, "Boom.")


async def test_400_is_not_retryable(server, make_model) -> None:
    server.add_reply(ScriptedReply.error(400, "Bad messages."))
    with pytest.raises(ModelAPIError) as caught:
        await make_model()(USER)
    assert (caught.value.status_code, caught.value.retryable) == (400, False)


async def test_non_json_error_body(server, make_model) -> None:
    server.add_reply(ScriptedReply(status=502, error_body="upstream died"))
    with pytest.raises(ModelAPIError) as caught:
        await make_model()(USER)
    assert caught.value.status_code == 502


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_connection_refused() -> None:
    base_url = f"http://127.0.0.1:{_closed_port()}/v1"
    model = OpenAIChatModel(
        "m", api_key="k", client_kwargs={"base_url": base_url, "max_retries": 0}
    )
    with pytest.raises(ModelConnectionError) as caught:
        await model(USER)
    assert "connection refused" in str(caught.value)
    assert base_url in str(caught.value)
    assert caught.value.retryable is True
    await model.aclose()


async def test_stream_dropped_midway(server, make_model) -> None:
    server.add_reply(ScriptedReply("0123456789" * 5, chunk_size=5, drop_after_chunks=4))
    received = []
    with pytest.raises(ModelConnectionError, match="mid-stream") as caught:
        async for response in await make_model()(USER):
            received.append(response)
    assert received[-1].content == [{"type": "text", "text": "012345678901234"}]
    assert isinstance(caught.value.__cause__, openai.APIConnectionError)


async def test_non_stream_dropped_before_the_response(server, make_model) -> None:
    server.add_reply(ScriptedReply("never sent", drop_after_chunks=0))
    with pytest.raises(ModelConnectionError):
        await make_model(stream=False)(USER)


async def test_error_event_inside_a_stream(server, make_model) -> None:
    body = {"message": "The model crashed.", "type": "server_error", "code": None}
    server.add_reply(ScriptedReply("partial answer", error_after_chunks=2, error_body=body))
    with pytest.raises(ModelAPIError, match=r"The model crashed\.") as caught:
        await collect(await make_model()(USER))
    assert caught.value.status_code is None
    assert caught.value.server_message == "The model crashed."


async def test_rate_limit_event_inside_a_stream(server, make_model) -> None:
    body = {"message": "Too many tokens.", "type": "rate_limit_exceeded"}
    server.add_reply(ScriptedReply("x", error_after_chunks=1, error_body=body))
    with pytest.raises(ModelRateLimitError):
        await collect(await make_model()(USER))


async def test_an_event_that_is_not_json(server, make_model) -> None:
    server.add_reply(ScriptedReply(raw_events=["{not json"]))
    with pytest.raises(ModelResponseError, match="not valid JSON"):
        await collect(await make_model()(USER))


async def test_slow_first_token_times_out(server, make_model) -> None:
    server.add_reply(ScriptedReply("late", first_chunk_delay=5))
    model = make_model(client_kwargs={"timeout": 0.2})
    with pytest.raises(ModelConnectionError, match="did not answer in time"):
        await collect(await model(USER))


async def test_slow_first_token_within_the_timeout_arrives(server, make_model) -> None:
    server.add_reply(ScriptedReply("late but fine", first_chunk_delay=0.3))
    responses = await collect(await make_model()(USER))
    assert responses[-1].content == [{"type": "text", "text": "late but fine"}]


async def test_all_errors_are_model_errors() -> None:
    for cls in (
        ModelAPIError,
        ModelAuthenticationError,
        ModelConnectionError,
        ModelNotFoundError,
        ModelRateLimitError,
        ModelResponseError,
    ):
        assert issubclass(cls, ModelError)
    assert issubclass(ModelRateLimitError, ModelAPIError)
    assert ModelError("x").retryable is False
    assert ModelConnectionError("x").retryable is True
    assert ModelResponseError("x").message == "x"


async def test_closing_the_stream_early_disconnects_from_the_server(server, make_model) -> None:
    server.add_reply(ScriptedReply("x" * 200, chunk_size=1, chunk_delay=0.01))
    stream = await make_model()(USER)
    first = await anext(stream)
    assert first.content == [{"type": "text", "text": "x"}]
    await stream.aclose()
    disconnected = await server.wait_for_disconnect(timeout=5)
    assert disconnected.disconnected is True
    assert disconnected.path == "/v1/chat/completions"


async def test_cancelling_while_waiting_for_the_first_token_disconnects(server, make_model) -> None:
    server.add_reply(ScriptedReply("late", first_chunk_delay=30))
    model = make_model()

    async def consume() -> None:
        await collect(await model(USER))

    task = asyncio.create_task(consume())
    await server.wait_for_request()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await server.wait_for_disconnect(timeout=5)


async def test_breaking_out_of_async_for_closes_the_stream(server, make_model) -> None:
    server.add_reply(ScriptedReply("y" * 200, chunk_size=1, chunk_delay=0.01))
    stream = await make_model()(USER)
    async for _ in stream:
        break
    await stream.aclose()
    await server.wait_for_disconnect(timeout=5)


async def test_a_server_message_without_full_stop_still_reads_as_sentences(
    server, make_model
) -> None:
    server.add_reply(ScriptedReply.error(429, "Rate limit exceeded"))
    with pytest.raises(ModelRateLimitError) as caught:
        await make_model()(USER)
    assert str(caught.value).endswith("(HTTP 429): Rate limit exceeded. Try again later.")
