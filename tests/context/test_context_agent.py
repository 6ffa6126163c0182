"""A ReActAgent given an InputModule: what the model server receives follows the template."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from context_helpers import IMAGE, config, module

from desktop_agent.agent import ReActAgent
from desktop_agent.context import InputModule
from desktop_agent.formatter import OpenAIChatFormatter
from desktop_agent.message import Msg, TextBlock
from desktop_agent.model import OpenAIChatModel
from desktop_agent.session import JSONSession
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall
from desktop_agent.tool import Toolkit, ToolResponse


def get_weather(city: str) -> ToolResponse:
    """Get the current weather of a city.

    Args:
        city: The city's name.
    """
    return ToolResponse(content=[TextBlock(type="text", text=f"Sunny in {city}, 24°C")])


@pytest.fixture
async def server() -> AsyncIterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


@pytest.fixture
async def model(server: OpenAICompatServer) -> AsyncIterator[OpenAIChatModel]:
    chat_model = OpenAIChatModel(
        "test-model",
        api_key="test-key",
        client_kwargs={"base_url": server.base_url, "max_retries": 0},
    )
    yield chat_model
    await chat_model.aclose()


def make_agent(model: OpenAIChatModel, input_module: InputModule) -> ReActAgent:
    toolkit = Toolkit()
    toolkit.register_tool_function(get_weather)
    agent = ReActAgent(
        name="Friday",
        sys_prompt="Keep answers short.",
        model=model,
        formatter=OpenAIChatFormatter(),
        toolkit=toolkit,
        input_module=input_module,
    )
    agent.set_console_output_enabled(False)
    return agent


def text_of(message: dict[str, Any]) -> str:
    content = message.get("content") or []
    if isinstance(content, str):
        return content
    return "\n".join(part["text"] for part in content if part.get("type") == "text")


def summary(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(role, text or tool-call marker) per request message."""
    result = []
    for message in messages:
        if message.get("tool_calls"):
            names = ",".join(call["function"]["name"] for call in message["tool_calls"])
            result.append((message["role"], f"calls {names}"))
        else:
            result.append((message["role"], text_of(message)))
    return result


def script_weather_turn(server: OpenAICompatServer) -> None:
    server.add_reply(
        ScriptedReply(tool_calls=[ScriptedToolCall("get_weather", {"city": "Lisbon"}, "call_1")]),
        ScriptedReply("It is sunny in Lisbon."),
    )


async def test_a_custom_template_shapes_every_request(
    server: OpenAICompatServer, model: OpenAIChatModel
) -> None:
    input_module = InputModule()
    input_module.load_config(
        config(
            module("persona", ("text", "TEMPLATE: you are "), ("variable", "agent_name")),
            module("rules", ("variable", "sys_prompt")),
            module("history", ("variable", "chat_history")),
            module(
                "input", ("text", "Question: "), ("variable", "current_user_input"), role="user"
            ),
        )
    )
    agent = make_agent(model, input_module)
    script_weather_turn(server)
    server.add_reply(ScriptedReply("You're welcome!"))

    await agent(Msg("user", "Weather in Lisbon?", "user"))
    reply = await agent(Msg("user", "Thanks!", "user"))

    assert reply.get_text_content() == "You're welcome!"
    first, second, third = (request.messages for request in server.chat_requests)
    system = ("system", "TEMPLATE: you are Friday\n\nKeep answers short.")
    assert summary(first) == [system, ("user", "Question: Weather in Lisbon?")]
    assert summary(second) == [
        system,
        ("user", "Question: Weather in Lisbon?"),
        ("assistant", "calls get_weather"),
        ("tool", "Sunny in Lisbon, 24°C"),
    ]
    assert second[3]["tool_call_id"] == second[2]["tool_calls"][0]["id"] == "call_1"
    assert summary(third) == [
        system,
        ("user", "Weather in Lisbon?"),  # history: the message as it was said
        ("assistant", "calls get_weather"),
        ("tool", "Sunny in Lisbon, 24°C"),
        ("assistant", "It is sunny in Lisbon."),
        ("user", "Question: Thanks!"),
    ]
    report = {r.module_name: r.included for r in input_module.last_build_report}
    assert report == {"persona": True, "rules": True, "history": True, "input": True}


async def test_the_default_template_sends_one_user_message_with_its_image(
    server: OpenAICompatServer, model: OpenAIChatModel
) -> None:
    agent = make_agent(model, InputModule())
    script_weather_turn(server)

    question = Msg("user", [{"type": "text", "text": "Weather where I took this?"}, IMAGE], "user")
    await agent(question)

    first, second = (request.messages for request in server.chat_requests)
    for messages in (first, second):
        assert [m["role"] for m in messages][:2] == ["system", "user"]
        system_text = text_of(messages[0])
        assert system_text.startswith("You are Friday, an AI assistant in a desktop chat app.")
        assert "\n\nKeep answers short.\n\nCurrent date and time: " in system_text
        users = [m for m in messages if m["role"] == "user"]
        assert len(users) == 1
        assert users[0]["content"] == [
            {"type": "text", "text": "Weather where I took this?"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        ]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "tool"]


async def test_the_template_travels_with_the_agents_session(
    tmp_path: Path, model: OpenAIChatModel
) -> None:
    input_module = InputModule()
    input_module.load_config(config(module("only", ("text", "Custom."))))
    session = JSONSession(save_dir=str(tmp_path))
    await session.save_session_state("s", agent=make_agent(model, input_module))
    restored = make_agent(model, InputModule())
    await session.load_session_state("s", agent=restored)
    assert restored.input_module is not None
    assert restored.input_module.config == input_module.config


async def test_the_agent_feeds_the_dialogue_to_the_short_term_memory() -> None:
    """User messages and final replies (not tool steps) reach ``short_term_history_content``."""
    from desktop_agent.testing import ScriptedChatModel

    model = ScriptedChatModel(
        [
            [{"type": "tool_use", "id": "c1", "name": "ping", "input": {}}],
            "The answer is pong.",
        ]
    )
    toolkit = Toolkit()

    def ping() -> ToolResponse:
        """Answer pong."""
        return ToolResponse([TextBlock(type="text", text="tool output")])

    toolkit.register_tool_function(ping)
    input_module = InputModule()
    agent = ReActAgent(
        "Assistant",
        "Be brief.",
        model,
        OpenAIChatFormatter(),
        toolkit=toolkit,
        input_module=input_module,
    )
    agent.set_console_output_enabled(False)
    await agent(Msg("User", "What does ping say?", "user"))

    assert [m.get_text_content() for m in input_module.short_term_memory] == [
        "What does ping say?",
        "The answer is pong.",
    ]
    input_module.load_config(config(module("recent", ("variable", "short_term_history_content"))))
    recent = await input_module.build_prompt("next")
    assert "What does ping say?" in recent
    assert "The answer is pong." in recent
    assert "tool output" not in recent
