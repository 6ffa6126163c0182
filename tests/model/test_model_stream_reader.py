"""The stream is read from the SDK's server-sent events as plain JSON (no per-chunk SDK
model): what the SDK did with ``[DONE]``, error events and usage still holds."""

from __future__ import annotations

import pytest
from model_helpers import USER, collect

from desktop_agent.model import ModelError
from desktop_agent.testing import ScriptedReply

_CHUNK = {"id": "c", "choices": [{"index": 0, "delta": {"content": "Hello"}}]}


async def test_an_error_event_mid_stream_is_a_model_error_with_its_message(
    server, make_model
) -> None:
    error = {"error": {"message": "The server is overloaded.", "type": "server_error"}}
    server.add_reply(ScriptedReply(raw_events=[_CHUNK, error]))
    with pytest.raises(ModelError, match="overloaded"):
        await collect(await make_model()(USER))


async def test_events_after_done_are_ignored(server, make_model) -> None:
    late = {"id": "c", "choices": [{"index": 0, "delta": {"content": " late"}}]}
    server.add_reply(ScriptedReply(raw_events=[_CHUNK, "[DONE]", late]))
    responses = await collect(await make_model()(USER))
    assert responses[-1].content == [{"type": "text", "text": "Hello"}]


async def test_usage_keeps_the_sdk_usage_object(server, make_model) -> None:
    usage = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}
    server.add_reply(ScriptedReply(raw_events=[_CHUNK, {"id": "c", "choices": [], "usage": usage}]))
    responses = await collect(await make_model()(USER))
    last = responses[-1].usage
    assert last is not None and (last.input_tokens, last.output_tokens) == (3, 2)
    assert type(last.metadata).__name__ == "CompletionUsage"
    assert last.metadata.total_tokens == 5


async def test_a_non_string_content_is_an_unusable_chunk(server, make_model) -> None:
    event = {"id": "c", "choices": [{"index": 0, "delta": {"content": 42}}]}
    server.add_reply(ScriptedReply(raw_events=[event]))
    with pytest.raises(ModelError, match="unexpected shape"):
        await collect(await make_model()(USER))
