"""OpenAIChatModel: constructor, request contents, non-streamed parsing, tool_choice."""

from __future__ import annotations

import base64
import logging
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import openai
import pytest
from model_helpers import USER, collect

from desktop_agent.model import ChatResponse, OpenAIChatModel
from desktop_agent.testing import (
    OpenAICompatServer,
    ScriptedAudio,
    ScriptedReply,
    ScriptedToolCall,
)

TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}},
    {"type": "function", "function": {"name": "search", "parameters": {"type": "object"}}},
]


def test_importing_the_packages_does_not_import_openai() -> None:
    code = (
        "import sys\n"
        "import desktop_agent.model, desktop_agent.formatter, desktop_agent.testing\n"
        "print('openai' in sys.modules, 'PySide6' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


# -- constructor ------------------------------------------------------------------------


async def test_client_uses_key_organization_and_client_kwargs(server) -> None:
    model = OpenAIChatModel(
        "gpt-x",
        api_key="sk-1",
        organization="org-1",
        client_kwargs={"base_url": server.base_url, "max_retries": 0},
    )
    assert isinstance(model.client, openai.AsyncClient)
    assert model.client.api_key == "sk-1"
    assert model.client.organization == "org-1"
    assert model.client.max_retries == 0
    assert model.base_url.rstrip("/") == server.base_url
    assert (model.model_name, model.stream, model.generate_kwargs) == ("gpt-x", True, {})
    await model.aclose()


async def test_client_args_is_a_deprecated_alias(server, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="desktop_agent"):
        model = OpenAIChatModel("m", api_key="k", client_args={"base_url": server.base_url})
    assert model.base_url.rstrip("/") == server.base_url
    assert "client_args is deprecated" in caplog.text
    await model.aclose()


def test_client_args_and_client_kwargs_together_raise() -> None:
    with pytest.raises(ValueError, match="client_kwargs"):
        OpenAIChatModel("m", api_key="k", client_kwargs={}, client_args={})


async def test_unknown_kwargs_are_ignored_with_a_warning(caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="desktop_agent"):
        model = OpenAIChatModel("m", api_key="k", temperature=0.2)
    assert "temperature" in caplog.text
    await model.aclose()


def test_unknown_client_type_raises() -> None:
    with pytest.raises(ValueError, match="client_type"):
        OpenAIChatModel("m", api_key="k", client_type="anthropic")  # type: ignore[arg-type]


async def test_azure_client_type(server) -> None:
    model = OpenAIChatModel(
        "deployment",
        api_key="k",
        client_type="azure",
        client_kwargs={"api_version": "2024-06-01", "azure_endpoint": "http://127.0.0.1:9"},
    )
    assert isinstance(model.client, openai.AsyncAzureOpenAI)
    await model.aclose()


# -- request ------------------------------------------------------------------------------


async def test_request_merges_generate_kwargs_and_call_kwargs(server, make_model) -> None:
    model = make_model(
        stream=False,
        reasoning_effort="low",
        generate_kwargs={"temperature": 0.1, "max_tokens": 50},
    )
    await model(USER, temperature=0.7, seed=3)
    body = (await server.wait_for_request()).body
    assert body == {
        "model": "test-model",
        "messages": USER,
        "stream": False,
        "temperature": 0.7,
        "max_tokens": 50,
        "seed": 3,
        "reasoning_effort": "low",
    }


async def test_reasoning_effort_is_not_overridden(server, make_model) -> None:
    await make_model(stream=False, reasoning_effort="low")(USER, reasoning_effort="high")
    assert (await server.wait_for_request()).body["reasoning_effort"] == "high"


async def test_authorization_header_carries_the_key(server, make_model) -> None:
    await make_model(stream=False, api_key="sk-secret")(USER)
    request = await server.wait_for_request()
    assert request.headers["authorization"] == "Bearer sk-secret"
    assert request.path == "/v1/chat/completions"


@pytest.mark.parametrize("messages", [{"role": "user", "content": "x"}, "hello", None])
async def test_messages_must_be_a_list(make_model, messages) -> None:
    with pytest.raises(ValueError, match="list"):
        await make_model()(messages)


@pytest.mark.parametrize("message", [{"content": "x"}, {"role": "user"}])
async def test_each_message_needs_role_and_content(server, make_model, message) -> None:
    with pytest.raises(ValueError, match="'role' and 'content'"):
        await make_model()([message])
    assert server.requests == []


@pytest.mark.parametrize(
    ("tool_choice", "sent"),
    [
        ("auto", "auto"),
        ("none", "none"),
        ("required", "required"),
        ("any", "required"),
        ("search", {"type": "function", "function": {"name": "search"}}),
    ],
)
async def test_tool_choice_mapping(server, make_model, tool_choice, sent) -> None:
    await make_model(stream=False)(USER, tools=TOOLS, tool_choice=tool_choice)
    body = (await server.wait_for_request()).body
    assert body["tool_choice"] == sent
    assert body["tools"] == TOOLS


async def test_invalid_tool_choice_is_rejected_before_any_request(server, make_model) -> None:
    model = make_model()
    with pytest.raises(ValueError, match=r"Invalid tool_choice 'nope'\. Available options: "):
        await model(USER, tools=TOOLS, tool_choice="nope")
    with pytest.raises(TypeError, match="tool_choice must be str"):
        await model(USER, tools=TOOLS, tool_choice=3)  # type: ignore[arg-type]
    assert server.requests == []


async def test_empty_tools_are_not_sent(server, make_model) -> None:
    await make_model(stream=False)(USER, tools=[])
    assert "tools" not in (await server.wait_for_request()).body


# -- non-streamed parsing ---------------------------------------------------------------------


async def test_non_stream_text_and_usage(server, make_model) -> None:
    server.add_reply(ScriptedReply("Hello!", id="chatcmpl-1", usage={"prompt_tokens": 5}))
    response = await make_model(stream=False)(USER)
    assert isinstance(response, ChatResponse)
    assert response.content == [{"type": "text", "text": "Hello!"}]
    assert response.id == "chatcmpl-1"
    assert (response.usage.input_tokens, response.usage.output_tokens) == (5, 0)
    assert response.metadata is None
    assert "stream_options" not in server.last_request.body


async def test_non_stream_block_order(server, make_model) -> None:
    reply = ScriptedReply(
        "Text.",
        reasoning="Why.",
        audio=ScriptedAudio(b"\x00\x01\x02", transcript="Said."),
        tool_calls=[ScriptedToolCall("search", '{"q": "x"', id="c1")],
        usage=None,
    )
    server.add_reply(reply)
    response = await make_model(stream=False)(USER)
    assert response.content == [
        {"type": "thinking", "thinking": "Why."},
        {"type": "text", "text": "Text."},
        {
            "type": "audio",
            "source": {
                "type": "base64",
                "media_type": "audio/mp3",
                "data": base64.b64encode(b"\x00\x01\x02").decode(),
            },
        },
        {"type": "text", "text": "Said."},
        {"type": "tool_use", "id": "c1", "name": "search", "input": {"q": "x"}},
    ]
    assert response.usage is None


async def test_non_stream_tool_call_without_arguments(server, make_model) -> None:
    server.add_reply(ScriptedReply(tool_calls=[ScriptedToolCall("now", "")]))
    response = await make_model(stream=False)(USER)
    assert response.content == [{"type": "tool_use", "id": "call_0", "name": "now", "input": {}}]


async def test_stream_override_per_call(server, make_model) -> None:
    model = make_model(stream=True)
    response = await model(USER, stream=False)
    assert isinstance(response, ChatResponse)
    streamed = await collect(await model(USER))
    assert streamed[-1].content == response.content


async def test_long_history_and_tools_reach_the_server_unchanged(
    server: OpenAICompatServer, make_model: Callable[..., OpenAIChatModel]
) -> None:
    """Messages and tools skip the SDK's per-item transform but go out byte-for-byte."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": f"question {i} — ünïcödé"}]}
        if i % 2 == 0
        else {"role": "assistant", "content": None, "tool_calls": [_call(i)]}
        for i in range(2_000)
    ]
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    model = make_model(stream=False, generate_kwargs={"extra_body": {"top_k": 5}})
    await model(messages, tools=tools)
    body = server.chat_requests[-1].body
    assert body["messages"] == messages
    assert body["tools"] == tools
    assert body["top_k"] == 5


def _call(i: int) -> dict[str, Any]:
    return {"id": f"c{i}", "type": "function", "function": {"name": "f", "arguments": "{}"}}
