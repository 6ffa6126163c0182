"""A server that answers 200 with something else, or sends chunks no model would, gives a
typed ``ModelResponseError`` naming what arrived; a key echoed back is masked at the source."""

from __future__ import annotations

import pytest
from model_helpers import USER, collect

from desktop_agent.model import ModelAuthenticationError, ModelResponseError
from desktop_agent.testing import ScriptedReply

_BAD_CALL = {"index": 0, "function": 3}
_CHUNK_HEAD = b'{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":'


@pytest.mark.parametrize(
    ("reply", "named"),
    [
        (ScriptedReply(body="<!DOCTYPE html><html><body>Sign in</body></html>"), "HTML page"),
        (
            ScriptedReply(body='{"status": "ok"}', content_type="application/json"),
            "plain JSON",
        ),
        (ScriptedReply("a whole completion", stream=False), "plain JSON"),
        (ScriptedReply(body=b""), "empty body"),
        (ScriptedReply(body=b"", content_type="text/event-stream"), "empty event stream"),
    ],
    ids=["html", "json", "completion-json", "empty", "empty-event-stream"],
)
async def test_a_200_that_is_not_an_event_stream_is_a_response_error(
    server, make_model, reply, named
) -> None:
    server.add_reply(reply)
    with pytest.raises(ModelResponseError, match=named) as caught:
        await collect(await make_model()(USER))
    assert server.base_url in str(caught.value)


async def test_the_error_quotes_the_start_of_the_page(server, make_model) -> None:
    server.add_reply(ScriptedReply(body="<html><title>Captive portal</title></html>"))
    with pytest.raises(ModelResponseError, match="Captive portal"):
        await collect(await make_model()(USER))


async def test_a_mislabelled_event_stream_still_streams(server, make_model) -> None:
    chunk = _CHUNK_HEAD + b'[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}'
    body = b"data: " + chunk + b"\n\ndata: [DONE]\n\n"
    server.add_reply(ScriptedReply(body=body, content_type="text/plain"))
    responses = await collect(await make_model()(USER))
    assert responses[-1].content[-1] == {"type": "text", "text": "hi"}


@pytest.mark.parametrize(
    ("event", "named"),
    [
        ({"id": "c", "choices": "not a list"}, "unexpected shape"),
        ({"id": "c", "choices": [{"index": 0, "delta": "text"}]}, "unexpected shape"),
        (
            {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [_BAD_CALL]}}]},
            "unexpected shape",
        ),
        (_CHUNK_HEAD + b'[{"index":0,"delta":{"content":"\xff\xfe"}}]}', "not valid UTF-8"),
        ("[" * 50_000 + "]" * 50_000, "nested too deeply"),
    ],
    ids=["choices-str", "delta-str", "function-int", "bad-utf8", "deep-json"],
)
async def test_an_unusable_chunk_is_a_response_error(server, make_model, event, named) -> None:
    server.add_reply(ScriptedReply(raw_events=[event]))
    with pytest.raises(ModelResponseError, match=named):
        await collect(await make_model()(USER))


async def test_tool_arguments_nested_thousands_deep_are_a_response_error(
    server, make_model
) -> None:
    call = {"index": 0, "id": "c1", "function": {"name": "f", "arguments": "[" * 50_000}}
    event = {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}
    server.add_reply(ScriptedReply(raw_events=[event]))
    with pytest.raises(ModelResponseError, match="nested too deeply"):
        await collect(await make_model()(USER))


@pytest.mark.parametrize("stream", [True, False])
async def test_an_echoed_api_key_is_masked_in_the_model_error(server, make_model, stream) -> None:
    key = "sk-secret-1234567890"
    server.add_reply(ScriptedReply.error(401, f"Incorrect API key provided: {key}."))
    with pytest.raises(ModelAuthenticationError) as caught:
        await make_model(api_key=key, stream=stream)(USER)
    error = caught.value
    assert key not in str(error)
    assert key not in repr(error.args)
    assert key not in str(error.body)
    assert key not in (error.server_message or "")
    assert "***" in str(error)


async def test_a_page_echoing_the_api_key_is_masked_in_the_error(server, make_model) -> None:
    key = "sk-secret-0987654321"
    server.add_reply(ScriptedReply(body=f"<html>Invalid key {key}</html>"))
    with pytest.raises(ModelResponseError) as caught:
        await collect(await make_model(api_key=key)(USER))
    assert key not in str(caught.value) and "***" in str(caught.value)
