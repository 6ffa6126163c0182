"""AgentState: the agent's saveable state, before and around the agent."""

from __future__ import annotations

from pydantic import SecretStr

from desktop_agent.agent import ReActAgent
from desktop_agent.app import AgentState, Provider, Settings
from desktop_agent.app._agent_factory import build_agent_parts
from desktop_agent.context import InputModule
from desktop_agent.formatter import OpenAIChatFormatter
from desktop_agent.message import Msg
from desktop_agent.testing import ScriptedChatModel
from desktop_agent.tool import Toolkit


def _template(name: str) -> dict[str, object]:
    data = InputModule().config.model_dump(mode="json", exclude_none=True)
    data["context_template"][0]["module_name"] = name
    return data


async def test_its_state_has_the_shape_of_a_react_agent_state() -> None:
    state = AgentState("Be brief.")
    await state.memory.add(Msg("User", "hello", "user"))
    agent = ReActAgent(
        "Assistant",
        "",
        ScriptedChatModel(),
        OpenAIChatFormatter(),
        input_module=InputModule(),
    )
    saved = state.state_dict()
    assert list(saved) == list(agent.state_dict())
    agent.load_state_dict(saved)
    assert agent.sys_prompt == "Be brief."
    assert [m.get_text_content() for m in await agent.memory.get_memory()] == ["hello"]


async def test_a_restored_state_becomes_the_built_agent() -> None:
    saved_by = AgentState("Speak like a pirate.", name="Friday")
    saved_by.input_module.load_config(_template("identity"))
    await saved_by.memory.add(Msg("User", "ahoy", "user"))
    restored = AgentState()
    restored.load_state_dict(saved_by.state_dict())
    provider = Provider("Test", "http://127.0.0.1:9/v1", "m", SecretStr("k"), "environment")
    parts = await build_agent_parts(provider, Settings(), state=restored)
    try:
        agent = parts.agent
        assert agent.memory is restored.memory and agent.input_module is restored.input_module
        assert agent.name == "Friday" and agent.sys_prompt == "Speak like a pirate."
        assert agent.input_module.config.context_template[0].module_name == "identity"
        assert restored.state_dict() == agent.state_dict()
    finally:
        await parts.aclose()


def test_tool_groups_survive_the_agent() -> None:
    state = AgentState()
    state.load_state_dict({"toolkit": {"active_groups": ["browsing"]}})
    toolkit = Toolkit()
    toolkit.create_tool_group("browsing", "Web tools", active=False)
    toolkit.create_tool_group("files", "File tools", active=True)
    agent = ReActAgent("A", "", ScriptedChatModel(), OpenAIChatFormatter(), toolkit=toolkit)
    state.attach(agent)
    assert agent.toolkit.state_dict() == {"active_groups": ["browsing"]}
    agent.toolkit.update_tool_groups(["files"], active=True)
    state.detach()
    assert state.state_dict()["toolkit"] == {"active_groups": ["browsing", "files"]}


def test_an_agent_state_saved_before_input_modules_loads_with_the_default_template() -> None:
    state = AgentState()
    old = {
        "memory": {"_compressed_summary": "", "content": []},
        "toolkit": {"active_groups": []},
        "name": "Assistant",
        "_sys_prompt": "Old prompt.",
    }
    state.load_state_dict(old)
    assert state.sys_prompt == "Old prompt."
    assert state.input_module.config == InputModule().config


async def test_a_session_memory_saves_what_an_in_memory_memory_saves() -> None:
    from desktop_agent.app._session_memory import SessionMemory
    from desktop_agent.memory import InMemoryMemory

    plain, cached = InMemoryMemory(), SessionMemory()
    messages = [Msg("User", f"message {number}", "user") for number in range(5)]
    for memory in (plain, cached):
        await memory.add(messages)
    assert cached.state_dict() == plain.state_dict()
    reply = Msg("Assistant", "new", "assistant")
    for memory in (plain, cached):
        await memory.add(reply)
        await memory.delete([messages[1].id])
        await memory.update_messages_mark("starred", msg_ids=[messages[0].id])
        memory.content[2][0].metadata = {"changed": True}
    assert cached.state_dict() == plain.state_dict()
    restored = SessionMemory()
    restored.load_state_dict(cached.state_dict())
    assert restored.state_dict() == cached.state_dict()
