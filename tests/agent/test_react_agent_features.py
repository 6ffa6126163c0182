"""ReActAgent features: meta tool, plan notebook, long-term memory, knowledge,
compression, agent skills and a custom InputModule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent_helpers import make_agent, tool_use, user

from desktop_agent.agent import (
    CompressionConfig,
    InMemoryKnowledgeBase,
    InMemoryLongTermMemory,
    PlanNotebook,
    ReActAgent,
    SummarySchema,
)
from desktop_agent.formatter import CharTokenCounter
from desktop_agent.memory import MemoryBase
from desktop_agent.message import Msg
from desktop_agent.model import ChatResponse
from desktop_agent.module import StateModule
from desktop_agent.testing import ModelCall, ScriptedChatModel
from desktop_agent.tool import Toolkit


def _tool_names(call: ModelCall) -> list[str]:
    return [t["function"]["name"] for t in call.tools or []]


def _texts(call: ModelCall) -> list[str]:
    texts = []
    for message in call.messages:
        content = message.get("content")
        if isinstance(content, list):
            texts += [part.get("text", "") for part in content]
        elif isinstance(content, str):
            texts.append(content)
    return texts


async def test_meta_tool_and_plan_tools_in_their_own_group() -> None:
    model = ScriptedChatModel(
        [[tool_use("m", "reset_equipped_tools", plan_related=True)], "Ready to plan."]
    )
    agent = make_agent(model, enable_meta_tool=True, plan_notebook=PlanNotebook())

    await agent(user("Plan my trip"))

    assert _tool_names(model.calls[0]) == ["reset_equipped_tools"]
    assert "create_plan" in _tool_names(model.calls[1])
    assert agent.toolkit.groups["plan_related"].active
    assert "plan_notebook" in agent.state_dict()


# The plan notebook itself (tools, hints, state) is tested in tests/plan/.


async def test_static_long_term_memory_retrieves_and_records() -> None:
    ltm = InMemoryLongTermMemory()
    ltm.add_records(["Ada's favourite colour is green.", "Bob likes tea."])
    model = ScriptedChatModel(["Green."])
    agent = make_agent(model, long_term_memory=ltm, long_term_memory_mode="static_control")

    await agent(user("What is Ada's favourite colour?"))

    retrieved = [t for t in _texts(model.calls[0]) if t.startswith("<long_term_memory>")]
    assert len(retrieved) == 1 and "green" in retrieved[0] and "tea" not in retrieved[0]
    assert "Green." in ltm.records
    assert _tool_names(model.calls[0]) == []
    assert "long_term_memory" in agent.state_dict()


async def test_agent_controlled_long_term_memory_tools() -> None:
    ltm = InMemoryLongTermMemory()
    model = ScriptedChatModel(
        [
            [tool_use("r", "record_to_memory", thinking="useful", content=["Ada is 36."])],
            [tool_use("q", "retrieve_from_memory", keywords=["Ada"])],
            "Ada is 36.",
        ]
    )
    agent = make_agent(model, long_term_memory=ltm, long_term_memory_mode="agent_control")

    await agent(user("Remember Ada is 36."))

    assert _tool_names(model.calls[0]) == ["record_to_memory", "retrieve_from_memory"]
    assert ltm.records == ["Ada is 36."]
    tool_results = [m for m in model.calls[2].messages if m["role"] == "tool"]
    assert "- Ada is 36." in tool_results[-1]["content"]


async def test_knowledge_is_retrieved_before_reasoning() -> None:
    knowledge = InMemoryKnowledgeBase(
        ["The office opens at 9.", "Parking is free on Sundays.", "Unrelated text."]
    )
    model = ScriptedChatModel(["At 9."])
    agent = make_agent(model, knowledge=knowledge)

    await agent(user("When does the office open?"))

    [retrieved] = [t for t in _texts(model.calls[0]) if t.startswith("<knowledge>")]
    assert "The office opens at 9." in retrieved and "Parking" not in retrieved
    docs = await knowledge.retrieve("office parking", limit=1)
    assert len(docs) == 1 and docs[0].score == 0.5


async def test_memory_compression_summarises_old_messages() -> None:
    summary = SummarySchema(
        task_overview="Chat",
        current_state="Greeted",
        important_discoveries="-",
        next_steps="-",
        context_to_preserve="Ada",
    ).model_dump()
    model = ScriptedChatModel(default="ok")
    memory = make_agent(model).memory
    for index in range(6):
        await memory.add(Msg("Ada", f"message number {index} " * 20, "user"))
    config = ReActAgent.CompressionConfig(
        enable=True, agent_token_counter=CharTokenCounter(), trigger_threshold=50, keep_recent=2
    )
    assert isinstance(config, CompressionConfig)
    model.add_reply(ChatResponse(content=[], metadata=summary), "Hello again.")
    agent = make_agent(model, memory=memory, compression_config=config)

    reply = await agent(user("Hi"))

    assert reply.get_text_content() == "Hello again."
    assert model.calls[0].structured_model is SummarySchema
    compressed = await memory.get_memory(mark="compressed", prepend_summary=False)
    assert len(compressed) == 5  # 7 messages, the 2 newest kept
    answer_texts = _texts(model.calls[1])
    assert any("# Context to Preserve\nAda" in t for t in answer_texts)
    assert not any("message number 0" in t for t in answer_texts)


async def test_agent_skills_extend_the_system_prompt(tmp_path: Path) -> None:
    skill = tmp_path / "weather"
    skill.mkdir()
    (skill / "SKILL.md").write_text(
        "---\nname: weather\ndescription: Look up the weather.\n---\nDetails.", encoding="utf-8"
    )
    toolkit = Toolkit()
    toolkit.register_agent_skill(str(skill))
    model = ScriptedChatModel(["ok"])
    agent = make_agent(model, toolkit=toolkit)
    assert agent.sys_prompt.startswith("You are a helpful assistant.\n\n# Agent Skills")
    await agent(user("hi"))
    assert "Look up the weather." in model.calls[0].messages[0]["content"][0]["text"]


class FakeInputModule(StateModule):
    """Builds ``[system template, *memory]`` and records its calls."""

    def __init__(self) -> None:
        super().__init__()
        self.template = "TEMPLATE"
        self.register_state("template")
        self.calls: list[dict[str, Any]] = []
        self.dialogue: list[str | None] = []

    def add_to_short_term(self, item: Msg) -> None:
        self.dialogue.append(item.get_text_content())

    async def build_messages(
        self, user_input: Any = None, *, memory: MemoryBase | None = None, **variables: Any
    ) -> list[Msg]:
        self.calls.append({"memory": memory, **variables})
        assert memory is not None
        return [
            Msg("system", f"{self.template} for {variables['agent_name']}", "system"),
            *await memory.get_memory(),
        ]


async def test_input_module_builds_the_context() -> None:
    input_module = FakeInputModule()
    model = ScriptedChatModel(["ok"])
    agent = make_agent(model, input_module=input_module)

    await agent(user("hi"))

    [call] = input_module.calls
    assert call["memory"] is agent.memory
    assert call["sys_prompt"] == "You are a helpful assistant."
    assert model.calls[0].messages[0]["content"][0]["text"] == "TEMPLATE for Friday"
    assert agent.state_dict()["input_module"] == {"template": "TEMPLATE"}
    assert "input_module" not in make_agent(model).state_dict()
    assert input_module.dialogue == ["hi", "ok"]
