"""ReActAgent over a scripted model: replies, tools, iterations, structured output."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agent_helpers import make_agent, tool_pairs_are_complete, tool_use, user
from pydantic import BaseModel, Field

from desktop_agent.agent import ReActAgent
from desktop_agent.message import Msg, TextBlock, ThinkingBlock
from desktop_agent.testing import ScriptedChatModel
from desktop_agent.tool import Toolkit, ToolResponse


def add(a: int, b: int) -> ToolResponse:
    """Add two integers.

    Args:
        a: The first integer.
        b: The second integer.
    """
    return ToolResponse(content=[TextBlock(type="text", text=str(a + b))])


def toolkit_with(*funcs: Any) -> Toolkit:
    toolkit = Toolkit()
    for func in funcs:
        toolkit.register_tool_function(func)
    return toolkit


class Person(BaseModel):
    name: str = Field(description="The person's name.")
    age: int = Field(description="The age in years.", ge=0)


async def test_plain_text_reply_has_empty_metadata() -> None:
    model = ScriptedChatModel(["Hello Ada!"])
    agent = make_agent(model)

    reply = await agent(user("Hi"))

    assert reply.get_text_content() == "Hello Ada!"
    assert reply.metadata == {}
    assert reply.name == "Friday" and reply.role == "assistant"
    memory = await agent.memory.get_memory()
    assert [m.role for m in memory] == ["user", "assistant"]
    assert memory[1].id == reply.id and memory[1].metadata == {}
    [call] = model.calls
    assert call.messages[0]["role"] == "system"
    assert call.messages[0]["content"][0]["text"] == "You are a helpful assistant."
    assert call.messages[1]["content"][0]["text"] == "Hi"
    assert call.tool_choice is None


async def test_streamed_reply_is_printed_cumulatively_by_reference() -> None:
    model = ScriptedChatModel(
        [[ThinkingBlock(type="thinking", thinking="Greet."), TextBlock(type="text", text="Hi!")]],
        stream=True,
        chunk_size=2,
    )
    agent = make_agent(model)
    queue: asyncio.Queue[Any] = asyncio.Queue()
    agent.set_msg_queue_enabled(True, queue, copy=False)

    reply = await agent(user("Hi"))

    printed = [queue.get_nowait() for _ in range(queue.qsize())]
    assert all(item[0] is reply for item in printed)
    assert [item[1] for item in printed] == [False] * (len(printed) - 1) + [True]
    assert reply.get_text_content() == "Hi!"
    assert reply.invocation_id is not None


async def test_tool_call_then_answer() -> None:
    model = ScriptedChatModel([[tool_use("c1", "add", a=2, b=3)], "The sum is 5."])
    agent = make_agent(model, toolkit=toolkit_with(add))

    reply = await agent(user("2+3?"))

    assert reply.get_text_content() == "The sum is 5."
    memory = await agent.memory.get_memory()
    assert [m.role for m in memory] == ["user", "assistant", "system", "assistant"]
    [result] = memory[2].get_content_blocks("tool_result")
    assert result["id"] == "c1" and result["output"] == [{"type": "text", "text": "5"}]
    assert model.calls[0].tools is not None
    assert [t["function"]["name"] for t in model.calls[0].tools] == ["add"]
    tool_message = next(m for m in model.calls[1].messages if m["role"] == "tool")
    assert tool_message["tool_call_id"] == "c1" and tool_message["content"] == "5"


async def test_parallel_tool_calls_run_concurrently_and_fire_acting_hooks() -> None:
    first_running, second_running = asyncio.Event(), asyncio.Event()

    async def first() -> ToolResponse:
        """Wait for the second tool."""
        first_running.set()
        await second_running.wait()
        return ToolResponse(content=[TextBlock(type="text", text="first done")])

    async def second() -> ToolResponse:
        """Wait for the first tool."""
        second_running.set()
        await first_running.wait()
        return ToolResponse(content=[TextBlock(type="text", text="second done")])

    model = ScriptedChatModel([[tool_use("a", "first"), tool_use("b", "second")], "Both done."])
    agent = make_agent(model, toolkit=toolkit_with(first, second), parallel_tool_calls=True)
    acted: list[str] = []
    agent.register_instance_hook(
        "pre_acting", "log", lambda self, kw: acted.append(kw["tool_call"]["id"])
    )

    reply = await asyncio.wait_for(agent(user("go")), timeout=5)

    assert reply.get_text_content() == "Both done."
    assert sorted(acted) == ["a", "b"]
    assert await tool_pairs_are_complete(agent)


async def test_sequential_tool_calls_run_in_order() -> None:
    order: list[str] = []

    def record(label: str) -> ToolResponse:
        """Record a label.

        Args:
            label: What to record.
        """
        order.append(label)
        return ToolResponse(content=[TextBlock(type="text", text=label)])

    model = ScriptedChatModel(
        [[tool_use("1", "record", label="x"), tool_use("2", "record", label="y")], "ok"]
    )
    agent = make_agent(model, toolkit=toolkit_with(record))
    await agent(user("go"))
    assert order == ["x", "y"]


async def test_max_iters_ends_with_a_summary() -> None:
    model = ScriptedChatModel(
        [[tool_use("1", "add", a=1, b=1)], [tool_use("2", "add", a=2, b=2)], "Summary."]
    )
    agent = make_agent(model, toolkit=toolkit_with(add), max_iters=2)

    reply = await agent(user("loop"))

    assert reply.get_text_content() == "Summary."
    assert reply.metadata == {}
    summary_call = model.calls[2]
    assert summary_call.tools is None and summary_call.tool_choice is None
    assert summary_call.messages[-1]["content"][0]["text"] == (
        "You have failed to generate response within the maximum iterations. Now respond "
        "directly by summarizing the current situation."
    )
    memory = await agent.memory.get_memory()
    assert memory[-1].id == reply.id


async def test_structured_output_with_text_in_the_same_message() -> None:
    model = ScriptedChatModel(
        [
            [
                TextBlock(type="text", text="Here it is."),
                tool_use("s", "generate_response", name="Ada", age=36),
            ]
        ]
    )
    agent = make_agent(model)

    reply = await agent(user("Who?"), structured_model=Person)

    assert reply.metadata == {"name": "Ada", "age": 36}
    assert reply.content == [{"type": "text", "text": "Here it is."}]
    memory = await agent.memory.get_memory()
    assert reply.id not in {m.id for m in memory}  # a new message, not stored
    call = model.calls[0]
    assert call.tool_choice == "required"
    assert call.tools is not None
    [schema] = [t for t in call.tools if t["function"]["name"] == "generate_response"]
    assert schema["function"]["description"] == (
        "Generate required structured output by this function and return it"
    )
    assert set(schema["function"]["parameters"]["properties"]) == {"name", "age"}


async def test_structured_output_then_a_text_response() -> None:
    model = ScriptedChatModel([[tool_use("s", "generate_response", name="Ada", age=36)], "Done."])
    agent = make_agent(model)

    reply = await agent(user("Who?"), structured_model=Person)

    assert reply.get_text_content() == "Done."
    assert reply.metadata == {"name": "Ada", "age": 36}
    assert model.calls[1].tool_choice == "none"
    hint = "<system-hint>Now generate a text response based on your current situation</system-hint>"
    assert model.calls[1].messages[-1]["content"][0]["text"] == hint
    texts = [m.get_text_content() for m in await agent.memory.get_memory()]
    assert hint not in texts  # hints are deleted once formatted


async def test_structured_output_required_hint_and_validation_error() -> None:
    model = ScriptedChatModel(
        [
            "I think Ada is 36.",
            [tool_use("bad", "generate_response", name="Ada", age=-1)],
            [
                TextBlock(type="text", text="Fixed."),
                tool_use("ok", "generate_response", name="Ada", age=36),
            ],
        ]
    )
    agent = make_agent(model)

    reply = await agent(user("Who?"), structured_model=Person)

    assert reply.metadata == {"name": "Ada", "age": 36}
    assert model.calls[1].tool_choice == "required"
    assert model.calls[1].messages[-1]["content"][0]["text"] == (
        "<system-hint>Structured output is required, go on to finish your task or call "
        "'generate_response' to generate the required structured output.</system-hint>"
    )
    tool_message = next(m for m in model.calls[2].messages if m["role"] == "tool")
    assert tool_message["content"].startswith("Arguments Validation Error:")


async def test_generate_response_is_removed_for_a_plain_reply() -> None:
    model = ScriptedChatModel([[tool_use("s", "generate_response", name="A", age=1)], "ok", "hi"])
    agent = make_agent(model)
    await agent(user("x"), structured_model=Person)
    assert "generate_response" in agent.toolkit.tools
    await agent(user("y"))
    assert "generate_response" not in agent.toolkit.tools
    assert model.calls[-1].tools in (None, [])


def test_generate_response_without_a_required_model_logs_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    agent = make_agent(ScriptedChatModel())
    response = agent.generate_response(x=1)
    assert response.metadata == {"success": True, "structured_output": None}
    assert response.content == [{"type": "text", "text": "Successfully generated response."}]
    assert caplog.records


async def test_tool_errors_become_results_the_model_reads() -> None:
    def broken() -> ToolResponse:
        """Always fails."""
        raise RuntimeError("disk on fire")

    def wrong_type() -> str:
        """Returns a string instead of a ToolResponse."""
        return "oops"

    model = ScriptedChatModel(
        [[tool_use("1", "broken"), tool_use("2", "wrong_type"), tool_use("3", "nope")], "Sorry."]
    )
    agent = make_agent(model, toolkit=toolkit_with(broken, wrong_type))

    reply = await agent(user("go"))

    assert reply.get_text_content() == "Sorry."
    tool_messages = {
        m["tool_call_id"]: m["content"] for m in model.calls[1].messages if m["role"] == "tool"
    }
    assert "disk on fire" in tool_messages["1"]
    assert "ToolResponse" in tool_messages["2"]
    assert "FunctionNotFoundError" in tool_messages["3"]


async def test_model_error_propagates_and_memory_stays_consistent() -> None:
    model = ScriptedChatModel([RuntimeError("model down")])
    agent = make_agent(model)
    with pytest.raises(RuntimeError, match="model down"):
        await agent(user("Hi"))
    assert [m.role for m in await agent.memory.get_memory()] == ["user"]


async def test_reasoning_and_acting_hooks() -> None:
    model = ScriptedChatModel([[tool_use("1", "add", a=1, b=2)], "3"])
    agent = make_agent(model, toolkit=toolkit_with(add))
    events: list[Any] = []
    ReActAgent.register_class_hook(
        "pre_reasoning", "r", lambda self, kw: events.append(("reasoning", kw))
    )
    ReActAgent.register_class_hook(
        "post_acting", "a", lambda self, kw, out: events.append(("acted", kw["tool_call"]["id"]))
    )

    await agent(user("1+2"))

    assert events == [
        ("reasoning", {"tool_choice": None}),
        ("acted", "1"),
        ("reasoning", {"tool_choice": None}),
    ]


async def test_observe_adds_to_memory_and_handle_interrupt_reply() -> None:
    agent = make_agent(ScriptedChatModel())
    await agent.observe(Msg("Bob", "hello", "assistant"))
    reply = await agent.handle_interrupt()
    assert reply.content == "I noticed that you have interrupted me. What can I do for you?"
    assert reply.metadata == {"_is_interrupted": True}
    assert reply.role == "assistant" and reply.name == "Friday"
    assert [m.get_text_content() for m in await agent.memory.get_memory()] == [
        "hello",
        reply.content,
    ]


async def test_interrupt_while_streaming_keeps_the_partial_message() -> None:
    model = ScriptedChatModel(
        [[TextBlock(type="text", text="abcdefghij"), tool_use("t1", "add", a=1, b=2)]],
        stream=True,
        chunk_size=1,
        chunk_delay=60,
    )
    agent = make_agent(model, toolkit=toolkit_with(add))
    queue: asyncio.Queue[Any] = asyncio.Queue()
    agent.set_msg_queue_enabled(True, queue, copy=False)
    turn = asyncio.create_task(agent(user("go")))
    await queue.get()  # the first chunk was printed

    await agent.interrupt()
    reply = await turn

    assert reply.metadata == {"_is_interrupted": True}
    memory = await agent.memory.get_memory()
    assert memory[1].get_text_content() == "a"
    assert memory[-1].id == reply.id


def test_constructor_validation_and_state() -> None:
    with pytest.raises(AssertionError):
        make_agent(ScriptedChatModel(), long_term_memory_mode="sometimes")
    with pytest.raises(NotImplementedError):
        make_agent(ScriptedChatModel(), tts_model=object())
    agent = make_agent(ScriptedChatModel())
    state = agent.state_dict()
    assert list(state) == ["memory", "toolkit", "name", "_sys_prompt"]
    assert state["name"] == "Friday" and state["_sys_prompt"] == "You are a helpful assistant."
    assert agent.sys_prompt == "You are a helpful assistant."
    assert ReActAgent.finish_function_name == "generate_response"


async def test_state_round_trip() -> None:
    agent = make_agent(ScriptedChatModel(["Hi"]))
    await agent(user("Hello"))
    other = make_agent(ScriptedChatModel())
    other.load_state_dict(agent.state_dict())
    assert [m.get_text_content() for m in await other.memory.get_memory()] == ["Hello", "Hi"]


@pytest.mark.parametrize("parallel", [False, True], ids=["sequential", "parallel"])
async def test_interrupt_during_tools_answers_every_tool_call(parallel: bool) -> None:
    started = asyncio.Event()

    async def block() -> ToolResponse:
        """Wait forever."""
        started.set()
        await asyncio.Event().wait()
        return ToolResponse(content=[])

    model = ScriptedChatModel([[tool_use("1", "block"), tool_use("2", "add", a=1, b=2)]])
    agent = make_agent(model, toolkit=toolkit_with(block, add), parallel_tool_calls=parallel)
    turn = asyncio.create_task(agent(user("go")))
    await started.wait()

    await agent.interrupt()
    reply = await turn

    assert reply.metadata == {"_is_interrupted": True}
    assert await tool_pairs_are_complete(agent)
    results = {
        block["id"]: block["output"]
        for m in await agent.memory.get_memory()
        for block in m.get_content_blocks("tool_result")
    }
    assert "interrupted by the user" in str(results["1"])
    if not parallel:
        assert results["2"] == "The tool call has been interrupted by the user."
    assert len(model.calls) == 1
