"""When a coroutine working through data that is already there lets the event loop run.

A streamed reply passes three such loops: the model reading buffered chunks, the agent
printing each state to its message queue, and the app applying queued messages to the
conversation. Awaits on data that is ready complete without suspending, so each of them
must ``await asyncio.sleep(0)`` now and then, or a GUI on the same loop freezes. Each used
to keep its own clock: three yields where one would do, and none of them bounding the
*combined* work between two turns of the loop. They share one clock instead: a turn taken
by any of them counts for all, and their work together runs at most ``PAUSE_INTERVAL``
between turns.
"""

from __future__ import annotations

import asyncio
import time

PAUSE_INTERVAL = 0.005
"""Seconds of stream work between two turns of the event loop (a GUI frame is ~16 ms)."""


class _LoopTurn:
    __slots__ = ("at",)

    def __init__(self) -> None:
        self.at = time.perf_counter()


LOOP_TURN = _LoopTurn()
"""When the stream path last gave the event loop a turn (``time.perf_counter()``)."""


def turn_due(interval: float | None = None) -> bool:
    """Whether ``interval`` (default ``PAUSE_INTERVAL``) passed since the loop's last turn."""
    limit = PAUSE_INTERVAL if interval is None else interval
    return time.perf_counter() - LOOP_TURN.at >= limit


async def give_turn() -> None:
    """Let the event loop run (other tasks, the GUI), then restart the shared clock."""
    await asyncio.sleep(0)
    LOOP_TURN.at = time.perf_counter()
