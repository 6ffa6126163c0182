"""Calling tools: result kinds, errors, interruption, postprocessing, middlewares, tasks."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Generator
from typing import Any

import pytest
from tool_helpers import run_tool, text, texts, tool_call

from desktop_agent.message import TextBlock, ToolUseBlock
from desktop_agent.tool import ToolError, Toolkit, ToolResponse

INTERRUPTED = "<system-info>The tool call has been interrupted by the user.</system-info>"


def reply(value: str, **fields: Any) -> ToolResponse:
    return ToolResponse(content=[TextBlock(type="text", text=value)], **fields)


def cumulative(*parts: str, is_last: bool = False) -> ToolResponse:
    return ToolResponse(
        content=[TextBlock(type="text", text=p) for p in parts], stream=True, is_last=is_last
    )


def echo(word: str, times: int = 1) -> ToolResponse:
    """Echo.

    Args:
        word: The word.
        times: How often.
    """
    return reply(word * times)


async def async_echo(word: str) -> ToolResponse:
    """Echo, asynchronously."""
    return reply(word)


def sync_stream(n: int) -> Generator[ToolResponse, None, None]:
    """Count."""
    parts: list[str] = []
    for i in range(n):
        parts.append(str(i))
        yield cumulative(*parts, is_last=i == n - 1)


async def async_stream(n: int) -> AsyncGenerator[ToolResponse, None]:
    """Count, asynchronously."""
    for chunk in sync_stream(n):
        await asyncio.sleep(0)
        yield chunk


async def returns_stream(n: int) -> AsyncGenerator[ToolResponse, None]:
    """A coroutine returning an async generator."""
    return async_stream(n)


def toolkit_with(*funcs: Any) -> Toolkit:
    toolkit = Toolkit()
    for func in funcs:
        toolkit.register_tool_function(func)
    return toolkit


# -- lookup ------------------------------------------------------------------------------


async def test_unknown_function() -> None:
    (chunk,) = await run_tool(Toolkit(), "nope")
    assert text(chunk) == "FunctionNotFoundError: Cannot find the function named nope"


async def test_function_in_inactive_group() -> None:
    toolkit = Toolkit()
    toolkit.create_tool_group("web", "Browse.")
    toolkit.register_tool_function(echo, group_name="web")
    (chunk,) = await run_tool(toolkit, "echo", word="a")
    assert text(chunk) == (
        "FunctionInactiveError: The function 'echo' is in the inactive group 'web'. Activate "
        "the tool group by calling 'reset_equipped_tools' first to use this tool."
    )
    toolkit.update_tool_groups(["web"], True)
    (chunk,) = await run_tool(toolkit, "echo", word="a")
    assert text(chunk) == "a"


async def test_call_tool_function_must_be_awaited_for_the_generator() -> None:
    toolkit = toolkit_with(echo)
    stream = await toolkit.call_tool_function(tool_call("echo", word="x"))
    assert isinstance(stream, AsyncGenerator)
    assert [text(c) async for c in stream] == ["x"]


async def test_preset_kwargs_are_merged_under_the_input() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(echo, preset_kwargs={"times": 3})
    (chunk,) = await run_tool(toolkit, "echo", word="ab")
    assert text(chunk) == "ababab"
    (chunk,) = await run_tool(toolkit, "echo", word="ab", times=1)
    assert text(chunk) == "ab"


async def test_missing_input_is_tolerated() -> None:
    def ping() -> ToolResponse:
        """Ping."""
        return reply("pong")

    call = ToolUseBlock(type="tool_use", id="1", name="ping", input=None)  # type: ignore[typeddict-item]
    (chunk,) = [c async for c in await toolkit_with(ping).call_tool_function(call)]
    assert text(chunk) == "pong"


# -- result kinds ------------------------------------------------------------------------


async def test_sync_and_async_functions() -> None:
    toolkit = toolkit_with(echo, async_echo)
    assert [text(c) for c in await run_tool(toolkit, "echo", word="s")] == ["s"]
    assert [text(c) for c in await run_tool(toolkit, "async_echo", word="a")] == ["a"]


@pytest.mark.parametrize("func", [sync_stream, async_stream, returns_stream])
async def test_generators_yield_every_cumulative_chunk(func: Any) -> None:
    chunks = await run_tool(toolkit_with(func), func.__name__, n=3)
    assert [texts(c) for c in chunks] == [["0"], ["0", "1"], ["0", "1", "2"]]
    assert [c.is_last for c in chunks] == [False, False, True]


async def test_wrong_return_type_becomes_an_error_result() -> None:
    def wrong() -> str:
        """Wrong."""
        return "plain"

    (chunk,) = await run_tool(toolkit_with(wrong), "wrong")
    assert text(chunk) == (
        "Error: The tool function must return a ToolResponse object, or an "
        "AsyncGenerator/Generator of ToolResponse objects, but got <class 'str'>."
    )
    assert chunk.is_last


async def test_generator_yielding_a_wrong_type_ends_with_an_error() -> None:
    async def mixed() -> AsyncGenerator[Any, None]:
        """Mixed."""
        yield cumulative("ok")
        yield 42

    chunks = await run_tool(toolkit_with(mixed), "mixed")
    assert texts(chunks[-1])[0] == "ok"
    assert "but got <class 'int'>" in texts(chunks[-1])[1]
    assert chunks[-1].is_last


async def test_exception_while_calling() -> None:
    def broken(x: int) -> ToolResponse:
        """Broken."""
        raise RuntimeError(f"boom {x}")

    (chunk,) = await run_tool(toolkit_with(broken), "broken", x=1)
    assert text(chunk) == "Error: boom 1"
    (chunk,) = await run_tool(toolkit_with(broken), "broken", y=1)
    assert text(chunk).startswith("Error: ") and "'y'" in text(chunk)


async def test_tool_error_uses_its_label() -> None:
    async def refuse() -> ToolResponse:
        """Refuse."""
        raise ToolError("the file is missing.")

    (chunk,) = await run_tool(toolkit_with(refuse), "refuse")
    assert text(chunk) == "Error: the file is missing."


async def test_exception_while_iterating_is_appended_to_the_last_chunk() -> None:
    async def flaky() -> AsyncGenerator[ToolResponse, None]:
        """Flaky."""
        yield cumulative("partial")
        raise ValueError("disk full")

    chunks = await run_tool(toolkit_with(flaky), "flaky")
    assert len(chunks) == 2
    assert texts(chunks[-1]) == ["partial", "Error: disk full"]
    assert chunks[-1].is_last and not chunks[-1].is_interrupted


async def test_exception_before_the_first_chunk() -> None:
    def flaky() -> Generator[ToolResponse, None, None]:
        """Flaky."""
        raise ValueError("no luck")
        yield cumulative("never")

    (chunk,) = await run_tool(toolkit_with(flaky), "flaky")
    assert texts(chunk) == ["Error: no luck"]
    assert chunk.is_last


# -- interruption ------------------------------------------------------------------------


async def consume_and_cancel(
    toolkit: Toolkit, name: str, started: asyncio.Event
) -> list[ToolResponse]:
    """Consume a call in a task and cancel the task once ``started`` is set."""
    chunks: list[ToolResponse] = []

    async def consume() -> None:
        async for chunk in await toolkit.call_tool_function(tool_call(name)):
            chunks.append(chunk)

    task = asyncio.create_task(consume())
    await started.wait()
    task.cancel()
    await task  # the toolkit turned the cancellation into a final chunk
    return chunks


async def test_interrupting_an_awaited_coroutine() -> None:
    started = asyncio.Event()
    cleaned_up = []

    async def slow() -> ToolResponse:
        """Slow."""
        started.set()
        try:
            await asyncio.Event().wait()
        finally:
            cleaned_up.append(True)
        return reply("never")

    (chunk,) = await consume_and_cancel(toolkit_with(slow), "slow", started)
    assert texts(chunk) == [INTERRUPTED]
    assert (chunk.is_interrupted, chunk.is_last, chunk.stream) == (True, True, True)
    assert cleaned_up == [True]


async def test_interrupting_an_async_generator_mid_way() -> None:
    started = asyncio.Event()
    cleaned_up = []

    async def streaming() -> AsyncGenerator[ToolResponse, None]:
        """Streaming."""
        try:
            yield cumulative("first")
            started.set()
            await asyncio.Event().wait()
            yield cumulative("first", "never")
        finally:
            cleaned_up.append(True)

    chunks = await consume_and_cancel(toolkit_with(streaming), "streaming", started)
    assert len(chunks) == 2
    assert chunks[1] is chunks[0]  # the last chunk, completed and yielded again
    assert texts(chunks[1]) == ["first", INTERRUPTED]
    assert chunks[1].is_interrupted and chunks[1].is_last
    assert cleaned_up == [True]


async def test_interrupting_an_async_generator_before_its_first_chunk() -> None:
    started = asyncio.Event()

    async def waiting() -> AsyncGenerator[ToolResponse, None]:
        """Waiting."""
        started.set()
        await asyncio.Event().wait()
        yield cumulative("never")

    (chunk,) = await consume_and_cancel(toolkit_with(waiting), "waiting", started)
    assert texts(chunk) == [INTERRUPTED]
    assert chunk.is_interrupted and chunk.is_last


async def test_abandoned_stream_closes_the_tool() -> None:
    closed = []

    async def endless() -> AsyncGenerator[ToolResponse, None]:
        """Endless."""
        try:
            while True:
                yield cumulative("tick")
        finally:
            closed.append(True)

    stream = await toolkit_with(endless).call_tool_function(tool_call("endless"))
    await anext(stream)
    await stream.aclose()
    assert closed == [True]


# -- postprocessing ----------------------------------------------------------------------


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_postprocess_replaces_each_chunk(asynchronous: bool) -> None:
    seen: list[str] = []

    def upper(call: ToolUseBlock, chunk: ToolResponse) -> ToolResponse | None:
        seen.append(call["id"])
        if texts(chunk) == ["0"]:
            return None  # keep this one
        return cumulative(*(t.upper() + "!" for t in texts(chunk)), is_last=chunk.is_last)

    async def async_upper(call: ToolUseBlock, chunk: ToolResponse) -> ToolResponse | None:
        return upper(call, chunk)

    toolkit = Toolkit()
    toolkit.register_tool_function(
        sync_stream, postprocess_func=async_upper if asynchronous else upper
    )
    chunks = await run_tool(toolkit, "sync_stream", n=2)
    assert [texts(c) for c in chunks] == [["0"], ["0!", "1!"]]
    assert seen == ["call-1", "call-1"]


async def test_postprocess_applies_to_single_responses() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(echo, postprocess_func=lambda call, chunk: reply("changed"))
    (chunk,) = await run_tool(toolkit, "echo", word="a")
    assert text(chunk) == "changed"


# -- middlewares -------------------------------------------------------------------------


async def test_middlewares_form_an_onion_first_registered_outermost() -> None:
    events: list[str] = []

    def middleware(label: str) -> Any:
        async def wrap(
            kwargs: dict[str, Any], next_handler: Any
        ) -> AsyncGenerator[ToolResponse, None]:
            events.append(f"{label} before {kwargs['tool_call']['name']}")
            async for chunk in await next_handler(**kwargs):
                events.append(f"{label} sees {text(chunk)}")
                yield reply(f"{label}({text(chunk)})")
            events.append(f"{label} after")

        return wrap

    toolkit = toolkit_with(echo)
    toolkit.register_middleware(middleware("outer"))
    toolkit.register_middleware(middleware("inner"))
    (chunk,) = await run_tool(toolkit, "echo", word="x")
    assert text(chunk) == "outer(inner(x))"
    assert events == [
        "outer before echo",
        "inner before echo",
        "inner sees x",
        "outer sees inner(x)",
        "inner after",
        "outer after",
    ]


async def test_middleware_can_rewrite_the_call() -> None:
    async def shout(
        kwargs: dict[str, Any], next_handler: Any
    ) -> AsyncGenerator[ToolResponse, None]:
        call = dict(kwargs["tool_call"])
        call["input"] = {"word": call["input"]["word"].upper()}
        async for chunk in await next_handler(tool_call=call):
            yield chunk

    toolkit = toolkit_with(echo)
    toolkit.register_middleware(shout)
    (chunk,) = await run_tool(toolkit, "echo", word="hey")
    assert text(chunk) == "HEY"


# -- asynchronous execution --------------------------------------------------------------


def reminder(name: str, task_id: str) -> str:
    return (
        f"<system-reminder>Tool '{name}' is executing asynchronously. Task ID: {task_id}. "
        f"Use view_task('{task_id}') to check status, wait_task('{task_id}') to wait for "
        f"completion, or cancel_task('{task_id}') to cancel the task.</system-reminder>"
    )


async def start_async(toolkit: Toolkit, name: str, **arguments: Any) -> str:
    (chunk,) = await run_tool(toolkit, name, **arguments)
    task_id = next(iter(toolkit._async_tasks))
    assert text(chunk) == reminder(name, task_id)
    return task_id


async def test_async_execution_registers_the_task_tools() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(async_stream, async_execution=True)
    assert list(toolkit.tools) == ["async_stream", "view_task", "wait_task", "cancel_task"]
    assert toolkit.tools["async_stream"].async_execution
    params = toolkit.tools["wait_task"].json_schema["function"]["parameters"]
    assert params["properties"]["timeout"]["default"] == 10


async def test_async_execution_completes_and_accumulates() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(async_stream, async_execution=True)
    task_id = await start_async(toolkit, "async_stream", n=3)
    (chunk,) = await run_tool(toolkit, "wait_task", task_id=task_id)
    assert texts(chunk) == ["0", "1", "2"]
    # Once its result has been returned, the task is forgotten (as in AgentScope).
    assert task_id not in toolkit._async_tasks
    unknown = f"InvalidTaskIdError: Cannot find async task with ID {task_id}."
    for name in ("view_task", "wait_task", "cancel_task"):
        (chunk,) = await run_tool(toolkit, name, task_id=task_id)
        assert text(chunk) == unknown


async def test_a_finished_task_is_forgotten_after_view_task_returns_it() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(async_stream, async_execution=True)
    task_id = await start_async(toolkit, "async_stream", n=2)
    await asyncio.wait({toolkit._async_tasks[task_id]})
    # A cancel of a finished but unread task keeps it, result and all.
    (chunk,) = await run_tool(toolkit, "cancel_task", task_id=task_id)
    assert text(chunk) == f"Task {task_id} has already completed and cannot be cancelled."
    (chunk,) = await run_tool(toolkit, "view_task", task_id=task_id)
    assert texts(chunk) == ["0", "1"]
    (chunk,) = await run_tool(toolkit, "view_task", task_id=task_id)
    assert text(chunk) == f"InvalidTaskIdError: Cannot find async task with ID {task_id}."
    assert toolkit._async_tasks == {}


async def test_async_execution_running_and_cancelled() -> None:
    release = asyncio.Event()

    async def blocked() -> ToolResponse:
        """Blocked."""
        await release.wait()
        return reply("done")

    toolkit = Toolkit()
    toolkit.register_tool_function(blocked, async_execution=True)
    task_id = await start_async(toolkit, "blocked")
    (chunk,) = await run_tool(toolkit, "view_task", task_id=task_id)
    assert text(chunk) == f"Task {task_id} is still running."
    (chunk,) = await run_tool(toolkit, "wait_task", task_id=task_id, timeout=0.01)
    assert text(chunk) == f"Task {task_id} is still running after waiting for 0.01 seconds."
    task = toolkit._async_tasks[task_id]
    (chunk,) = await run_tool(toolkit, "cancel_task", task_id=task_id)
    assert text(chunk) == f"Task {task_id} has been cancelled."
    assert task.done()
    # Forgotten: a second cancel (or view) reports an invalid id, not "already completed".
    for name in ("cancel_task", "view_task"):
        (chunk,) = await run_tool(toolkit, name, task_id=task_id)
        assert text(chunk) == f"InvalidTaskIdError: Cannot find async task with ID {task_id}."


async def test_async_execution_unknown_task() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(echo, async_execution=True)
    for name in ("view_task", "wait_task", "cancel_task"):
        (chunk,) = await run_tool(toolkit, name, task_id="nope")
        assert text(chunk) == "InvalidTaskIdError: Cannot find async task with ID nope."


async def test_async_execution_keeps_errors_as_results() -> None:
    def broken() -> ToolResponse:
        """Broken."""
        raise RuntimeError("bad")

    toolkit = Toolkit()
    toolkit.register_tool_function(broken, async_execution=True)
    task_id = await start_async(toolkit, "broken")
    (chunk,) = await run_tool(toolkit, "wait_task", task_id=task_id)
    assert text(chunk) == "Error: bad"
