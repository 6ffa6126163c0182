"""Structured output: native response_format, and the forced-tool fallback."""

from __future__ import annotations

import json
from collections.abc import Callable

from model_helpers import USER, collect
from pydantic import BaseModel

from desktop_agent.model import ChatResponse, OpenAIChatModel
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall

ModelFactory = Callable[..., OpenAIChatModel]


class Weather(BaseModel):
    city: str
    celsius: float


ANSWER = {"city": "Paris", "celsius": 21.5}
TOOLS = [{"type": "function", "function": {"name": "search", "parameters": {"type": "object"}}}]


async def test_native_non_stream(server, make_model) -> None:
    server.add_reply(ScriptedReply(json.dumps(ANSWER)))
    model = make_model(stream=False)
    response = await model(USER, tools=TOOLS, tool_choice="auto", structured_model=Weather)

    assert response.metadata == ANSWER
    assert response.content == [{"type": "text", "text": json.dumps(ANSWER)}]
    body = (await server.wait_for_request()).body
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["name"] == "Weather"
    assert not {"tools", "tool_choice", "stream_options"} & set(body)
    assert body.get("stream", False) is False
    assert model._structured_output_fallback is False


async def test_native_stream_puts_the_result_on_the_final_responses(server, make_model) -> None:
    server.add_reply(ScriptedReply(json.dumps(ANSWER), chunk_size=6))
    responses = await collect(await make_model()(USER, structured_model=Weather))

    assert responses[0].metadata is None
    assert responses[-1].metadata == ANSWER
    assert responses[-1].content == [{"type": "text", "text": json.dumps(ANSWER)}]
    assert responses[-1].usage is not None
    body = (await server.wait_for_request()).body
    assert body["stream"] is True and "response_format" in body
    assert "tools" not in body


async def test_rejected_response_format_falls_back_to_a_forced_tool(server, make_model) -> None:
    server.add_reply(
        ScriptedReply.error(400, "response_format is not supported"),
        ScriptedReply(tool_calls=[ScriptedToolCall("generate_structured_output", ANSWER)]),
        ScriptedReply(tool_calls=[ScriptedToolCall("generate_structured_output", ANSWER)]),
    )
    model = make_model(stream=False)
    response = await model(USER, structured_model=Weather)

    assert response.metadata == ANSWER
    assert response.content[0]["name"] == "generate_structured_output"
    assert model._structured_output_fallback is True
    first, second = server.requests
    assert "response_format" in first.body
    tool = second.body["tools"][0]["function"]
    assert tool["name"] == "generate_structured_output"
    assert tool["parameters"] == {
        "type": "object",
        "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
        "required": ["city", "celsius"],
    }
    assert second.body["tool_choice"] == {
        "type": "function",
        "function": {"name": "generate_structured_output"},
    }

    # The fallback is permanent: the next call goes straight to the tool.
    await model(USER, structured_model=Weather)
    assert "response_format" not in server.requests[-1].body
    assert len(server.requests) == 3


async def test_an_answer_that_does_not_validate_falls_back(server, make_model) -> None:
    server.add_reply(
        ScriptedReply('{"city": "Paris"}'),
        ScriptedReply(tool_calls=[ScriptedToolCall("generate_structured_output", ANSWER)]),
    )
    model = make_model(stream=False)
    response = await model(USER, structured_model=Weather)
    assert response.metadata == ANSWER
    assert model._structured_output_fallback is True


async def test_rejected_tool_choice_retries_with_auto(server, make_model) -> None:
    server.add_reply(
        ScriptedReply.error(400, "response_format is not supported"),
        ScriptedReply.error(400, "tool_choice object is not supported"),
        ScriptedReply(tool_calls=[ScriptedToolCall("generate_structured_output", ANSWER)]),
    )
    response = await make_model(stream=False)(USER, structured_model=Weather)
    assert response.metadata == ANSWER
    assert server.requests[-1].body["tool_choice"] == "auto"


async def test_stream_fallback_after_invalid_streamed_answer(server, make_model) -> None:
    server.add_reply(
        ScriptedReply("not json at all"),
        ScriptedReply(
            tool_calls=[ScriptedToolCall("generate_structured_output", ANSWER)], chunk_size=5
        ),
    )
    model = make_model()
    responses = await collect(await model(USER, structured_model=Weather))

    assert responses[-1].metadata == ANSWER
    assert responses[-1].content[-1]["input"] == ANSWER
    assert model._structured_output_fallback is True
    assert server.requests[-1].body["stream"] is True


async def test_stream_fallback_when_the_server_rejects_response_format(server, make_model) -> None:
    server.add_reply(
        ScriptedReply.error(400),
        ScriptedReply(tool_calls=[ScriptedToolCall("generate_structured_output", ANSWER)]),
    )
    responses = await collect(await make_model()(USER, structured_model=Weather))
    assert responses[-1].metadata == ANSWER


class Place(BaseModel):
    title: str
    weather: Weather


async def test_fallback_schema_has_no_titles_but_keeps_a_title_property(
    server: OpenAICompatServer, make_model: ModelFactory
) -> None:
    model = make_model(stream=False)
    model._structured_output_fallback = True
    server.add_reply(ScriptedReply(tool_calls=[ScriptedToolCall("generate_structured_output", {})]))
    await model(USER, structured_model=Place)
    parameters = server.requests[-1].body["tools"][0]["function"]["parameters"]
    assert "title" in parameters["properties"]  # the field called "title"
    assert "title" not in parameters and "title" not in parameters["properties"]["title"]
    assert parameters["$defs"]["Weather"] == {
        "type": "object",
        "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
        "required": ["city", "celsius"],
    }


async def test_fallback_metadata_is_the_returned_calls_arguments_whatever_its_name(
    server: OpenAICompatServer, make_model: ModelFactory
) -> None:
    model = make_model(stream=False)
    model._structured_output_fallback = True
    server.add_reply(ScriptedReply(tool_calls=[ScriptedToolCall("Weather", ANSWER)]))
    response = await model(USER, structured_model=Weather)
    assert isinstance(response, ChatResponse) and response.metadata == ANSWER

    streaming = make_model()
    streaming._structured_output_fallback = True
    server.add_reply(ScriptedReply(tool_calls=[ScriptedToolCall("weather_tool", ANSWER)]))
    responses = await collect(await streaming(USER, structured_model=Weather))
    assert responses[-1].metadata == ANSWER


async def test_stream_tool_choice_rejected_on_first_read_retries_with_auto(
    server: OpenAICompatServer, make_model: ModelFactory
) -> None:
    model = make_model()
    model._structured_output_fallback = True
    server.add_reply(
        ScriptedReply(
            error_after_chunks=0,
            error_body={"message": "tool_choice object is not supported", "type": "invalid"},
        ),
        ScriptedReply(
            tool_calls=[ScriptedToolCall("generate_structured_output", ANSWER)], chunk_size=5
        ),
    )
    responses = await collect(await model(USER, structured_model=Weather))
    assert responses[-1].metadata == ANSWER
    first, second = server.chat_requests
    assert first.body["tool_choice"]["function"]["name"] == "generate_structured_output"
    assert second.body["tool_choice"] == "auto"
    assert second.body["stream"] is True
