"""The stream path's shared loop clock: GUI frames get turns of their own."""

from __future__ import annotations

import asyncio
import time

import pytest

from desktop_agent._utils import _pacing
from desktop_agent._utils._pacing import give_turn, hold_stream, release_stream, turn_due


@pytest.fixture(autouse=True)
def _fresh_clock() -> None:
    release_stream()
    _pacing.LOOP_TURN.at = time.perf_counter()


_LONG = 60.0
"""A pacing interval no test reaches: only a hold makes a turn due."""


def test_a_held_stream_takes_a_turn_at_every_check() -> None:
    assert not turn_due(_LONG)
    hold_stream()
    assert turn_due(_LONG)
    release_stream()
    assert not turn_due(_LONG)


def test_a_hold_never_released_lapses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_pacing, "HOLD_LIMIT", 0.0)
    hold_stream()
    assert not turn_due(_LONG)


async def test_after_a_long_turn_what_came_due_runs_before_the_stream() -> None:
    loop = asyncio.get_running_loop()
    order: list[str] = []

    def gui_frame() -> None:  # a render in the loop's turn; a paint comes due meanwhile
        time.sleep(_pacing.LONG_TURN * 2)
        loop.call_soon(order.append, "paint")

    loop.call_soon(gui_frame)
    await give_turn()
    order.append("stream")
    assert order == ["paint", "stream"]


async def test_after_a_short_turn_the_stream_works_at_once() -> None:
    loop = asyncio.get_running_loop()
    order: list[str] = []
    loop.call_soon(lambda: loop.call_soon(order.append, "next turn"))
    await give_turn()
    order.append("stream")
    assert order == ["stream"]
