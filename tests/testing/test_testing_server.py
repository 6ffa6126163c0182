"""OpenAICompatServer: its scripting API, request log, wire format, drops and concurrency."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import openai
import pytest

from desktop_agent.testing import (
    OpenAICompatServer,
    RecordedRequest,
    ScriptedReply,
    ScriptedToolCall,
)

USER = [{"role": "user", "content": "Hello server"}]


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


@pytest.fixture
async def client(server: OpenAICompatServer) -> AsyncIterator[openai.AsyncClient]:
    sdk = openai.AsyncClient(api_key="k", base_url=server.base_url, max_retries=0)
    yield sdk
    await sdk.close()


async def _text(client: openai.AsyncClient, **kwargs: object) -> str:
    completion = await client.chat.completions.create(model="test-model", messages=USER, **kwargs)
    return completion.choices[0].message.content or ""


async def _raw_exchange(server: OpenAICompatServer, body: dict) -> bytes:
    """Send one request on a plain socket; everything received until the server closes."""
    reader, writer = await asyncio.open_connection(server.host, server.port)
    data = json.dumps(body).encode()
    writer.write(
        b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + b"Connection: close\r\nContent-Length: %d\r\n\r\n%b" % (len(data), data)
    )
    received = await reader.read()
    writer.close()
    await writer.wait_closed()
    return received


def test_base_url_needs_a_running_server() -> None:
    server = OpenAICompatServer()
    with pytest.raises(RuntimeError, match="not running"):
        _ = server.base_url
    with server:
        assert server.base_url == f"http://127.0.0.1:{server.port}/v1"
        with pytest.raises(RuntimeError, match="already running"):
            server.start()
    server.stop()  # a second stop is harmless


async def test_replies_are_served_in_order_then_the_default_echoes(server, client) -> None:
    server.add_reply("first", ScriptedReply("second"))
    assert server.pending_replies == 2
    assert await _text(client) == "first"
    assert await _text(client) == "second"
    assert await _text(client) == "You said: Hello server"
    assert server.pending_replies == 0


async def test_default_reply_can_be_a_function_of_the_request(server, client) -> None:
    server.default_reply = lambda request: f"{len(request.messages)} message(s)"
    assert await _text(client) == "1 message(s)"


async def test_queued_function_replies(server, client) -> None:
    server.add_reply(lambda request: ScriptedReply(request.body["model"].upper()))
    assert await _text(client) == "TEST-MODEL"


async def test_a_failing_responder_becomes_a_500(server, client) -> None:
    def broken(request: RecordedRequest) -> ScriptedReply:
        raise KeyError("oops")

    server.add_reply(broken)
    with pytest.raises(openai.InternalServerError, match="oops"):
        await _text(client)


async def test_requests_are_recorded_with_path_headers_and_body(server, client) -> None:
    await _text(client, temperature=0.5)
    request = await server.wait_for_request()
    assert (request.method, request.path) == ("POST", "/v1/chat/completions")
    assert request.headers["authorization"] == "Bearer k"
    assert request.headers["content-type"] == "application/json"
    assert request.body == {"model": "test-model", "messages": USER, "temperature": 0.5}
    assert json.loads(request.raw_body) == request.body
    assert request.messages == USER
    assert server.last_request is request
    assert server.chat_requests == [request]


async def test_wait_for_request_returns_each_request_once_in_order(server, client) -> None:
    await _text(client, seed=1)
    await _text(client, seed=2)
    first = await server.wait_for_request()
    second = await server.wait_for_request()
    assert (first.body["seed"], second.body["seed"]) == (1, 2)
    with pytest.raises(TimeoutError, match="No request within"):
        await server.wait_for_request(timeout=0.05)


async def test_wait_for_request_wakes_up_when_a_request_arrives(server, client) -> None:
    waiter = asyncio.create_task(server.wait_for_request(timeout=5))
    await asyncio.sleep(0)
    await _text(client)
    assert (await waiter).path == "/v1/chat/completions"


def test_wait_for_request_sync_from_another_thread(server) -> None:
    def call() -> None:
        sdk = openai.OpenAI(api_key="k", base_url=server.base_url, max_retries=0)
        sdk.chat.completions.create(model="m", messages=USER)
        sdk.close()

    thread = threading.Thread(target=call)
    thread.start()
    assert server.wait_for_request_sync(timeout=5).body["model"] == "m"
    thread.join()
    with pytest.raises(TimeoutError):
        server.wait_for_request_sync(timeout=0.05)


async def test_reset_forgets_everything(server, client) -> None:
    server.add_reply("unused")
    await _text(client)
    server.add_reply("unused too")
    server.reset()
    assert (server.requests, server.pending_replies) == ([], 0)


async def test_models_endpoint(server, client) -> None:
    server.models = ["a", "b"]
    listed = [model.id async for model in client.models.list()]
    assert listed == ["a", "b"]


async def test_api_key_is_enforced_when_set(client) -> None:
    with OpenAICompatServer(api_key="secret") as server:
        sdk = openai.AsyncClient(api_key="wrong", base_url=server.base_url, max_retries=0)
        with pytest.raises(openai.AuthenticationError):
            await _text(sdk)
        sdk.api_key = "secret"
        assert await _text(sdk) == "You said: Hello server"
        await sdk.close()


async def test_unknown_endpoint_is_404(server, client) -> None:
    with pytest.raises(openai.NotFoundError):
        await client.embeddings.create(model="m", input="x")


async def test_error_reply_status_body_and_headers(server, client) -> None:
    server.add_reply(ScriptedReply.error(429, "Slow down", code="rate_limited", retry_after=1.5))
    with pytest.raises(openai.RateLimitError) as caught:
        await _text(client)
    assert caught.value.status_code == 429
    assert caught.value.response.headers["retry-after"] == "1.5"
    assert caught.value.body == {
        "message": "Slow down",
        "type": "rate_limit_error",
        "param": None,
        "code": "rate_limited",
    }


async def test_custom_headers_on_success(server, client) -> None:
    server.add_reply(ScriptedReply("ok", headers={"x-custom": "42"}))
    raw = await client.chat.completions.with_raw_response.create(model="m", messages=USER)
    assert raw.headers["x-custom"] == "42"


async def test_stream_wire_format(server, client) -> None:
    reply = ScriptedReply(
        "Hi!",
        reasoning="Hmm",
        tool_calls=[ScriptedToolCall("f", '{"x": 1}', id="call_9")],
        chunk_size=2,
        usage={"prompt_tokens": 4, "completion_tokens": 5},
        id="chatcmpl-test",
    )
    server.add_reply(reply)
    stream = await client.chat.completions.create(
        model="m", messages=USER, stream=True, stream_options={"include_usage": True}
    )
    chunks = [chunk async for chunk in stream]

    assert {chunk.id for chunk in chunks} == {"chatcmpl-test"}
    deltas = [chunk.choices[0].delta for chunk in chunks if chunk.choices]
    assert deltas[0].role == "assistant"
    assert [d.reasoning_content for d in deltas if getattr(d, "reasoning_content", None)] == [
        "Hm",
        "m",
    ]
    assert "".join(d.content or "" for d in deltas) == "Hi!"
    tool_deltas = [d.tool_calls[0] for d in deltas if d.tool_calls]
    assert (tool_deltas[0].id, tool_deltas[0].function.name) == ("call_9", "f")
    assert "".join(t.function.arguments for t in tool_deltas) == '{"x": 1}'
    assert chunks[-2].choices[0].finish_reason == "tool_calls"
    assert chunks[-1].choices == []
    assert chunks[-1].usage.total_tokens == 9


async def test_usage_is_streamed_only_when_asked(server, client) -> None:
    stream = await client.chat.completions.create(model="m", messages=USER, stream=True)
    chunks = [chunk async for chunk in stream]
    assert all(chunk.usage is None for chunk in chunks)
    assert chunks[-1].choices[0].finish_reason == "stop"


async def test_non_stream_wire_format(server, client) -> None:
    server.add_reply(ScriptedReply("Hi", tool_calls=[ScriptedToolCall("f", {"a": "é"})]))
    completion = await client.chat.completions.create(model="m", messages=USER)
    message = completion.choices[0].message
    assert message.content == "Hi"
    assert message.tool_calls[0].function.arguments == '{"a": "é"}'
    assert completion.choices[0].finish_reason == "tool_calls"
    assert completion.usage.completion_tokens > 0


async def test_reply_can_force_streaming_off(server, client) -> None:
    server.add_reply(ScriptedReply("plain", stream=False))
    raw = await _raw_exchange(server, {"model": "m", "messages": USER, "stream": True})
    assert b"content-type: application/json" in raw
    assert b'"plain"' in raw


async def test_dropped_stream_closes_without_done_or_final_chunk(server) -> None:
    server.add_reply(ScriptedReply("abcdefghij", chunk_size=2, drop_after_chunks=3))
    raw = await _raw_exchange(server, {"model": "m", "messages": USER, "stream": True})
    body = raw.split(b"\r\n\r\n", 1)[1]
    assert body.count(b"data: ") == 3
    assert b"[DONE]" not in body
    assert not body.endswith(b"0\r\n\r\n")


async def test_complete_stream_ends_with_done_and_final_chunk(server) -> None:
    raw = await _raw_exchange(server, {"model": "m", "messages": USER, "stream": True})
    assert raw.endswith(b"data: [DONE]\n\n\r\n0\r\n\r\n")
    assert b"transfer-encoding: chunked" in raw


async def test_client_hanging_up_mid_stream_is_recorded(server, client) -> None:
    server.add_reply(ScriptedReply("z" * 100, chunk_size=1, chunk_delay=0.02))
    stream = await client.chat.completions.create(model="m", messages=USER, stream=True)
    await anext(aiter(stream))
    await stream.close()
    left = await server.wait_for_disconnect(timeout=5)
    assert left.disconnected and server.disconnects == [left]


async def test_many_sequential_requests_reuse_the_connection(server, client) -> None:
    for index in range(30):
        server.add_reply(f"reply {index}")
    texts = [await _text(client) for _ in range(30)]
    assert texts == [f"reply {index}" for index in range(30)]
    assert len(server.requests) == 30
    assert server.connections_accepted == 1


async def test_concurrent_streams_are_served_together(server, client) -> None:
    for index in range(5):
        server.add_reply(ScriptedReply(f"stream {index} " * 5, chunk_size=4, chunk_delay=0.01))

    async def consume() -> str:
        stream = await client.chat.completions.create(model="m", messages=USER, stream=True)
        return "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])

    texts = await asyncio.gather(*(consume() for _ in range(5)))
    assert sorted(texts) == [f"stream {index} " * 5 for index in range(5)]
    assert server.connections_accepted == 5


async def test_a_slow_stream_does_not_block_other_requests(server, client) -> None:
    server.add_reply(ScriptedReply("slow " * 20, chunk_size=1, chunk_delay=0.05))
    slow = await client.chat.completions.create(model="m", messages=USER, stream=True)
    await anext(aiter(slow))
    other = openai.AsyncClient(api_key="k", base_url=server.base_url, max_retries=0)
    assert await asyncio.wait_for(_text(other), timeout=2) == "You said: Hello server"
    await slow.close()
    await other.close()


def test_process_mode_prints_its_url_and_serves_the_script(tmp_path: Path) -> None:
    script = {
        "replies": [{"text": "from the script", "chunk_size": 3}],
        "default": {"text": "default"},
        "models": ["m1", "m2"],
    }
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script))
    command = [sys.executable, "-m", "desktop_agent.testing.server", "--script", str(path)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:
        try:
            assert process.stdout is not None
            base_url = process.stdout.readline().strip()
            assert base_url.startswith("http://127.0.0.1:") and base_url.endswith("/v1")
            sdk = openai.OpenAI(api_key="k", base_url=base_url, max_retries=0)
            assert [model.id for model in sdk.models.list()] == ["m1", "m2"]
            texts = [
                sdk.chat.completions.create(model="m1", messages=USER).choices[0].message.content
                for _ in range(2)
            ]
            sdk.close()
            assert texts == ["from the script", "default"]
        finally:
            process.terminate()
            assert process.wait(timeout=10) == 0


def test_reply_from_dict_rejects_unknown_fields() -> None:
    with pytest.raises(ValueError, match="bogus"):
        ScriptedReply.from_dict({"text": "x", "bogus": 1})
    reply = ScriptedReply.from_dict(
        {"tool_calls": [{"name": "f", "arguments": {"a": 1}}], "audio": {"data": "AAAA"}}
    )
    assert reply.scripted_tool_calls() == [ScriptedToolCall("f", {"a": 1}, "call_0")]
    assert reply.audio is not None and reply.audio.raw == b"\x00\x00\x00"


def test_chunk_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        ScriptedReply("x", chunk_size=0)
