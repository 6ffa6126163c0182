"""AgentBase: printing, the msg queue, console streaming, subscribers and interruption."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from desktop_agent.agent import AgentBase
from desktop_agent.message import Msg, TextBlock, ThinkingBlock, ToolUseBlock


class WaitingAgent(AgentBase):
    """A reply that waits for ``release`` (set ``started`` first); records interrupts."""

    def __init__(self, name: str = "waiter") -> None:
        super().__init__()
        self.name = name
        self.set_console_output_enabled(False)
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.interrupt_args: list[Any] = []
        self.observed: list[Any] = []
        self.cleaned_up = False

    async def reply(self, msg: Msg | None = None) -> Msg:
        self.started.set()
        try:
            await self.release.wait()
        finally:
            self.cleaned_up = True
        return Msg(
            self.name,
            [ThinkingBlock(type="thinking", thinking="hmm"), TextBlock(type="text", text="done")],
            "assistant",
        )

    async def handle_interrupt(self, msg: Msg | None = None) -> Msg:
        self.interrupt_args.append(msg)
        return Msg(self.name, "interrupted", "assistant", metadata={"_is_interrupted": True})

    async def observe(self, msg: Msg | list[Msg] | None) -> None:
        self.observed.append(msg)


def _streamed(name: str = "bot") -> Msg:
    return Msg(name, [TextBlock(type="text", text="")], "assistant")


# ------------------------------------------------------------------ msg queue


async def test_msg_queue_gets_deep_copies_by_default() -> None:
    agent = WaitingAgent()
    agent.set_msg_queue_enabled(True)
    assert isinstance(agent.msg_queue, asyncio.Queue) and agent.msg_queue.maxsize == 100
    msg = _streamed()
    await agent.print(msg, last=False)
    queued, last, speech = agent.msg_queue.get_nowait()
    assert queued is not msg and queued.id == msg.id and (last, speech) == (False, None)


async def test_msg_queue_by_reference_puts_the_msg_itself() -> None:
    agent = WaitingAgent()
    queue: asyncio.Queue[Any] = asyncio.Queue()
    agent.set_msg_queue_enabled(True, queue, copy=False)
    msg = _streamed()
    for text in ("He", "Hello"):
        msg.content[0]["text"] = text
        await agent.print(msg, last=False)
    await agent.print(msg)
    items = [queue.get_nowait() for _ in range(3)]
    assert all(item[0] is msg for item in items)
    assert [item[1] for item in items] == [False, False, True]


async def test_print_by_reference_does_no_work_on_the_content() -> None:
    """With console output off and a by-reference queue, print never reads the content,
    so its cost cannot grow with the length of a streamed reply."""

    class UntouchableContent(list[Any]):
        def __iter__(self) -> Any:
            raise AssertionError("the content was read")

        def __deepcopy__(self, memo: dict[int, Any]) -> Any:
            raise AssertionError("the content was copied")

    agent = WaitingAgent()
    queue: asyncio.Queue[Any] = asyncio.Queue()
    agent.set_msg_queue_enabled(True, queue, copy=False)
    msg = Msg("bot", [], "assistant")
    msg.content = UntouchableContent([TextBlock(type="text", text="x" * 100_000)])
    for _ in range(3):
        await agent.print(msg, last=False)
    await agent.print(msg, last=True)
    assert queue.qsize() == 4


def test_set_msg_queue_enabled_keeps_or_replaces_the_queue() -> None:
    agent = WaitingAgent()
    agent.set_msg_queue_enabled(True)
    first = agent.msg_queue
    agent.set_msg_queue_enabled(True)
    assert agent.msg_queue is first
    mine: asyncio.Queue[Any] = asyncio.Queue()
    agent.set_msg_queue_enabled(True, mine)
    assert agent.msg_queue is mine
    agent.set_msg_queue_enabled(False)
    assert agent.msg_queue is None and agent._disable_msg_queue


# ------------------------------------------------------------------ console


async def test_console_streams_only_the_new_text(capsys: pytest.CaptureFixture[str]) -> None:
    agent = WaitingAgent("bot")
    agent.set_console_output_enabled(True)
    msg = Msg("bot", [ThinkingBlock(type="thinking", thinking="Let")], "assistant")
    await agent.print(msg, False)
    msg.content = [ThinkingBlock(type="thinking", thinking="Let me")]
    await agent.print(msg, False)
    msg.content = [
        ThinkingBlock(type="thinking", thinking="Let me"),
        TextBlock(type="text", text="Hi"),
    ]
    await agent.print(msg, False)
    msg.content[1]["text"] = "Hi there"
    await agent.print(msg, True)

    assert capsys.readouterr().out == "bot(thinking): Let me\nbot: Hi there\n"
    assert agent._stream_prefix == {}


async def test_console_dumps_tool_blocks_when_last(capsys: pytest.CaptureFixture[str]) -> None:
    agent = WaitingAgent("bot")
    agent.set_console_output_enabled(True)
    call = ToolUseBlock(type="tool_use", id="c1", name="add", input={"a": 1})
    msg = Msg("bot", [call], "assistant")
    await agent.print(msg, False)
    assert capsys.readouterr().out == ""
    await agent.print(msg, True)
    out = capsys.readouterr().out
    assert out.startswith('bot: {\n    "type": "tool_use",')
    assert '"input": {\n        "a": 1\n    }' in out

    msg = Msg("bot", [TextBlock(type="text", text="Calling"), call], "assistant")
    await agent.print(msg, True)
    assert capsys.readouterr().out.startswith('bot: Calling\n{\n    "type": "tool_use"')


@pytest.mark.parametrize(
    "variable", ["AGENTSCOPE_DISABLE_CONSOLE_OUTPUT", "DESKTOP_AGENT_DISABLE_CONSOLE_OUTPUT"]
)
async def test_console_output_env_variables(
    variable: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    await AgentBase().print(Msg("bot", "loud", "assistant"))
    assert capsys.readouterr().out == "bot: loud\n"
    monkeypatch.setenv(variable, "True")
    await AgentBase().print(Msg("bot", "quiet", "assistant"))
    assert capsys.readouterr().out == ""


def test_disable_console_output_is_deprecated() -> None:
    agent = WaitingAgent()
    agent.set_console_output_enabled(True)
    with pytest.deprecated_call():
        agent.disable_console_output()
    assert agent._disable_console_output


async def test_speech_with_a_bad_source_is_rejected() -> None:
    agent = WaitingAgent()
    agent.set_console_output_enabled(True)
    bad: Any = {"type": "audio", "source": {"type": "ftp", "url": "x"}}
    with pytest.raises(ValueError):
        await agent.print(Msg("bot", "x", "assistant"), True, speech=bad)
    good: Any = {
        "type": "audio",
        "source": {"type": "base64", "media_type": "audio/wav", "data": "AAAA"},
    }
    await agent.print(Msg("bot", "x", "assistant"), True, speech=[good])


# ------------------------------------------------------------------ subscribers


async def test_reply_is_broadcast_without_thinking() -> None:
    speaker, listener = WaitingAgent("speaker"), WaitingAgent("listener")
    speaker.reset_subscribers("hub", [speaker, listener])
    speaker.release.set()

    reply = await speaker(Msg("user", "go", "user"))

    [observed] = listener.observed
    assert observed.id == reply.id and observed is not reply
    assert observed.content == [{"type": "text", "text": "done"}]
    assert reply.content[0]["type"] == "thinking"
    assert speaker.observed == []


def test_remove_unknown_subscribers_logs_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    agent = WaitingAgent()
    agent.remove_subscribers("nope")
    assert "MsgHub named 'nope' not found" in caplog.text


# ------------------------------------------------------------------ interruption


async def test_interrupt_ends_the_turn_with_handle_interrupt() -> None:
    agent = WaitingAgent()
    listener = WaitingAgent("listener")
    agent.reset_subscribers("hub", [listener])
    question = Msg("user", "q", "user")
    turn = asyncio.create_task(agent(question))
    await agent.started.wait()

    await agent.interrupt()
    reply = await turn

    assert reply.content == "interrupted"
    assert agent.interrupt_args == [question]
    assert agent.cleaned_up
    assert listener.observed[0].content == "interrupted"
    assert agent._reply_task is None
    assert turn.cancelling() == 0


async def test_interrupt_leaves_the_callers_task_usable() -> None:
    agent = WaitingAgent()

    async def caller() -> str:
        reply = await agent(Msg("user", "q", "user"))
        await asyncio.sleep(0)  # would raise if a cancellation were still pending
        current = asyncio.current_task()
        assert current is not None and current.cancelling() == 0
        return str(reply.content)

    turn = asyncio.create_task(caller())
    await agent.started.wait()
    await agent.interrupt()
    assert await turn == "interrupted"


async def test_outer_timeout_propagates_instead_of_handle_interrupt() -> None:
    agent = WaitingAgent()
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(agent(Msg("user", "q", "user")), timeout=0.05)
    assert agent.interrupt_args == []
    assert agent.cleaned_up


async def test_cancelling_the_callers_task_propagates() -> None:
    agent = WaitingAgent()
    turn = asyncio.create_task(agent(Msg("user", "q", "user")))
    await agent.started.wait()
    turn.cancel()
    with pytest.raises(asyncio.CancelledError):
        await turn
    assert agent.interrupt_args == [] and agent.cleaned_up


async def test_interrupt_and_outer_cancel_together_propagate() -> None:
    agent = WaitingAgent()
    turn = asyncio.create_task(agent(Msg("user", "q", "user")))
    await agent.started.wait()
    await agent.interrupt()
    turn.cancel()
    with pytest.raises(asyncio.CancelledError):
        await turn
    assert agent.interrupt_args == []


async def test_interrupt_without_a_running_turn_does_nothing() -> None:
    agent = WaitingAgent()
    await agent.interrupt()
    agent.release.set()
    reply = await agent(Msg("user", "q", "user"))
    await agent.interrupt()
    assert reply.get_text_content() == "done"


async def test_base_methods_are_not_implemented() -> None:
    agent = AgentBase()
    with pytest.raises(NotImplementedError):
        await agent.reply()
    with pytest.raises(NotImplementedError):
        await agent.observe(None)
    with pytest.raises(NotImplementedError):
        await agent.handle_interrupt()
    assert len(agent.id) == 22
