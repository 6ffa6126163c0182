"""The prompt is built in a worker thread: a long history's context and formatting (CPU
work growing with the chat) do not hold the event loop, and Stop ends the turn at once
while it is being built."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import pytest
from pydantic import SecretStr

from desktop_agent.app import (
    ChatService,
    Conversation,
    Provider,
    Settings,
    TurnFinished,
    TurnInterrupted,
)
from desktop_agent.testing import OpenAICompatServer, ScriptedReply


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


def _service(server: OpenAICompatServer) -> ChatService:
    provider = Provider("Test", server.base_url, "test-model", SecretStr("k"), "environment")
    return ChatService(Conversation(), Settings(), provider)


class SlowHistory:
    """A ``chat_history`` variable that takes as long as the test wants (a long history)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.done = threading.Event()
        self.threads: list[threading.Thread] = []
        self.released_in_time = False

    def __call__(self) -> str:
        self.threads.append(threading.current_thread())
        self.entered.set()
        self.released_in_time = self.release.wait(timeout=10)  # False: nobody could
        self.done.set()
        return "the history"


async def _wait_for(event: threading.Event) -> None:
    deadline = time.monotonic() + 10
    while not event.is_set():
        assert time.monotonic() < deadline, "the prompt was never built"
        await asyncio.sleep(0.005)


async def test_the_loop_runs_while_the_prompt_is_built(server: OpenAICompatServer) -> None:
    service = _service(server)
    history = SlowHistory()
    service.input_module.register_variable("chat_history", history)
    server.add_reply(ScriptedReply("Done."))
    events: list[object] = []
    service.subscribe(events.append)
    turn = service.send("hello")
    try:
        await _wait_for(history.entered)
        ticks = 0
        for _ in range(5):  # the loop turns while the history is still being read
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 5 and not history.release.is_set()
        assert history.threads[0] is not threading.main_thread()
        history.release.set()
        await asyncio.wait_for(turn, 10)
        assert isinstance(events[-1], TurnFinished)
        assert "the history" in str(server.chat_requests[-1].messages)
    finally:
        history.release.set()
        await service.aclose()


async def test_stop_while_the_prompt_is_built_ends_the_turn_at_once(
    server: OpenAICompatServer,
) -> None:
    service = _service(server)
    history = SlowHistory()
    service.input_module.register_variable("chat_history", history)
    events: list[object] = []
    service.subscribe(events.append)
    service.send("hello")
    try:
        await _wait_for(history.entered)
        await service.stop()
        assert not history.release.is_set()  # stopped while the history was still read
        assert not service.busy and isinstance(events[-1], TurnInterrupted)
        history.release.set()
        await _wait_for(history.done)
        assert history.released_in_time  # Stop ran while the history was being read
        await asyncio.sleep(0.1)
        assert server.chat_requests == []  # and the prompt built after it was not sent
    finally:
        history.release.set()
        await service.aclose()
