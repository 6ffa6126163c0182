"""The loopback server and OpenAIChatModel on the qasync (Qt) event loop the app uses."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import qasync
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from desktop_agent.model import OpenAIChatModel
from desktop_agent.testing import OpenAICompatServer, ScriptedReply

USER = [{"role": "user", "content": "Hi"}]


async def test_streaming_and_waiting_on_a_qt_loop() -> None:
    assert isinstance(asyncio.get_running_loop(), qasync.QEventLoop)
    with OpenAICompatServer() as server:
        server.add_reply(ScriptedReply("Hello from Qt", chunk_size=3))
        model = OpenAIChatModel(
            "m", api_key="k", client_kwargs={"base_url": server.base_url, "max_retries": 0}
        )
        responses = [r async for r in await model(USER)]
        assert responses[-1].content == [{"type": "text", "text": "Hello from Qt"}]
        assert (await server.wait_for_request()).body["stream"] is True

        server.add_reply(ScriptedReply("z" * 100, chunk_size=1, chunk_delay=0.02))
        stream = await model(USER)
        await anext(stream)
        await stream.aclose()
        await server.wait_for_disconnect()
        await model.aclose()


async def test_qt_timers_keep_firing_during_a_buffered_flood() -> None:
    """The stream gives the loop a turn even when thousands of chunks are buffered."""
    ticks = 0

    def tick() -> None:
        nonlocal ticks
        ticks += 1

    timer = QTimer(interval=5)
    timer.timeout.connect(tick)
    with OpenAICompatServer() as server:
        server.add_reply(ScriptedReply("word " * 3000, chunk_size=2))
        model = OpenAIChatModel(
            "m", api_key="k", client_kwargs={"base_url": server.base_url, "max_retries": 0}
        )
        stream = await model(USER)
        await anext(stream)
        timer.start()
        count = 0
        async for _ in stream:
            count += 1
        timer.stop()
        await model.aclose()
    assert count > 5000
    assert ticks >= 5


def test_a_task_step_waits_while_pytest_qt_processes_events_between_phases(
    qasync_loop_factory: Callable[[], qasync.QEventLoop],
) -> None:
    """pytest-qt's processEvents() between test phases runs no task step (the harness's
    loops run callbacks only while running; a step there failed: 'no running event loop')."""
    loop = qasync_loop_factory()
    asyncio.set_event_loop(loop)
    try:
        ran: list[bool] = []

        async def needs_a_running_loop() -> None:
            await asyncio.to_thread(lambda: None)
            ran.append(True)

        task = loop.create_task(needs_a_running_loop())
        QApplication.processEvents()  # as pytest-qt does after a fixture's setup
        assert not task.done()
        loop.run_until_complete(task)  # the next phase: the loop runs again
        assert ran == [True]
    finally:
        asyncio.set_event_loop(None)
        loop.close()
