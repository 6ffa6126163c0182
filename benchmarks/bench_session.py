"""Benchmark: ``JSONSession`` save/load of a big ``InMemoryMemory`` against its floor.

Builds memories of 10,000 and 100,000 mixed messages (~300-character user and assistant
texts, assistant tool calls, tool results; one message in ten in Chinese), then times,
in a temporary folder, interleaved runs (the machine is shared: each figure is a median,
and a ratio compares runs made side by side) of:

- our save / load through ``JSONSession`` (``state_dict()``, orjson in a worker thread,
  atomic write: temporary file, fsync, rename, folder fsync; read, decode, checks,
  ``load_state_dict()``);
- the floor, the least any JSON session store must do for the same file: ``orjson.dumps``
  of the (already built) state dict + write + fsync + rename; read + ``orjson.loads``;
- as information, the same save / load done AgentScope-1.0 style: ``json.dumps(
  ensure_ascii=False)`` written with ``errors="surrogatepass"`` / ``json.loads`` + the
  same ``load_state_dict`` (AS), and with ``from_dict`` as 1.0 ships it (AS*);
- the longest event-loop stall while our save / load runs (a GUI would freeze that long),
  and the parts our save / load add to the floor, each timed alone.

SPEC §7 target (10,000 messages): save and load each within 1.25x of the floor.
Run: ``.venv/bin/python benchmarks/bench_session.py``.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
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
from desktop_agent.session._json_codec import decode_json, gc_paused

SIZES = ((10_000, 11), (100_000, 3))  # (messages, repeats)
TARGET_RATIO = 1.25  # ours / floor, 10,000 messages
_BEAT_S = 0.001

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

    The stall is measured by a 1 ms heartbeat (the loop sleeps between beats, as a GUI's
    does: a busy ``sleep(0)`` loop would hold the GIL and slow the worker thread down).
    The action's result is kept until the clock stops, so freeing a loaded memory is
    not counted as loading it.
    """
    stall = 0.0
    running = True

    async def ticker() -> None:
        nonlocal stall
        last = time.perf_counter()
        while running:
            await asyncio.sleep(_BEAT_S)
            now = time.perf_counter()
            stall = max(stall, now - last - _BEAT_S)
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


def _floor_save(path: Path, states: dict[str, Any]) -> None:
    """orjson encode + write + fsync + rename: what any atomic JSON save must do."""
    data = orjson.dumps(states)
    temp = path.with_name(path.name + ".tmp")
    with open(temp, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temp, path)


def _floor_load(path: Path) -> Any:
    """Read + orjson decode: what any JSON load must do."""
    return orjson.loads(path.read_bytes())


def _sync(function: Callable[[], Any]) -> Callable[[], Awaitable[Any]]:
    async def run() -> Any:
        return function()

    return run


async def _interleaved(
    repeats: int, actions: dict[str, Callable[[], Awaitable[Any]]]
) -> dict[str, tuple[float, float]]:
    """Each action ``repeats`` times, taking turns; (median ms, worst stall ms) of each."""
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in actions}
    for _ in range(repeats):
        for name, action in actions.items():
            gc.collect()  # no collection left over from the previous action
            runs[name].append(await _timed(action))
    return {
        name: (statistics.median(r[0] for r in done), max(r[1] for r in done))
        for name, done in runs.items()
    }


def _parts(memory: InMemoryMemory, path: Path, repeats: int) -> dict[str, float]:
    """What our save / load adds to the floor, each part timed alone (median ms)."""
    states = orjson.loads(path.read_bytes())

    def load_state() -> InMemoryMemory:
        loaded = InMemoryMemory()
        loaded.load_state_dict(states["memory"])
        return loaded

    data = path.read_bytes()
    parts = {
        "state_dict": lambda: memory.state_dict(),
        "load_state_dict": load_state,
        "decode_json": lambda: decode_json(data),
        "orjson.loads": lambda: orjson.loads(data),
    }
    figures = {}
    for name, part in parts.items():
        times = []
        for _ in range(repeats):
            with gc_paused():  # as JSONSession runs them
                start = time.perf_counter()
                result = part()
                times.append((time.perf_counter() - start) * 1000)
                del result
        figures[name] = statistics.median(times)
    return figures


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

    build_ms, _ = await _median(min(repeats, 3), build)
    session = JSONSession(save_dir=str(folder))
    await session.save_session_state("bench", memory=memory)
    assert await (await load()).size() == count
    states = {"memory": memory.state_dict()}
    floor_path = folder / "floor.json"
    ours = await _interleaved(
        repeats,
        {
            "floor_save": _sync(lambda: _floor_save(floor_path, states)),
            "save": lambda: session.save_session_state("bench", memory=memory),
            "floor_load": _sync(lambda: _floor_load(floor_path)),
            "load": load,
        },
    )
    baseline_path = folder / "baseline.json"
    shipped_repeats = max(1, repeats // 3)
    base_save_ms, _ = await _median(shipped_repeats, _baseline_save(baseline_path, memory))
    base_load_ms, _ = await _median(shipped_repeats, _baseline_load(baseline_path, False))
    shipped_load_ms, _ = await _median(shipped_repeats, _baseline_load(baseline_path, True))
    return {
        "messages": count,
        "mb": (folder / "bench.json").stat().st_size / 1e6,
        "build": build_ms,
        **{name: ms for name, (ms, _stall) in ours.items()},
        "save_stall": ours["save"][1],
        "load_stall": ours["load"][1],
        "base_save": base_save_ms,
        "base_load": base_load_ms,
        "shipped_load": shipped_load_ms,
        **_parts(memory, folder / "bench.json", repeats),
    }


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def report(rows: list[dict[str, float]]) -> None:
    """Print the table and the targets."""
    print("median ms of interleaved runs; floor = orjson encode + write + fsync + rename /")
    print("read + orjson decode; AS = AgentScope-1.0 style (stdlib json, same load_state_dict);")
    print("AS* = AS with from_dict as 1.0 ships it (two shortuuids per message);")
    print("stall = longest event-loop stall during our save / load")
    print(
        f"{'messages':>9} {'MB':>5} {'save':>6} {'floor':>6} {'x':>5} {'load':>6} {'floor':>6} "
        f"{'x':>5} {'AS save':>7} {'AS load':>7} {'AS* load':>8} {'stall s':>7} {'stall l':>7}"
    )
    for row in rows:
        print(
            f"{row['messages']:>9,.0f} {row['mb']:>5.1f} {row['save']:>6.1f} "
            f"{row['floor_save']:>6.1f} {row['save'] / row['floor_save']:>5.2f} "
            f"{row['load']:>6.1f} {row['floor_load']:>6.1f} "
            f"{row['load'] / row['floor_load']:>5.2f} {row['base_save']:>7.1f} "
            f"{row['base_load']:>7.1f} {row['shipped_load']:>8.1f} "
            f"{row['save_stall']:>7.1f} {row['load_stall']:>7.1f}"
        )
    print()
    print("parts our save / load add to the floor, each timed alone (median ms):")
    for row in rows:
        print(
            f"  {row['messages']:>7,.0f}: state_dict {row['state_dict']:.1f}, "
            f"load_state_dict {row['load_state_dict']:.1f}, decode_json {row['decode_json']:.1f}"
            f" (orjson.loads alone {row['orjson.loads']:.1f}), build (memory.add) "
            f"{row['build']:.0f}"
        )
    small = rows[0]
    print()
    print(f"target for {small['messages']:,.0f} messages (SPEC §7):")
    for kind in ("save", "load"):
        ratio = small[kind] / small[f"floor_{kind}"]
        print(
            f"  {kind} within {TARGET_RATIO}x of the floor: {small[kind]:.1f} / "
            f"{small[f'floor_{kind}']:.1f} ms = {ratio:.2f}x {_verdict(ratio <= TARGET_RATIO)}"
        )
    for kind, module_part in (("save", "state_dict"), ("load", "load_state_dict")):
        with_module = small[f"floor_{kind}"] + small[module_part]
        print(
            f"  (information) {kind} / (floor + {module_part}, which AgentScope's API "
            f"requires): {small[kind] / with_module:.2f}x"
        )
    for kind in ("save", "load"):
        ratio = small[f"base_{kind}"] / small[kind]
        print(f"  (information) {kind} vs AgentScope-1.0 style: {ratio:.1f}x faster")


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
