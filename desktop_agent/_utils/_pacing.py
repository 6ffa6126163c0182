"""When a coroutine working through data that is already there lets the event loop run.

A streamed reply passes three such loops: the model reading buffered chunks, the agent
printing each state to its message queue, and the app applying queued messages to the
conversation. Awaits on data that is ready complete without suspending, so each of them
must ``await asyncio.sleep(0)`` now and then, or a GUI on the same loop freezes. Each used
to keep its own clock: three yields where one would do, and none of them bounding the
*combined* work between two turns of the loop. They share one clock instead: a turn taken
by any of them counts for all, and their work together runs at most ``PAUSE_INTERVAL``
between turns.

The GUI's own work (rendering a frame, then painting it) must not follow a stream slice
without the loop turning in between: a slice, a render and a paint back to back were one
stall of all three. So the GUI *holds* the stream while a frame is due (:func:`hold_stream`:
every check is due, the stream takes a turn after each chunk) and releases it when the
frame runs; and a turn that took long — the GUI rendered or painted in it — is followed by
one more before the stream works again, so timers and input that came due meanwhile run
first.
"""

from __future__ import annotations

import asyncio
import time

PAUSE_INTERVAL = 0.005
"""Seconds of stream work between two turns of the event loop (a GUI frame is ~16 ms)."""
LONG_TURN = 0.003
"""A turn of the loop longer than this did GUI work: the stream takes another before working."""
EXTRA_TURNS = 2
"""At most this many extra turns after long ones (a busy machine makes every turn long)."""
HOLD_LIMIT = 0.05
"""Longest a hold lasts unreleased (a frame that never ran does not stall the stream)."""


class _LoopTurn:
    __slots__ = ("at", "held_until")

    def __init__(self) -> None:
        self.at = time.perf_counter()
        self.held_until = 0.0


LOOP_TURN = _LoopTurn()
"""When the stream path last gave the event loop a turn (``time.perf_counter()``), and until
when the GUI holds it."""


def turn_due(interval: float | None = None) -> bool:
    """Whether ``interval`` (default ``PAUSE_INTERVAL``) passed since the loop's last turn,
    or the GUI holds the stream (a frame is due)."""
    limit = PAUSE_INTERVAL if interval is None else interval
    now = time.perf_counter()
    return now - LOOP_TURN.at >= limit or now < LOOP_TURN.held_until


async def give_turn() -> None:
    """Let the event loop run (other tasks, the GUI), then restart the shared clock.

    After a long turn (the GUI rendered or painted in it) the loop turns again, up to
    ``EXTRA_TURNS`` times, so what came due meanwhile runs before the stream does.
    """
    for _ in range(EXTRA_TURNS + 1):
        asked = time.perf_counter()
        await asyncio.sleep(0)
        if time.perf_counter() - asked < LONG_TURN:
            break
    LOOP_TURN.at = time.perf_counter()


def hold_stream() -> None:
    """A GUI frame is due: stream work takes a turn at every check until it runs.

    Lasts until :func:`release_stream`, at most ``HOLD_LIMIT``.
    """
    LOOP_TURN.held_until = time.perf_counter() + HOLD_LIMIT


def release_stream() -> None:
    """The frame :func:`hold_stream` waited for runs now: the stream works at its pace."""
    LOOP_TURN.held_until = 0.0
