"""Benchmark: what the agent core costs on top of the ``openai`` SDK (SPEC §7).

Runs ``python -m desktop_agent.testing.server`` as a separate process (so the server does
not share our GIL) with zero delays, then measures:

1. **Turn overhead.** A ``ReActAgent`` (console off, msg queue by reference with a
   consumer task draining it, as the UI does) runs N turns; each turn is one tool call
   and a streamed 2,000-character answer (500 chunks). Every request the agent sends is
   recorded and replayed right after the turn with the raw SDK (``create(stream=True)``
   + iterating every chunk, messages/tools in ``extra_body`` as the model sends them)
   against identical scripted replies. Time in our code per turn
   = the agent's turn time minus the raw-SDK time of that turn's two requests. The
   history grows over the run, as in a real conversation, so both sides send ever larger
   requests.
2. **Streaming a 20,000-token reply.** Per-chunk cost is the interval between two chunks
   reaching the consumer; the ratio compares the mean of the last 10 % of intervals with
   the first 10 % (flat cost: about 1.0; target <= 1.5). The absorbed chunk rate is compared
   with the raw SDK's rate for the same reply (target >= 0.8x).

Usage: ``python benchmarks/bench_agent.py [--turns 200] [--tokens 20000]``
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncGenerator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_agent.agent import ReActAgent
from desktop_agent.formatter import OpenAIChatFormatter
from desktop_agent.message import Msg, TextBlock
from desktop_agent.model import OpenAIChatModel
from desktop_agent.tool import Toolkit, ToolResponse

WARMUP_TURNS = 5
STREAM_REPEATS = 3  # runs of each kind
ANSWER_CHARS = 2_000
CHARS_PER_CHUNK = 4


def get_weather(city: str) -> ToolResponse:
    """Get the weather of a city.

    Args:
        city: The city.
    """
    return ToolResponse(content=[TextBlock(type="text", text=f"Sunny in {city}, 21 degrees.")])


def _turn_replies(turn: int) -> list[dict[str, Any]]:
    """The tool call, then the answer."""
    answer = (f"Turn {turn}: the weather is fine. " * 100)[:ANSWER_CHARS]
    return [
        {
            "tool_calls": [
                {"name": "get_weather", "arguments": {"city": "Rome"}, "id": f"call_{turn}"}
            ],
            "chunk_size": CHARS_PER_CHUNK,
        },
        {"text": answer, "chunk_size": CHARS_PER_CHUNK},
    ]


def _long_reply(tokens: int) -> dict[str, Any]:
    words = ["alpha ", "beta ", "gamma ", "delta ", "**bold** ", "`code` ", "\n"]
    return {"text": [words[i % len(words)] for i in range(tokens)]}


def build_script(turns: int, tokens: int) -> list[dict[str, Any]]:
    """Every reply, in the order the benchmark sends its requests."""
    # The long replies first; then each turn's two replies twice: once for the agent, once
    # for the raw-SDK replay.
    all_turns = range(turns + WARMUP_TURNS)
    turn_replies = [reply for t in all_turns for reply in _turn_replies(t) * 2]
    return [*[_long_reply(tokens)] * (3 * STREAM_REPEATS + 1), *turn_replies]


@contextmanager
def server_process(script: list[dict[str, Any]]) -> Iterator[str]:
    """Run the test server in its own process; yields its base URL."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "script.json"
        path.write_text(json.dumps({"replies": script}), encoding="utf-8")
        command = [sys.executable, "-m", "desktop_agent.testing.server", "--script", str(path)]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        try:
            assert process.stdout is not None
            yield process.stdout.readline().strip()
        finally:
            process.terminate()
            process.wait(timeout=10)


class RecordingModel(OpenAIChatModel):
    """Remembers each request's arguments, to replay them with the raw SDK."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.requests: list[tuple[list[dict[str, Any]], Any, Any]] = []

    async def __call__(
        self, messages: Any, tools: Any = None, tool_choice: Any = None, **kwargs: Any
    ) -> Any:
        self.requests.append((messages, tools, tool_choice))
        return await super().__call__(messages, tools, tool_choice, **kwargs)


class Consumer:
    """Drains an agent's msg queue like the UI does, stamping each printed chunk."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.stamps: list[float] = []
        self.task = asyncio.create_task(self._run(), name="bench-consumer")

    async def _run(self) -> None:
        while True:
            await self.queue.get()
            self.stamps.append(time.perf_counter())


def make_agent(base_url: str, consumer: Consumer, tools: bool) -> ReActAgent:
    toolkit = Toolkit()
    if tools:
        toolkit.register_tool_function(get_weather)
    model = RecordingModel(
        "test-model", api_key="bench", client_kwargs={"base_url": base_url, "max_retries": 0}
    )
    agent = ReActAgent(
        "Friday", "You are a helpful assistant.", model, OpenAIChatFormatter(), toolkit=toolkit
    )
    agent.set_console_output_enabled(False)
    agent.set_msg_queue_enabled(True, consumer.queue, copy=False)
    return agent


@dataclass
class Run:
    """One measured stream: when each chunk arrived, and the CPU time our process used."""

    stamps: list[float]
    cpu: float
    started: float = 0.0
    """When the request was sent."""

    @property
    def chunks(self) -> int:
        """The number of chunks."""
        return len(self.stamps) - 1

    @property
    def rate(self) -> float:
        """Chunks per wall-clock second."""
        return self.chunks / (self.stamps[-1] - self.stamps[0])

    @property
    def cpu_per_chunk(self) -> float:
        """CPU microseconds per chunk (robust to other processes' load)."""
        return self.cpu / self.chunks * 1e6

    def interval_ratio(self) -> tuple[float, float, float]:
        """Mean chunk interval of the first and last 10 % (us) and their ratio."""
        intervals = [b - a for a, b in itertools.pairwise(self.stamps)]
        tenth = max(len(intervals) // 10, 1)
        first = statistics.fmean(intervals[:tenth])
        last = statistics.fmean(intervals[-tenth:])
        return first * 1e6, last * 1e6, last / first


Request = tuple[list[dict[str, Any]], Any, Any]


async def raw_request(client: Any, request: Request) -> Run:
    """Send one recorded request with the raw SDK, iterating every chunk."""
    messages, tools, tool_choice = request
    # Sent as OpenAIChatModel sends it: messages and tools in extra_body, so the SDK's
    # per-message request transform (which the model skips) is on neither side.
    extra_body: dict[str, Any] = {"messages": messages}
    kwargs: dict[str, Any] = {
        "model": "test-model",
        "messages": [],
        "stream": True,
        "stream_options": {"include_usage": True},
        "extra_body": extra_body,
    }
    if tools:
        kwargs["tools"] = []
        extra_body["tools"] = tools
    if tool_choice is not None:
        kwargs["tool_choice"] = tool_choice
    cpu, started = time.process_time(), time.perf_counter()
    stamps = []
    stream = await client.chat.completions.create(**kwargs)
    async for _ in stream:
        stamps.append(time.perf_counter())
    await stream.close()
    return Run(stamps, time.process_time() - cpu, started)


async def model_request(model: OpenAIChatModel, request: Request) -> Run:
    """The same request through ``OpenAIChatModel`` alone (no agent)."""
    cpu = time.process_time()
    stamps = []
    stream = await model(request[0])
    assert isinstance(stream, AsyncGenerator)
    async for _ in stream:
        stamps.append(time.perf_counter())
    return Run(stamps, time.process_time() - cpu)


async def agent_request(agent: ReActAgent, consumer: Consumer) -> Run:
    """One agent turn answering with the long reply, stamped by the consumer.

    The memory is cleared first, so every run sends the same request as the others.
    """
    await agent.memory.clear()
    consumer.stamps.clear()
    cpu = time.process_time()
    await agent(Msg("Ada", "Write a long essay.", "user"))
    await asyncio.sleep(0)  # let the consumer take the last items
    # The final print(last=True) repeats the last chunk.
    return Run(consumer.stamps[:-1], time.process_time() - cpu)


async def bench_turns(base_url: str, turns: int) -> tuple[list[float], list[float]]:
    """Per turn: (agent - raw SDK) wall time and CPU time, in ms."""
    consumer = Consumer()
    agent = make_agent(base_url, consumer, tools=True)
    model = agent.model
    assert isinstance(model, RecordingModel)
    wall, cpu = [], []
    for turn in range(turns + WARMUP_TURNS):
        # The agent's turn, then at once the same two requests with the raw SDK, so both
        # sides run under the same conditions (machine load, history size).
        started, started_cpu = time.perf_counter(), time.process_time()
        await agent(Msg("Ada", f"What is the weather in Rome? ({turn})", "user"))
        agent_wall = time.perf_counter() - started
        agent_cpu = time.process_time() - started_cpu
        raw_wall = raw_cpu = 0.0
        for request in model.requests[-2:]:
            run = await raw_request(model.client, request)
            raw_wall += run.stamps[-1] - run.started
            raw_cpu += run.cpu
        wall.append((agent_wall - raw_wall) * 1e3)
        cpu.append((agent_cpu - raw_cpu) * 1e3)
    consumer.task.cancel()
    await model.aclose()
    return wall[WARMUP_TURNS:], cpu[WARMUP_TURNS:]


async def bench_stream(base_url: str) -> dict[str, list[Run]]:
    """Raw SDK, model alone and agent on the same long reply, in rotating order."""
    consumer = Consumer()
    agent = make_agent(base_url, consumer, tools=False)
    model = agent.model
    assert isinstance(model, RecordingModel)
    runs: dict[str, list[Run]] = {"raw SDK": [], "model": [], "agent": []}
    await agent_request(agent, consumer)  # warm-up, and records the request
    request = model.requests[0]
    for repeat in range(STREAM_REPEATS):
        order = list(runs)[repeat % 3 :] + list(runs)[: repeat % 3]
        for kind in order:
            gc.collect()
            if kind == "raw SDK":
                runs[kind].append(await raw_request(model.client, request))
            elif kind == "model":
                runs[kind].append(await model_request(model, request))
            else:
                runs[kind].append(await agent_request(agent, consumer))
    consumer.task.cancel()
    await model.aclose()
    return runs


def report_turns(wall: list[float], cpu: list[float]) -> None:
    med = statistics.median
    tenth = max(len(wall) // 10, 1)
    print(
        f"Turns measured: {len(wall)} (after {WARMUP_TURNS} warm-up turns); each = 1 tool call "
        f"+ a {ANSWER_CHARS}-char answer in {ANSWER_CHARS // CHARS_PER_CHUNK} chunks"
    )
    print(
        "Method: our time = agent turn - raw SDK doing the same two requests (recorded, "
        "replayed right after each turn: create(stream=True) + full iteration); wall clock, "
        "and CPU time of this process (robust to other load on the machine)"
    )
    print(f"  our code per turn, median: {med(wall):6.1f} ms wall, {med(cpu):6.1f} ms CPU")
    print(
        f"  first 10 % of turns: {med(wall[:tenth]):6.1f} ms wall, {med(cpu[:tenth]):6.1f} ms CPU;"
        f" last 10 %: {med(wall[-tenth:]):6.1f} ms wall, {med(cpu[-tenth:]):6.1f} ms CPU "
        "(the history grows by 4 messages per turn)"
    )


def report_stream(runs: dict[str, list[Run]], tokens: int) -> None:
    med = statistics.median
    print(
        f"Streaming one {tokens}-token reply ({runs['agent'][0].chunks} chunks): "
        f"{STREAM_REPEATS} runs each of the raw SDK, OpenAIChatModel alone and the agent "
        "(msg queue by reference + consumer), rotating order; medians"
    )
    raw_rate = med(r.rate for r in runs["raw SDK"])
    raw_cpu = med(r.cpu_per_chunk for r in runs["raw SDK"])
    for kind, kind_runs in runs.items():
        intervals = [r.interval_ratio() for r in kind_runs]
        first, last, ratio = (med(i[k] for i in intervals) for k in range(3))
        rate, cpu = med(r.rate for r in kind_runs), med(r.cpu_per_chunk for r in kind_runs)
        print(
            f"  {kind:8}: {rate:6,.0f} chunks/s ({rate / raw_rate:.2f}x raw), "
            f"CPU {cpu:5.1f} us/chunk ({raw_cpu / cpu:.2f}x raw's rate); chunk interval "
            f"first 10 % {first:5.1f} us, last 10 % {last:5.1f} us, ratio {ratio:.2f}"
        )
    print("  targets: agent >= 0.8x raw SDK's chunk rate; last/first 10 % ratio <= 1.5")


async def run(base_url: str, turns: int, tokens: int) -> None:
    report_stream(await bench_stream(base_url), tokens)
    wall, cpu = await bench_turns(base_url, turns)
    report_turns(wall, cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--tokens", type=int, default=20_000)
    args = parser.parse_args()
    print("Server: python -m desktop_agent.testing.server (separate process), zero delays")
    with server_process(build_script(args.turns, args.tokens)) as base_url:
        asyncio.run(run(base_url, args.turns, args.tokens))


if __name__ == "__main__":
    main()
