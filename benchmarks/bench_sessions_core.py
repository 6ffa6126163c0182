"""Benchmark: the Qt-free session library with 500 saved sessions (≥ 200 MB).

Generates, once, into a temporary data root: 500 sessions saved through
``SessionLibrary.save`` (5 of 10,000 messages, the rest 5-2,000 messages of varied
length, a few with tool calls), then measures:

- ``list()`` from the index: in a new process (cold interpreter; the page cache is warm,
  the files having just been written; files are generated without fsync to save time)
  and in-process;
- rebuilding the index from scratch (index deleted), in a new process and in-process;
- in a fresh process: loading a 10,000-message session into an agent's ``InMemoryMemory``
  (wall time and the longest event-loop stall, measured by a heartbeat task sleeping
  1 ms), then autosaving it as it grows: the loop stall during each save (SPEC §7: GUI
  stall ≤ 16 ms), split into the ``state_dict()`` call (on the loop by design) and the
  rest, next to a naive save (one orjson call in a thread) and the idle noise floor;
- content search over all 500 sessions (no match: every text scanned; a rare match; a
  common word with ``limit=20``) and the loop stall meanwhile.

Stalls depend on what else runs on the machine: the load average is printed. Run:
``.venv/bin/python benchmarks/bench_sessions_core.py`` (about 40 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import orjson

from desktop_agent.agent import ReActAgent
from desktop_agent.app.library import SessionLibrary, _index, _scan, _storage
from desktop_agent.formatter import OpenAIChatFormatter
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg
from desktop_agent.module import StateModule
from desktop_agent.session._atomic_write import atomic_write_bytes
from desktop_agent.testing import ScriptedChatModel

SESSIONS = 500
BIG_SESSIONS = 5
BIG_MESSAGES = 10_000
TARGET_BYTES = 200 * 1024 * 1024
GUI_STALL_MS = 16.0
ROOT = Path(__file__).resolve().parents[1]

T = TypeVar("T")

_WORDS = [
    "agent",
    "model",
    "stream",
    "token",
    "session",
    "memory",
    "window",
    "sidebar",
    "python",
    "function",
    "return",
    "value",
    "search",
    "index",
    "file",
    "folder",
    "error",
    "retry",
    "image",
    "audio",
    "thinking",
    "tool",
    "result",
    "markdown",
    "code",
    "the",
    "a",
    "of",
    "to",
    "and",
    "in",
    "is",
    "it",
    "that",
    "for",
    "on",
    "with",
    "as",
    "was",
    "be",
    "at",
    "by",
    "this",
    "from",
    "or",
    "an",
    "are",
    "Paris",
    "Lisbon",
    "Tokyo",
    "river",
    "mountain",
    "coffee",
    "recipe",
    "garden",
    "budget",
    "invoice",
    "schedule",
]


class FrozenState(StateModule):
    """A module whose state is a prebuilt dict (to generate files quickly)."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__()
        self._state = state

    def state_dict(self) -> dict[str, Any]:
        return self._state


def corpus(rng: random.Random, size: int = 4_000_000) -> str:
    words = rng.choices(_WORDS, k=size // 6)
    return " ".join(words)


def message(rng: random.Random, text: str, number: int, role: str) -> list[Any]:
    start = rng.randrange(0, len(text) - 3000)
    length = int(rng.lognormvariate(6.2, 0.6))  # median ~500 characters
    body = text[start : start + min(length, 2900)]
    if role == "assistant" and number % 7 == 3:
        content: Any = [
            {"type": "text", "text": body[:200]},
            {
                "type": "tool_use",
                "id": f"call_{number}",
                "name": "search",
                "input": {"q": body[:40]},
            },
        ]
    elif role == "system":
        content = [
            {
                "type": "tool_result",
                "id": f"call_{number}",
                "name": "search",
                "output": [{"type": "text", "text": body}],
            }
        ]
    elif role == "assistant":
        content = [{"type": "text", "text": body}]
    else:
        content = body
    msg = {
        "id": f"m{number:08d}",
        "name": role,
        "role": role,
        "content": content,
        "metadata": {},
        "timestamp": "2025-09-01 12:00:00.000",
    }
    return [msg, []]


def agent_state(messages: list[list[Any]]) -> dict[str, Any]:
    return {
        "memory": {"_compressed_summary": "", "content": messages},
        "toolkit": {"active_groups": []},
        "name": "Friday",
        "_sys_prompt": "You are Friday.",
    }


def session_sizes(rng: random.Random) -> list[int]:
    sizes = [BIG_MESSAGES] * BIG_SESSIONS
    sizes += [
        max(5, min(2000, int(rng.lognormvariate(6.3, 0.8)))) for _ in range(SESSIONS - BIG_SESSIONS)
    ]
    rng.shuffle(sizes)
    return sizes


def _write_without_fsync(
    path: str | os.PathLike[str], data: bytes | Iterable[bytes | memoryview], *, mode: int = 0o600
) -> None:
    temp = f"{os.fspath(path)}.gen.tmp"
    with open(temp, "wb") as file:
        if isinstance(data, bytes):
            file.write(data)
        else:
            file.writelines(data)  # the library writes its encoded pieces one by one
    os.replace(temp, path)


@contextlib.contextmanager
def fast_writes() -> Iterator[None]:
    """Generation only: the same writes without fsync (the measurements use the real ones)."""
    modules = (_storage, _index, _scan)
    saved = [getattr(module, "atomic_write_bytes") for module in modules]  # noqa: B009
    for module in modules:
        setattr(module, "atomic_write_bytes", _write_without_fsync)  # noqa: B010
    try:
        yield
    finally:
        for module, original in zip(modules, saved, strict=True):
            setattr(module, "atomic_write_bytes", original)  # noqa: B010
        os.sync()


async def generate(root: Path) -> tuple[list[str], str]:
    with fast_writes():
        return await _generate(root)


async def _generate(root: Path) -> tuple[list[str], str]:
    rng = random.Random(7)
    text = corpus(rng)
    library = SessionLibrary(root)
    ids, big_id, number, total = [], "", 0, 0
    sizes = session_sizes(rng)
    for index, count in enumerate(sizes):
        roles = ("user", "assistant", "assistant", "system")
        messages = [
            message(rng, text, number + i, roles[i % 4] if i % 4 else "user") for i in range(count)
        ]
        number += count
        messages[0][0]["content"] = f"Question {index}: " + messages[0][0]["content"][:80]
        if index % 100 == 50:
            messages[-1][0]["content"] = f"a rare word: zanzibarite{index}"
        session_id = await library.create(model="gpt-4o-mini")
        await library.save(session_id, agent=FrozenState(agent_state(messages)))
        await library.close(session_id)
        ids.append(session_id)
        if count == BIG_MESSAGES and not big_id:
            big_id = session_id
        total += (library.sessions_dir / f"{session_id}.json").stat().st_size
    assert total >= TARGET_BYTES, f"only {total / 2**20:.0f} MB generated"
    return ids, big_id


def folder_bytes(folder: Path, pattern: str) -> tuple[int, int]:
    files = list(folder.glob(pattern))
    return len(files), sum(f.stat().st_size for f in files)


class Heartbeat:
    """Measures how long the event loop goes without running a 1 ms sleeper."""

    def __init__(self) -> None:
        self.gaps: list[tuple[float, float]] = []  # (start, end) of each late wake-up
        self._task: asyncio.Task[None] | None = None

    async def _beat(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            self.gaps.append((last, now))
            last = now

    async def __aenter__(self) -> Heartbeat:
        self._task = asyncio.create_task(self._beat(), name="heartbeat")
        await asyncio.sleep(0.005)
        self.gaps.clear()
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    @property
    def worst(self) -> float:
        """The longest stall, in ms."""
        return max(((end - start - 0.001) * 1000 for start, end in self.gaps), default=0.0)

    def worst_outside(self, spans: list[tuple[float, float]]) -> float:
        """The longest stall (ms) not overlapping any of ``spans``."""
        return max(
            (
                (end - start - 0.001) * 1000
                for start, end in self.gaps
                if not any(start < b and a < end for a, b in spans)
            ),
            default=0.0,
        )


class Timed:
    """Records when a module's ``state_dict``/``load_state_dict`` ran (on the loop)."""

    def __init__(self, module: StateModule) -> None:
        self.spans: list[tuple[float, float]] = []
        for name in ("state_dict", "load_state_dict"):
            object.__setattr__(module, name, self._wrap(getattr(module, name)))

    def _wrap(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self.spans.append((start, time.perf_counter()))

        return timed

    def last_ms(self) -> float:
        start, end = self.spans[-1]
        return (end - start) * 1000


async def measured(run: Callable[[], Awaitable[T]]) -> tuple[T, float, float]:
    """Run ``run`` with a heartbeat: result, wall ms, worst stall ms."""
    result, wall, beat = await beating(run)
    return result, wall, beat.worst


async def beating(run: Callable[[], Awaitable[T]]) -> tuple[T, float, Heartbeat]:
    """Run ``run`` with a heartbeat: result, wall ms and the heartbeat."""
    async with Heartbeat() as beat:
        start = time.perf_counter()
        result = await run()
        wall = (time.perf_counter() - start) * 1000
        await asyncio.sleep(0.003)
    return result, wall, beat


def in_new_process(root: Path, drop_index: bool) -> dict[str, float]:
    code = f"""
import asyncio, json, time
t0 = time.perf_counter()
from desktop_agent.app.library import SessionLibrary
t1 = time.perf_counter()
rows = asyncio.run(SessionLibrary({str(root)!r}).list())
t2 = time.perf_counter()
print(json.dumps({{"import_ms": (t1 - t0) * 1000, "list_ms": (t2 - t1) * 1000, "rows": len(rows)}}))
"""
    if drop_index:
        (root / "sessions" / "index.json").unlink()
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    figures: dict[str, float] = json.loads(out.stdout)
    return figures


async def bench_listing(root: Path) -> None:
    cold = in_new_process(root, drop_index=False)
    print(
        f"list() cold process, from the index: {cold['list_ms']:.0f} ms for {cold['rows']:.0f}"
        f" sessions (importing desktop_agent.app.library: {cold['import_ms']:.0f} ms)"
    )
    library = SessionLibrary(root)
    times = []
    for _ in range(5):
        _, wall, _ = await measured(library.list)
        times.append(wall)
    _, wall, stall = await measured(library.list)
    print(
        f"list() in-process, warm: median {statistics.median(times):.1f} ms, "
        f"loop stall {stall:.1f} ms"
    )
    rebuilt = in_new_process(root, drop_index=True)
    print(f"index rebuilt from scratch, cold process: {rebuilt['list_ms']:.0f} ms")
    (root / "sessions" / "index.json").unlink()
    _, wall, stall = await measured(library.list)
    print(f"index rebuilt from scratch, in-process: {wall:.0f} ms, loop stall {stall:.1f} ms")
    index = root / "sessions" / "index.json"
    print(f"index size: {index.stat().st_size / 1024:.0f} KB")


async def bench_open_and_save(root: Path, big_id: str) -> None:
    """Open and autosave the big session, in this (fresh) process."""
    idle = [(await measured(lambda: asyncio.sleep(0.2)))[2] for _ in range(5)]
    print(
        f"noise floor: loop stall while idle (nothing running), max {max(idle):.0f} ms,"
        f" median {statistics.median(idle):.0f} ms"
    )
    library = SessionLibrary(root)
    memory = InMemoryMemory()
    agent = ReActAgent("Friday", "", ScriptedChatModel(), OpenAIChatFormatter(), memory=memory)
    timed = Timed(agent)
    _, wall, beat = await beating(lambda: library.load(big_id, agent=agent))
    stall, stall_rest = beat.worst, beat.worst_outside(timed.spans)
    print(
        f"open a {len(memory.content):,}-message session into an InMemoryMemory (an agent's):"
        f" {wall:.0f} ms, loop stall {stall:.0f} ms, of which load_state_dict() on the loop"
        f" {timed.last_ms():.0f} ms; longest stall besides it {stall_rest:.0f} ms"
        " (SPEC: open ≤ 300 ms incl. first paint, stall ≤ 100 ms)"
    )
    stalls, rest, dicts, walls = [], [], [], []
    for number in range(12):
        await memory.add(Msg("assistant", f"streamed reply {number} " * 20, "assistant"))
        timed.spans.clear()
        _, wall, beat = await beating(lambda: library.save(big_id, agent=agent))
        dicts.append(timed.last_ms())
        walls.append(wall)
        stalls.append(beat.worst)
        rest.append(beat.worst_outside(timed.spans))
    verdict = "OK" if max(stalls) <= GUI_STALL_MS else "OVER"
    print(
        f"autosave of the {len(memory.content):,}-message session ({len(stalls)} saves): wall"
        f" median {statistics.median(walls):.0f} ms; loop stall {spread(stalls)}"
        f" vs SPEC ≤ {GUI_STALL_MS:.0f} ms: {verdict}"
    )
    print(
        f"  of which agent.state_dict() on the loop (unavoidable): {spread(dicts)};"
        f" longest stall besides it: {spread(rest)}"
    )
    state = agent.state_dict()
    target = root / "naive.json"

    def naive() -> None:
        atomic_write_bytes(target, orjson.dumps(state))

    naive_stalls = []
    for _ in range(12):
        _, _, stall = await measured(lambda: asyncio.to_thread(naive))
        naive_stalls.append(stall)
    print(
        "  for comparison, one orjson.dumps of the same state + atomic write in a thread:"
        f" loop stall {spread(naive_stalls)}"
    )
    await library.close_all()


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered):.0f} ms, p90 {p90:.0f} ms, max {ordered[-1]:.0f} ms"


def open_and_save_in_new_process(root: Path, big_id: str) -> None:
    out = subprocess.run(
        [sys.executable, __file__, "--open", str(root), big_id],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    print(out.stdout, end="")


async def bench_search(root: Path) -> None:
    library = SessionLibrary(root)
    await library.list()
    for label, query, limit in (
        ("no match (every text scanned)", "qwertyuiop", None),
        ("a rare word (5 sessions)", "zanzibarite", None),
        ("a common word, limit=20", "coffee", 20),
        ("a title", "question 42:", None),
    ):
        walls, stalls, hits = [], [], 0
        for _ in range(3):
            found, wall, stall = await measured(partial(library.search, query, limit=limit))
            walls.append(wall)
            stalls.append(stall)
            hits = len(found)
        print(
            f"search {label}: median {statistics.median(walls):.0f} ms, {hits} hits, "
            f"loop stall max {max(stalls):.1f} ms"
        )


async def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-sessions-"))
    try:
        start = time.perf_counter()
        ids, big_id = await generate(folder)
        _, size = folder_bytes(folder / "sessions", "*.json")
        _, text_size = folder_bytes(folder / "sessions", "*.search.txt")
        print(
            f"generated {len(ids)} sessions: {size / 2**20:.0f} MB of session files "
            f"(+ {text_size / 2**20:.0f} MB of search text) in "
            f"{time.perf_counter() - start:.0f} s"
        )
        print(f"load average before measuring: {os.getloadavg()[0]:.1f} (2 cores)")
        await bench_listing(folder)
        open_and_save_in_new_process(folder, big_id)
        await bench_search(folder)
        print(f"load average after: {os.getloadavg()[0]:.1f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--open"]:
        asyncio.run(bench_open_and_save(Path(sys.argv[2]), sys.argv[3]))
    else:
        asyncio.run(main())
