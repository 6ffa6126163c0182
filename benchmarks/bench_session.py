"""Benchmark: ``JSONSession`` save/load of a big ``InMemoryMemory`` vs AgentScope-1.0 style.

Builds memories of 10,000 and 100,000 mixed messages (~300-character user and assistant
texts, assistant tool calls, tool results; one message in ten in Chinese), then times,
in a temporary folder, the median of several runs of:

- build: creating the messages and ``await memory.add(...)`` (deep copies);
- save / load through ``JSONSession`` (orjson, atomic write with fsync, worker thread);
- the same save / load done AgentScope-1.0 style: ``json.dumps(ensure_ascii=False)``
  written with ``errors="surrogatepass"`` / ``json.loads`` + the same ``load_state_dict``;
- the longest event-loop stall while our save / load runs (a GUI would freeze that long).

SPEC §7 targets (10k): save ≤ 40 ms, load ≤ 40 ms, each ≥ 5× faster than the baseline.
Run: ``.venv/bin/python benchmarks/bench_session.py``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import shortuuid

from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import (
    AudioBlock,
    ContentBlock,
    ImageBlock,
    Msg,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    VideoBlock,
)
from desktop_agent.session import JSONSession

SIZES = ((10_000, 5), (100_000, 3))  # (messages, repeats)
TARGET_MS = 40.0
TARGET_RATIO = 5.0

_TEXT = (
    "the agent reads a file and then calls the search tool to find what the user asked "
    "about session memory state model stream token window chat reply result error retry "
    "python json async thread loop widget render markdown code block table list"
)
_WORDS = _TEXT.split(" ")
_HANZI = "会话记忆状态模型流式回复工具调用结果错误重试界面渲染代码窗口用户助手搜索文件读取"


def _text(rng: random.Random, length: int, chinese: bool) -> str:
    if chinese:
        return "".join(rng.choice(_HANZI) for _ in range(length // 2))
    words: list[str] = []
    size = 0
    while size < length:
        word = rng.choice(_WORDS)
        words.append(word)
        size += len(word) + 1
    return " ".join(words)[:length].capitalize() + "."


def make_specs(count: int, seed: int = 7) -> list[tuple[Any, ...]]:
    """The random part of the messages, generated once so ``build`` times only our code.

    A realistic mix: user text, assistant tool call, tool result, assistant text.
    """
    rng = random.Random(seed)
    specs: list[tuple[Any, ...]] = []
    for index in range(count):
        chinese = index % 10 == 9
        kind = index % 4
        if kind == 1:
            specs.append((kind, _text(rng, 80, chinese), _text(rng, 40, chinese)))
        else:
            specs.append((kind, _text(rng, 300, chinese)))
    return specs


def build_messages(specs: list[tuple[Any, ...]]) -> list[Msg]:
    """The messages of ``specs``."""
    messages: list[Msg] = []
    for index, (kind, text, *rest) in enumerate(specs):
        call_id = f"call_{index // 4}"
        if kind == 0:
            messages.append(Msg("user", text, "user"))
        elif kind == 1:
            content: list[ContentBlock] = [
                TextBlock(type="text", text=text),
                ToolUseBlock(
                    type="tool_use", id=call_id, name="search", input={"query": rest[0], "limit": 5}
                ),
            ]
            messages.append(Msg("Friday", content, "assistant", invocation_id=f"resp_{index}"))
        elif kind == 2:
            output: list[TextBlock | ImageBlock | AudioBlock | VideoBlock] = [
                TextBlock(type="text", text=text)
            ]
            block = ToolResultBlock(type="tool_result", id=call_id, name="search", output=output)
            messages.append(Msg("system", [block], "system"))
        else:
            messages.append(Msg("Friday", text, "assistant"))
    return messages


async def _timed(action: Callable[[], Awaitable[Any]]) -> tuple[float, float]:
    """Run ``action``; return (wall ms, longest event-loop stall ms meanwhile).

    The action's result is kept until the clock stops, so freeing a loaded memory is
    not counted as loading it.
    """
    stall = 0.0
    running = True

    async def ticker() -> None:
        nonlocal stall
        last = time.perf_counter()
        while running:
            await asyncio.sleep(0)
            now = time.perf_counter()
            stall = max(stall, now - last)
            last = now

    task = asyncio.create_task(ticker(), name="stall-ticker")
    await asyncio.sleep(0)
    start = time.perf_counter()
    result = await action()
    wall = time.perf_counter() - start
    running = False
    await task
    del result
    return wall * 1000, stall * 1000


async def _median(repeats: int, action: Callable[[], Awaitable[Any]]) -> tuple[float, float]:
    runs = [await _timed(action) for _ in range(repeats)]
    return statistics.median(r[0] for r in runs), max(r[1] for r in runs)


def _baseline_save(path: Path, memory: InMemoryMemory) -> Callable[[], Awaitable[None]]:
    async def save() -> None:
        text = json.dumps({"memory": memory.state_dict()}, ensure_ascii=False)

        def write() -> None:
            with open(path, "w", encoding="utf-8", errors="surrogatepass") as file:
                file.write(text)

        await asyncio.to_thread(write)  # AgentScope 1.0.17+ writes through aiofiles

    return save


def _baseline_load(path: Path, shipped: bool) -> Callable[[], Awaitable[InMemoryMemory]]:
    async def load() -> InMemoryMemory:
        def read() -> str:
            with open(path, encoding="utf-8", errors="surrogatepass") as file:
                return file.read()

        states = json.loads(await asyncio.to_thread(read))
        memory = InMemoryMemory()
        if shipped:
            memory.content = [
                (_shipped_from_dict(d), list(m)) for d, m in states["memory"]["content"]
            ]
        else:
            memory.load_state_dict(states["memory"])
        return memory

    return load


def _shipped_from_dict(data: dict[str, Any]) -> Msg:
    """``Msg.from_dict`` as AgentScope 1.0 ships it: its constructor draws a shortuuid,
    and ``d.get("id", shortuuid.uuid())`` draws another that is thrown away."""
    msg = Msg(
        data["name"], data["content"], data["role"], data.get("metadata"), data.get("timestamp")
    )
    msg.id = shortuuid.uuid()
    msg.id = data.get("id", shortuuid.uuid())
    return msg


async def bench(count: int, repeats: int, folder: Path) -> dict[str, float]:
    """Figures for one memory size."""
    specs = make_specs(count)
    memory = InMemoryMemory()

    async def build() -> InMemoryMemory:
        nonlocal memory
        memory = InMemoryMemory()
        await memory.add(build_messages(specs))
        return memory

    async def load() -> InMemoryMemory:
        loaded = InMemoryMemory()
        await session.load_session_state("bench", memory=loaded)
        return loaded

    build_ms, _ = await _median(repeats, build)
    session = JSONSession(save_dir=str(folder))
    save_ms, save_stall = await _median(
        repeats, lambda: session.save_session_state("bench", memory=memory)
    )
    load_ms, load_stall = await _median(repeats, load)
    assert await (await load()).size() == count
    baseline_path = folder / "baseline.json"
    base_save_ms, _ = await _median(repeats, _baseline_save(baseline_path, memory))
    base_load_ms, _ = await _median(repeats, _baseline_load(baseline_path, shipped=False))
    shipped_load_ms, _ = await _median(repeats, _baseline_load(baseline_path, shipped=True))
    return {
        "messages": count,
        "mb": (folder / "bench.json").stat().st_size / 1e6,
        "build": build_ms,
        "save": save_ms,
        "load": load_ms,
        "save_stall": save_stall,
        "load_stall": load_stall,
        "base_save": base_save_ms,
        "base_load": base_load_ms,
        "shipped_load": shipped_load_ms,
    }


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def report(rows: list[dict[str, float]]) -> None:
    """Print the table and the targets."""
    print("median ms; AS = AgentScope-1.0 style (stdlib json, same load_state_dict);")
    print("AS* = AS with from_dict as 1.0 ships it (two shortuuids per message);")
    print("stall = longest event-loop stall during our save / load")
    print(
        f"{'messages':>9} {'MB':>5} {'build':>7} {'save':>6} {'load':>6} {'AS save':>7} "
        f"{'AS load':>7} {'AS* load':>8} {'save x':>6} {'load x':>6} {'load x*':>7} "
        f"{'stall s':>7} {'stall l':>7}"
    )
    for row in rows:
        print(
            f"{row['messages']:>9,.0f} {row['mb']:>5.1f} {row['build']:>7.1f} "
            f"{row['save']:>6.1f} {row['load']:>6.1f} {row['base_save']:>7.1f} "
            f"{row['base_load']:>7.1f} {row['shipped_load']:>8.1f} "
            f"{row['base_save'] / row['save']:>5.1f}x {row['base_load'] / row['load']:>5.1f}x "
            f"{row['shipped_load'] / row['load']:>6.1f}x "
            f"{row['save_stall']:>7.1f} {row['load_stall']:>7.1f}"
        )
    small = rows[0]
    print()
    print(f"targets for {small['messages']:,.0f} messages:")
    for kind in ("save", "load"):
        took = small[kind]
        ratio = small[f"base_{kind}"] / took
        print(f"  {kind} <= {TARGET_MS:.0f} ms: {took:.1f} ms {_verdict(took <= TARGET_MS)}")
        print(f"  {kind} >= {TARGET_RATIO:.0f}x AS: {ratio:.1f}x {_verdict(ratio >= TARGET_RATIO)}")


async def main() -> None:
    """Run every size and print the figures."""
    rows = []
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-session-") as folder:
        for count, repeats in SIZES:
            rows.append(await bench(count, repeats, Path(folder)))
    report(rows)
    print(
        f"\nmachine load average (1 min): {load_before:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after, on {os.cpu_count()} CPUs"
    )


if __name__ == "__main__":
    asyncio.run(main())
