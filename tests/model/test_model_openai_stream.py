"""OpenAIChatModel streaming, through the real openai SDK to the loopback server."""

from __future__ import annotations

import base64
import json

from model_helpers import USER, collect

from desktop_agent.testing import ScriptedAudio, ScriptedReply, ScriptedToolCall


async def test_text_deltas_yield_cumulative_responses(server, make_model) -> None:
    server.add_reply(ScriptedReply(["Hello", " there!"], usage=None))
    responses = await collect(await make_model()(USER))

    texts = [r.content for r in responses]
    # The role chunk is empty; the finish chunk repeats the full content.
    assert texts[:2] == [
        [{"type": "text", "text": "Hello"}],
        [{"type": "text", "text": "Hello there!"}],
    ]
    assert texts[-1] == [{"type": "text", "text": "Hello there!"}]
    assert len(responses) == 3


async def test_all_responses_share_the_first_chunk_id(server, make_model) -> None:
    server.add_reply(ScriptedReply("abcdef", chunk_size=2, id="chatcmpl-xyz"))
    responses = await collect(await make_model()(USER))
    assert {r.id for r in responses} == {"chatcmpl-xyz"}
    assert len({r.created_at for r in responses}) == 1


async def test_usage_only_chunk_reyields_last_content_with_usage(server, make_model) -> None:
    usage = {"prompt_tokens": 11, "completion_tokens": 7}
    server.add_reply(ScriptedReply("Hi!", usage=usage))
    responses = await collect(await make_model()(USER))

    *before, last = responses
    assert all(r.usage is None for r in before)
    assert last.content == [{"type": "text", "text": "Hi!"}]
    assert (last.usage.input_tokens, last.usage.output_tokens) == (11, 7)
    assert last.usage.time > 0
    assert last.usage.metadata.total_tokens == 18


async def test_request_asks_for_streamed_usage(server, make_model) -> None:
    await collect(await make_model()(USER))
    body = (await server.wait_for_request()).body
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}


async def test_reasoning_content_becomes_a_leading_thinking_block(server, make_model) -> None:
    server.add_reply(ScriptedReply("Answer.", reasoning=["Let me ", "think."]))
    responses = await collect(await make_model()(USER))
    assert responses[0].content == [{"type": "thinking", "thinking": "Let me "}]
    assert responses[-1].content == [
        {"type": "thinking", "thinking": "Let me think."},
        {"type": "text", "text": "Answer."},
    ]


async def test_reasoning_field_variant_is_understood(server, make_model) -> None:
    server.add_reply(ScriptedReply("A", reasoning="R", reasoning_field="reasoning"))
    responses = await collect(await make_model()(USER))
    assert responses[-1].content[0] == {"type": "thinking", "thinking": "R"}


async def test_tool_call_arguments_split_across_chunks(server, make_model) -> None:
    call = ScriptedToolCall("get_weather", '{"city": "Paris", "unit": "c"}', id="call_1")
    server.add_reply(ScriptedReply(tool_calls=[call], chunk_size=7))
    responses = await collect(await make_model()(USER))

    tool_blocks = [r.content[-1] for r in responses]
    assert tool_blocks[0] == {
        "type": "tool_use",
        "id": "call_1",
        "name": "get_weather",
        "input": {},
        "raw_input": "",
    }
    raws = [b["raw_input"] for b in tool_blocks]
    assert raws[1:4] == ['{"city"', '{"city": "Pari', '{"city": "Paris", "un']
    inputs = [b["input"] for b in tool_blocks]
    assert inputs[1:4] == [{}, {"city": "Pari"}, {"city": "Paris"}]
    assert tool_blocks[-1]["input"] == {"city": "Paris", "unit": "c"}
    assert tool_blocks[-1]["raw_input"] == '{"city": "Paris", "unit": "c"}'


async def test_truncated_arguments_are_repaired(server, make_model) -> None:
    server.add_reply(ScriptedReply(tool_calls=[ScriptedToolCall("f", '{"city": "Par')]))
    responses = await collect(await make_model()(USER))
    block = responses[-1].content[0]
    assert block["input"] == {"city": "Par"}
    assert block["raw_input"] == '{"city": "Par'


async def test_malformed_arguments_are_repaired_with_json_repair(server, make_model) -> None:
    server.add_reply(ScriptedReply(tool_calls=[ScriptedToolCall("f", "{'a': 1, 'b': [2, 3],}")]))
    responses = await collect(await make_model()(USER))
    assert responses[-1].content[0]["input"] == {"a": 1, "b": [2, 3]}


async def test_parallel_tool_calls_keep_their_order(server, make_model) -> None:
    calls = [
        ScriptedToolCall("search", {"q": "cats"}, id="call_a"),
        ScriptedToolCall("search", {"q": "dogs"}, id="call_b"),
        {"name": "add", "arguments": {"x": 1, "y": 2}},
    ]
    server.add_reply(ScriptedReply("Working on it.", tool_calls=calls, chunk_size=3))
    responses = await collect(await make_model()(USER))

    text, *tools = responses[-1].content
    assert text == {"type": "text", "text": "Working on it."}
    assert [(t["id"], t["name"], t["input"]) for t in tools] == [
        ("call_a", "search", {"q": "cats"}),
        ("call_b", "search", {"q": "dogs"}),
        ("call_2", "add", {"x": 1, "y": 2}),
    ]


async def test_without_stream_tool_parsing_inputs_come_in_one_extra_response(
    server, make_model
) -> None:
    server.add_reply(ScriptedReply(tool_calls=[ScriptedToolCall("f", {"x": [1, 2]})], usage=None))
    parsing = await collect(await make_model()(USER))
    server.add_reply(ScriptedReply(tool_calls=[ScriptedToolCall("f", {"x": [1, 2]})], usage=None))
    deferred = await collect(await make_model(stream_tool_parsing=False)(USER))

    assert len(deferred) == len(parsing) + 1
    assert all(r.content[0]["input"] == {} for r in deferred[:-1])
    assert deferred[-2].content[0]["raw_input"] == '{"x": [1, 2]}'
    assert deferred[-1].content[0]["input"] == {"x": [1, 2]}


async def test_block_order_is_thinking_audio_text_tools(server, make_model) -> None:
    audio = ScriptedAudio(b"RIFF0123456789", transcript="spoken words")
    reply = ScriptedReply(
        "Text. ",
        reasoning="Thinking.",
        audio=audio,
        tool_calls=[ScriptedToolCall("f", {})],
    )
    server.add_reply(reply)
    model = make_model(
        generate_kwargs={"modalities": ["text", "audio"], "audio": {"format": "wav"}}
    )
    responses = await collect(await model(USER))

    assert [b["type"] for b in responses[-1].content] == ["thinking", "audio", "text", "tool_use"]
    audio_block = responses[-1].content[1]
    assert audio_block["source"] == {
        "type": "base64",
        "media_type": "audio/wav",
        "data": base64.b64encode(b"RIFF0123456789").decode(),
    }
    assert responses[-1].content[2]["text"] == "Text. spoken words"
    body = server.last_request.body
    assert body["audio"] == {"format": "wav"}


async def test_audio_media_type_defaults_to_mp3(server, make_model) -> None:
    server.add_reply(ScriptedReply(audio=ScriptedAudio(b"\xff\xfb\x90\x00")))
    responses = await collect(await make_model()(USER))
    assert responses[-1].content[0]["source"]["media_type"] == "audio/mp3"


async def test_null_delta_and_usage_chunks_are_tolerated(server, make_model) -> None:
    base = {"id": "chatcmpl-raw", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    events = [
        {**base, "choices": [{"index": 0, "delta": None, "finish_reason": None}]},
        {**base, "choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": None}]},
        {**base, "choices": [], "usage": None},
        {**base, "choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 2}},
    ]
    server.add_reply(ScriptedReply(raw_events=events))
    responses = await collect(await make_model()(USER))
    assert [r.content for r in responses] == [[{"type": "text", "text": "ok"}]] * 2
    assert responses[-1].usage.output_tokens == 2
    assert responses[0].id == "chatcmpl-raw"


async def test_usage_before_any_content_is_kept_for_later(server, make_model) -> None:
    base = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    events = [
        {**base, "choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 4}},
        {**base, "choices": [{"index": 0, "delta": {"content": "x"}, "finish_reason": "stop"}]},
    ]
    server.add_reply(ScriptedReply(raw_events=events))
    responses = await collect(await make_model()(USER))
    assert len(responses) == 1
    assert responses[0].usage.input_tokens == 3


async def test_large_streamed_arguments_are_parsed_exactly_at_the_end(server, make_model) -> None:
    content = 'line with "quotes" and \\ backslashes\n' * 250
    arguments = {"path": "notes.txt", "content": content}
    server.add_reply(
        ScriptedReply(tool_calls=[ScriptedToolCall("write", arguments)], chunk_size=16)
    )
    responses = await collect(await make_model()(USER))

    partial = [r.content[0]["input"].get("content", "") for r in responses]
    assert all(content.startswith(text) for text in partial)
    assert any(0 < len(text) < len(content) for text in partial)
    assert responses[-1].content[0]["input"] == arguments
    assert json.loads(responses[-1].content[0]["raw_input"]) == arguments
