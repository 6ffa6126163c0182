"""Benchmark: autosave while a reply streams, journal (new) vs whole-file rewrite (old).

For chats of 10,000 and 100,000 mixed messages (``bench_session``'s generator) in an
``AgentState`` (``SessionMemory``), opened in a ``SessionLibrary`` in a temporary folder:

- the event-loop stall per autosave while replies stream: a 1 ms heartbeat coroutine's
  lateness, the worst stall that begins inside each save's span (a beat due before the
  save began counts from its start only); p50 / p99 / max over all saves. The chat's
  objects are frozen out of the cyclic collector first, as the app does after a load.
  Twenty replies stream (a chunk every 10 ms, the autosave interval 0.1 s: ~200 saves per
  size, so that p99 is not simply the worst save), each then added to memory with the
  next user message. "new": the journal (``SessionLibrary.append``); "old": every save a
  whole-file rewrite, a checkpoint (the autosaver with ``journal_limit=0``; five replies;
  the checkpoint itself makes the messages' saved form in its worker since issue 19);
- the steps a save runs on the loop, timed: wall time and the loop thread's CPU time (a
  wall time far above the CPU time is the thread waiting: descheduled, or for the GIL);
- the same streaming with no autosave at all, in windows as long as a journal save: the
  machine's own floor;
- bytes written per save of one new message (journal bytes vs the file's size);
- the stall of the idle checkpoint (a whole-file rewrite, when nothing streams), each of
  ``CHECKPOINTS`` checkpoints after one new message;
- kill -9 x 20: ``tests/app/library/journal_child.py`` autosaves a growing chat and is
  killed at random moments; every session must open, an unbroken run of messages, with
  every message added more than 1 s before the kill.

Target (issue 19): stall p99 <= 4 ms at 10k and 100k; bytes per message independent of
the chat's length; kill -9 x 20 -> every session opens, nothing older than 1 s lost.
Run: ``.venv/bin/python benchmarks/bench_autosave.py`` (about two and a half minutes).
"""

from __future__ import annotations

import asyncio
import bisect
import gc
import itertools
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_session import build_messages, make_specs

from desktop_agent.app import AgentState
from desktop_agent.app._session_memory import SessionMemory
from desktop_agent.app.library import Autosaver, SessionLibrary
from desktop_agent.app.library import _library as _library_module
from desktop_agent.message import Msg

ROOT = Path(__file__).resolve().parents[1]
CHILD = ROOT / "tests" / "app" / "library" / "journal_child.py"
SIZES = (10_000, 100_000)
REPLIES = 20  # journal runs: ~10 saves per reply
OLD_REPLIES = 5  # whole-file rewrites (seconds each at 100k)
CHECKPOINTS = 5
REPLY_SECONDS = 1.0
CHUNK_S = 0.01
INTERVAL_S = 0.1
TICK_S = 0.001
SLACK_S = 0.002  # a beat waking this long after a save still counts for it
STALL_TARGET_MS = 4.0
KILLS = 20
LOSS_BOUND_S = 1.0


class Heartbeat:
    """A coroutine that wakes every millisecond and records how late it woke."""

    def __init__(self) -> None:
        self.beats: list[tuple[float, float]] = []  # (woke at, lateness in ms)
        self._times: list[float] | None = None  # the beats' times, for bisect
        self._latest = 0.0  # the longest lateness (s)
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            expected = time.perf_counter() + TICK_S
            await asyncio.sleep(TICK_S)
            now = time.perf_counter()
            self.beats.append((now, max(now - expected, 0.0) * 1000))

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    def worst_in(self, start: float, end: float) -> float:
        """The longest stall of the loop that begins inside ``[start, end]`` (ms): a beat
        due inside the span (or just after it, ``SLACK_S``) counts whole, however late it
        woke; one due before the span counts from the span's start."""
        if self._times is None or len(self._times) != len(self.beats):
            self._times = [at for at, _late in self.beats]
            self._latest = max((late for _at, late in self.beats), default=0.0) / 1000
        first = bisect.bisect_right(self._times, start)
        last = bisect.bisect_right(self._times, end + SLACK_S + self._latest)
        worst = 0.0
        for at, late in self.beats[first:last]:
            due = at - late / 1000
            if due <= end + SLACK_S:
                worst = max(worst, (at - max(due, start)) * 1000)
        return worst


async def chat_of(root: Path, count: int) -> tuple[SessionLibrary, str, AgentState]:
    """A library holding one checkpointed chat of ``count`` messages, open."""
    library = SessionLibrary(root)
    session_id = await library.create()
    state = AgentState()
    memory = cast(SessionMemory, state.memory)
    for msg in build_messages(make_specs(count)):
        memory.content.append((msg, []))
    await library.save(session_id, agent=state)
    return library, session_id, state


async def stream_saves(state: AgentState, autosaver: Autosaver, replies: int) -> None:
    """Stream ``replies`` replies into the chat with ``autosaver`` saving them."""
    for turn in range(replies):
        reply = Msg("assistant", "", "assistant")
        deadline = time.perf_counter() + REPLY_SECONDS
        while time.perf_counter() < deadline:
            reply.content = f"{reply.content}streamed words {turn} "
            autosaver.changed(unfinished_reply=reply)
            await asyncio.sleep(CHUNK_S)
        # allow_duplicates: the duplicate check builds a set of every id (~10 ms at 100k),
        # a cost of adding a message, not of saving it, kept out of the save figures.
        await state.memory.add(reply, allow_duplicates=True)
        await state.memory.add(Msg("user", f"And then? ({turn})", "user"), allow_duplicates=True)
        autosaver.message_finished()
    await autosaver.flush()


def record_spans(
    library: SessionLibrary, spans: list[tuple[float, float, str]], work: list[list[float]]
) -> None:
    """Wrap the library's save and append to note each one's time span, and the loop work
    timed inside it (``work[-1]`` accumulates its wall and CPU time, see
    :func:`time_loop_work`)."""
    for name in ("save", "append"):
        original = getattr(library, name)

        async def timed(*args: Any, _original: Any = original, _name: str = name, **kw: Any) -> Any:
            start = time.perf_counter()
            work.append([0.0, 0.0])
            try:
                return await _original(*args, **kw)
            finally:
                spans.append((start, time.perf_counter(), _name))

        setattr(library, name, timed)


def time_loop_work(state: AgentState, journal: bool, work: list[list[float]]) -> Any:
    """Time the steps a save runs on the loop (adding wall and thread CPU milliseconds to
    ``work[-1]``); undo with the returned function. The journal: taking the changes, the
    states without the memory's content, encoding the record and its search text. The
    rewrite: ``state_dict()`` (the memory's content left out: it is made in the worker)
    and the snapshot of the memory's entries."""
    if journal:
        targets: list[tuple[Any, str]] = [
            (_library_module, "journal_delta"),
            (_library_module, "prepared_on_loop"),
            (_library_module, "journal_text"),
            (state.memory, "take_changes"),
        ]
    else:
        targets = [(state, "state_dict"), (state.memory, "content_snapshot")]
    originals = [(owner, name, getattr(owner, name)) for owner, name in targets]
    for owner, name, original in originals:

        def timed(*args: Any, _original: Any = original, **kw: Any) -> Any:
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                return _original(*args, **kw)
            finally:
                if work:
                    work[-1][0] += (time.perf_counter() - start) * 1000
                    work[-1][1] += (time.thread_time() - cpu) * 1000

        setattr(owner, name, timed)

    def undo() -> None:
        for owner, name, original in originals:
            if owner is _library_module:
                setattr(owner, name, original)
            else:
                delattr(owner, name) if name in vars(owner) else None

    return undo


async def stall_run(count: int, journal: bool) -> dict[str, Any]:
    """Stalls per autosave while replies stream into a chat of ``count`` messages."""
    with tempfile.TemporaryDirectory(prefix="bench-autosave-") as folder:
        library, session_id, state = await chat_of(Path(folder), count)
        spans: list[tuple[float, float, str]] = []
        work: list[list[float]] = []
        record_spans(library, spans, work)
        undo = time_loop_work(state, journal, work)
        limit = 1 << 40 if journal else 0  # 0: every save rewrites the whole file (old)
        autosaver = Autosaver(
            library,
            session_id,
            {"agent": state},
            interval=INTERVAL_S,
            checkpoint_after=3600.0,
            journal_limit=limit,
        )
        gc.collect()
        gc.freeze()  # as the app does once a session is loaded (keep_out_of_collections)
        beat = Heartbeat()
        beat.start()
        await asyncio.sleep(0.2)
        try:
            await stream_saves(state, autosaver, REPLIES if journal else OLD_REPLIES)
        finally:
            await beat.stop()
        stalls = [beat.worst_in(start, end) for start, end, _name in spans]
        loop_work = list(work)
        undo()
        spans_s = [end - start for start, end, _name in spans]
        idle = await checkpoint_stalls(state, autosaver, spans) if journal else None
        per_message = await bytes_per_message(library, session_id, state, autosaver)
        await autosaver.aclose()
        await library.close_all()
        del state
        gc.unfreeze()
        gc.collect()
    return {
        "stalls": stalls,
        "idle": idle,
        "bytes": per_message,
        "spans_s": spans_s,
        "work": [wall for wall, _cpu in loop_work],
        "cpu": [cpu for _wall, cpu in loop_work],
    }


class NoSaver:
    """Stands for the autosaver in the noise-floor run: saves nothing."""

    def changed(self, unfinished_reply: Msg | None = None) -> None:
        pass

    def message_finished(self) -> None:
        pass

    async def flush(self) -> None:
        pass


async def floor_run(count: int, windows_s: list[float]) -> list[float]:
    """The same streaming with no autosave: the worst stall in windows as long as the
    journal saves were, one after the other (``windows_s`` over and over): what the
    machine and the stream alone cost a save that took no time on the loop."""
    with tempfile.TemporaryDirectory(prefix="bench-autosave-") as folder:
        library, _session_id, state = await chat_of(Path(folder), count)
        gc.collect()
        gc.freeze()
        beat = Heartbeat()
        beat.start()
        await asyncio.sleep(0.2)
        start = time.perf_counter()
        try:
            await stream_saves(state, NoSaver(), REPLIES)  # type: ignore[arg-type]
        finally:
            await beat.stop()
        end = time.perf_counter()
        await library.close_all()
        del state
        gc.unfreeze()
        gc.collect()
    stalls: list[float] = []
    at = start
    for window in itertools.cycle(windows_s):
        if at + window > end:
            return stalls
        stalls.append(beat.worst_in(at, at + window))
        at += window + SLACK_S  # the windows do not overlap (a stall counts once)
    return stalls


async def checkpoint_stalls(
    state: AgentState, autosaver: Autosaver, spans: list[Any]
) -> list[float]:
    """The stall of each of ``CHECKPOINTS`` checkpoints (the idle one, a whole-file
    rewrite), each after one new message was journaled."""
    stalls = []
    for number in range(CHECKPOINTS):
        await state.memory.add(Msg("user", f"Before checkpoint {number}.", "user"))
        autosaver.message_finished()
        await autosaver.flush()
        spans.clear()
        beat = Heartbeat()
        beat.start()
        await asyncio.sleep(0.05)
        try:
            await autosaver.checkpoint()
            await asyncio.sleep(0.05)
        finally:
            await beat.stop()
        stalls.append(
            max(beat.worst_in(start, end) for start, end, name in spans if name == "save")
        )
    return stalls


async def bytes_per_message(
    library: SessionLibrary, session_id: str, state: AgentState, autosaver: Autosaver
) -> float:
    """Bytes written by a save of one new message (mean of 20)."""
    sessions = library.sessions_dir
    written = []
    for number in range(20):
        journal = sessions / f"{session_id}.journal"
        before = journal.stat().st_size if journal.exists() else 0
        saves = autosaver.checkpoints
        await state.memory.add(Msg("user", f"One more short message, number {number}.", "user"))
        autosaver.message_finished()
        await autosaver.flush()
        if autosaver.checkpoints > saves:  # the old path: the whole file was written
            written.append((sessions / f"{session_id}.json").stat().st_size)
        else:
            written.append(journal.stat().st_size - before)
    return statistics.mean(written)


# -- kill -9 ------------------------------------------------------------------------------


def kill_runs(root: Path) -> dict[str, Any]:
    """Kill the journaling child ``KILLS`` times; what opened and what was lost."""
    chance = random.Random(1919)
    session_id: str | None = None
    opened = lost_old = 0
    worst_age = 0.0
    for _ in range(KILLS):
        session_id, added, killed_at = _run_child(root, session_id, chance.uniform(0.3, 1.0))
        texts = asyncio.run(_opened_texts(root, session_id))
        if texts is None or texts != [f"m{n}" for n in range(len(texts))]:
            continue
        opened += 1
        missing = [(count, at) for count, at in added if count > len(texts)]
        lost_old += sum(1 for _count, at in missing if killed_at - at > LOSS_BOUND_S)
        worst_age = max([worst_age, *(killed_at - at for _count, at in missing)])
    return {"opened": opened, "lost_old": lost_old, "worst_age_s": worst_age}


def _run_child(
    root: Path, session_id: str | None, seconds: float
) -> tuple[str, list[tuple[int, float]], float]:
    args = [sys.executable, str(CHILD), str(root), *([session_id] if session_id else [])]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    child = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    first = child.stdout.readline()
    if not first.startswith("session "):
        raise RuntimeError(f"the child did not start: {first!r}")
    time.sleep(seconds)
    killed_at = time.monotonic()
    child.send_signal(signal.SIGKILL)
    rest, _ = child.communicate(timeout=30)
    added = []
    for line in rest.splitlines():
        words = line.split()
        if len(words) == 3 and words[0] == "added":
            added.append((int(words[1]), float(words[2])))
    return first.split()[1], added, killed_at


async def _opened_texts(root: Path, session_id: str) -> list[str | None] | None:
    library = SessionLibrary(root)
    state = AgentState()
    try:
        await library.load(session_id, agent=state)
    except Exception as exc:
        print(f"  the session did not open after a kill: {exc}")
        return None
    finally:
        await library.close_all()
    return [msg.get_text_content() for msg, _ in cast(SessionMemory, state.memory).content]


# -- the report ---------------------------------------------------------------------------


def _figures(stalls: list[float], unit: str = "saves") -> str:
    ordered = sorted(stalls)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"p50 {statistics.median(ordered):6.1f}  p99 {p99:6.1f}  max {ordered[-1]:6.1f} ms"
        f"  ({len(ordered)} {unit})"
    )


def _p99(stalls: list[float]) -> float:
    ordered = sorted(stalls)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


async def measure() -> dict[int, dict[str, Any]]:
    results: dict[int, dict[str, Any]] = {}
    for count in SIZES:
        results[count] = {
            "new": await stall_run(count, journal=True),
            "old": await stall_run(count, journal=False),
        }
    spans_s = [span for count in SIZES for span in results[count]["new"]["spans_s"]]
    results[0] = {"floor": await floor_run(SIZES[0], spans_s), "spans_s": spans_s}
    return results


def main() -> int:
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    results = asyncio.run(measure())
    with tempfile.TemporaryDirectory(prefix="bench-autosave-kill-") as folder:
        kills = kill_runs(Path(folder))
    ok = True
    floor = results.pop(0)
    print("Autosave while a reply streams: event-loop stall per save (1 ms heartbeat)")
    print(
        f"  no autosave at all: the machine's floor in windows as long as the journal saves "
        f"(median {statistics.median(floor['spans_s']) * 1000:.1f} ms)  "
        f"{_figures(floor['floor'], 'windows')}"
    )
    for count, pair in results.items():
        new, old = pair["new"], pair["old"]
        passed = _p99(new["stalls"]) <= STALL_TARGET_MS and len(new["stalls"]) >= 10
        ok = ok and passed
        print(
            f"  {count:>7,} messages  journal (new)   {_figures(new['stalls'])}  "
            f"{'PASS' if passed else 'MISS'} (p99 <= {STALL_TARGET_MS:.0f} ms)"
        )
        print(f"  {count:>7,} messages  checkpoints     {_figures(old['stalls'])}")
        print(
            f"  {count:>7,} messages  its steps on the loop, timed: journal "
            f"{_figures(new['work'])}; rewrite {_figures(old['work'])}"
        )
        print(
            f"  {count:>7,} messages  the same steps' CPU time (the loop thread's): journal "
            f"{_figures(new['cpu'])}; rewrite {_figures(old['cpu'])}"
        )
        print(
            f"  {count:>7,} messages  idle checkpoint (a whole rewrite, nothing streaming): "
            f"stall {_figures(new['idle'], 'checkpoints')}"
        )
    print("Bytes written per save of one new message")
    small, large = (results[size] for size in SIZES)
    ratio = large["new"]["bytes"] / small["new"]["bytes"]
    ok = ok and ratio <= 1.1
    print(
        f"  journal (new): {small['new']['bytes']:,.0f} B at 10k, "
        f"{large['new']['bytes']:,.0f} B at 100k (x{ratio:.2f}) "
        f"{'PASS' if ratio <= 1.1 else 'MISS'} (independent of the chat's length)"
    )
    print(
        f"  rewrite (old): {small['old']['bytes']:,.0f} B at 10k, "
        f"{large['old']['bytes']:,.0f} B at 100k"
    )
    killed_ok = kills["opened"] == KILLS and kills["lost_old"] == 0
    ok = ok and killed_ok
    print(
        f"kill -9 x {KILLS}: {kills['opened']}/{KILLS} sessions opened whole; "
        f"{kills['lost_old']} messages older than {LOSS_BOUND_S:.0f} s lost; the oldest "
        f"message lost was {kills['worst_age_s'] * 1000:.0f} ms old  "
        f"{'PASS' if killed_ok else 'MISS'}"
    )
    print(
        f"({time.perf_counter() - started:.0f} s; load average {load_before:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after, on {os.cpu_count()} CPUs)"
    )
    print("All targets met." if ok else "Some target missed (see MISS above).")
    return 0  # figures, not a gate: a loaded machine must not fail `make bench`


if __name__ == "__main__":
    sys.exit(main())
