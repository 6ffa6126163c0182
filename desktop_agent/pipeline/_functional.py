"""Pipelines as functions: run agents one after another, or all on the same input."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Coroutine, Sequence
from copy import deepcopy
from typing import Any

from desktop_agent.agent import AgentBase
from desktop_agent.message import Msg


async def sequential_pipeline(
    agents: Sequence[AgentBase], msg: Msg | list[Msg] | None = None
) -> Msg | list[Msg] | None:
    """Feed each agent the previous one's reply; return the last reply.

    With no agents, ``msg`` itself is returned.
    """
    for agent in agents:
        msg = await agent(msg)
    return msg


async def fanout_pipeline(
    agents: Sequence[AgentBase],
    msg: Msg | list[Msg] | None = None,
    enable_gather: bool = True,
    **kwargs: Any,
) -> list[Msg]:
    """Give each agent its own deep copy of ``msg``; return their replies in order.

    Args:
        agents: The agents.
        msg: The input.
        enable_gather: Run the agents concurrently (else one after another).
        **kwargs: Passed to each agent call.
    """
    if not enable_gather:
        return [await agent(deepcopy(msg), **kwargs) for agent in agents]
    tasks = [
        asyncio.create_task(agent(deepcopy(msg), **kwargs), name=f"fanout[{index}]")
        for index, agent in enumerate(agents)
    ]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


async def stream_printing_messages(
    agents: list[AgentBase],
    coroutine_task: Coroutine[Any, Any, Any],
    queue: asyncio.Queue[Any] | None = None,
    end_signal: str = "[END]",
    yield_speech: bool = False,
) -> AsyncGenerator[tuple[Any, ...], None]:
    """Run ``coroutine_task`` and yield every message the agents print meanwhile.

    Each agent's msg queue is enabled (and stays enabled afterwards). Messages are the
    deep copies ``print`` makes, unless an agent's queue was set up with ``copy=False``
    beforehand with this same ``queue``.

    Yields:
        ``(msg, last)``, or ``(msg, last, speech)`` with ``yield_speech``.

    Raises:
        Exception: Whatever ``coroutine_task`` raised, after the messages printed before it.
    """
    queue = queue or asyncio.Queue()
    for agent in agents:
        agent.set_msg_queue_enabled(True, queue, copy=agent._msg_queue_copy)
    task = asyncio.create_task(coroutine_task, name="stream_printing_messages")
    task.add_done_callback(lambda _: queue.put_nowait(end_signal))
    try:
        while True:
            item = await queue.get()
            if isinstance(item, str) and item == end_signal:
                break
            msg, last, speech = item
            yield (msg, last, speech) if yield_speech else (msg, last)
    finally:
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    exc = task.exception()
    if exc is not None:
        raise exc from None
