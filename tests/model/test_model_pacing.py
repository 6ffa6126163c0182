"""The stream consumer gives the event loop a turn even when chunks are buffered."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator
from typing import Any

from openai.types.chat import ChatCompletionChunk

from desktop_agent.model import _openai_stream
from desktop_agent.model._openai_stream import Pacer, StreamAccumulator


def _chunk(text: str) -> ChatCompletionChunk:
    return ChatCompletionChunk.model_validate(
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "m",
            "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}],
        }
    )


class BufferedStream:
    """Like the SDK stream when all data is already buffered: never suspends."""

    def __init__(self, count: int) -> None:
        self.chunks = [_chunk("x")] * count
        self.closed = False

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Any]:
        for chunk in self.chunks:
            yield chunk

    async def close(self) -> None:
        self.closed = True


def _accumulator() -> StreamAccumulator:
    return StreamAccumulator(
        started=time.monotonic(), stream_tool_parsing=True, audio_media_type="audio/mp3"
    )


def test_pacer_is_due_once_per_interval() -> None:
    ticks = itertools.count(0.0, 0.003)
    pacer = Pacer(interval=0.008, clock=lambda: next(ticks))
    assert [pacer.due() for _ in range(8)] == [False, False, True, False, False, True, False, False]


async def test_other_tasks_run_while_buffered_chunks_are_consumed(make_model, monkeypatch) -> None:
    monkeypatch.setattr(_openai_stream, "PAUSE_INTERVAL", 0.0)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0)
            ticks += 1

    stream = BufferedStream(50)
    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    before = ticks
    responses = [r async for r in make_model().stream_responses(stream, _accumulator())]
    task.cancel()
    assert len(responses) == 50
    assert ticks - before >= 40
    assert stream.closed


async def test_the_stream_is_closed_when_the_consumer_stops_early(make_model) -> None:
    stream = BufferedStream(10)
    responses = make_model().stream_responses(stream, _accumulator())
    first = await anext(responses)
    assert first.content == [{"type": "text", "text": "x"}]
    await responses.aclose()
    assert stream.closed


async def test_per_chunk_cost_stays_flat(make_model) -> None:
    """Accumulating 10,000 chunks: the last tenth costs about what the first did."""
    stream = BufferedStream(10_000)
    stamps: list[float] = []
    async for _ in make_model().stream_responses(stream, _accumulator()):
        stamps.append(time.perf_counter())
    tenth = len(stamps) // 10
    first = stamps[tenth] - stamps[0]
    last = stamps[-1] - stamps[-tenth - 1]
    assert last / first < 3.0
