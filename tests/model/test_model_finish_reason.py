"""Why the model stopped, against the loopback server: ``ChatResponse.finish_reason``,
unknown models behind proxies (HTTP 400), and a server that goes silent mid-stream."""

from __future__ import annotations

import httpx
import pytest
from model_helpers import USER, collect

from desktop_agent.model import ModelConnectionError, ModelNotFoundError
from desktop_agent.testing import ScriptedReply, ScriptedToolCall


@pytest.mark.parametrize("reason", ["stop", "length", "content_filter"])
async def test_a_stream_keeps_the_finish_reason(server, make_model, reason) -> None:
    server.add_reply(ScriptedReply("Hello there", finish_reason=reason))
    responses = await collect(await make_model()(USER))
    assert responses[-1].finish_reason == reason
    assert responses[0].finish_reason is None  # still streaming


async def test_a_stream_with_tool_calls_finishes_with_tool_calls(server, make_model) -> None:
    server.add_reply(ScriptedReply(tool_calls=[ScriptedToolCall("f", {"a": 1})]))
    responses = await collect(await make_model()(USER))
    assert responses[-1].finish_reason == "tool_calls"


async def test_a_stream_closed_without_finish_reason_or_done_says_none(server, make_model) -> None:
    server.add_reply(
        ScriptedReply("The answer is cut he", send_finish=False, send_done=False, usage=None)
    )
    responses = await collect(await make_model()(USER))
    assert responses[-1].content == [{"type": "text", "text": "The answer is cut he"}]
    assert responses[-1].finish_reason is None


async def test_a_length_stop_inside_tool_arguments(server, make_model) -> None:
    call = ScriptedToolCall("write_text_file", '{"path": "notes.txt", "content": "Dear')
    server.add_reply(ScriptedReply(tool_calls=[call], finish_reason="length"))
    responses = await collect(await make_model()(USER))
    assert responses[-1].finish_reason == "length"
    assert responses[-1].content[-1]["raw_input"] == call.arguments


@pytest.mark.parametrize("reason", ["stop", "length"])
async def test_a_non_streamed_answer_keeps_the_finish_reason(server, make_model, reason) -> None:
    server.add_reply(ScriptedReply("Hi", finish_reason=reason))
    response = await make_model(stream=False)(USER)
    assert response.finish_reason == reason


@pytest.mark.parametrize("style", ["litellm", "vllm"])
async def test_http_400_for_an_unknown_model_is_model_not_found(server, make_model, style) -> None:
    server.add_reply(ScriptedReply.model_not_found("gpt-9", style=style))
    with pytest.raises(ModelNotFoundError) as caught:
        await make_model("gpt-9")(USER)
    assert caught.value.status_code == 400
    assert "gpt-9" in str(caught.value)
    assert "Pick another model" in str(caught.value)


async def test_another_http_400_is_not_model_not_found(server, make_model) -> None:
    server.add_reply(ScriptedReply.error(400, "messages: roles must alternate"))
    with pytest.raises(Exception) as caught:
        await make_model()(USER)
    assert not isinstance(caught.value, ModelNotFoundError)


async def test_a_silent_socket_mid_stream_times_out(server, make_model) -> None:
    server.add_reply(ScriptedReply("Half an answ", chunk_size=4, stall_after_chunks=3))
    timeout = httpx.Timeout(5.0, read=0.3)
    model = make_model(client_kwargs={"timeout": timeout})
    received = []
    with pytest.raises(ModelConnectionError) as caught:
        async for response in await model(USER):
            received.append(response)
    assert received[-1].content == [{"type": "text", "text": "Half an "}]
    assert "sent nothing for 0.3 s while streaming" in str(caught.value)
    assert caught.value.retryable
    await server.wait_for_disconnect()
