"""Benchmark: sessions through the window, with 500 saved sessions (≥ 200 MB).

Generates the sessions once (as ``bench_sessions_core.py`` does: 5 of 10,000 messages,
the rest 5-2,000), then measures against SPEC §7:

- cold start to the first painted window (``python -m desktop_agent`` with
  ``DESKTOP_AGENT_BENCH_FIRST_PAINT=1``; the last active session is the 10,000-message one,
  reopened after the first paint); the median of several runs;
- in a fresh process running the real window: how long from building it until the
  sidebar's rows are painted (and, of that, until the window's first paint); opening the
  10,000-message session by clicking its row (click → first paint of its rows, and the
  GUI stall meanwhile from a 5 ms ``PreciseTimer`` heartbeat);
- the autosave GUI stall while a reply streams into that session from a loopback server
  process: the heartbeat's gaps during the stream, the longest gap overlapping a save,
  next to the same stream in an empty chat (so what the saves add is visible).

Prints a table with PASS/MISS and the machine load (``uptime``); exits 0 unless something
fails functionally. Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python
benchmarks/bench_sessions.py [runs]`` (about 1-2 minutes, most of it generating).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # sets QT_QPA_PLATFORM and a temporary home first
    BenchmarkFailure,
    Report,
    cold_start,
    gap_summary,
    main_guard,
    markdown_tokens,
    open_desktop,
    run_app,
    run_turn,
    server_process,
    settle,
    wait_until,
)
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

ROOT = Path(__file__).resolve().parents[1]
COLD_RUNS = 5
COLD_TARGET_S = 1.0
OPEN_TARGET_S = 0.3
OPEN_STALL_MS = 100.0
SAVE_STALL_MS = 16.0
TICK_MS = 5.0
STREAM_TOKENS = 1500
STREAM_DELAY_S = 0.004


# -- generation and cold start (parent process) ----------------------------------------


def generate(root: Path) -> tuple[list[str], str]:
    """500 sessions (≥ 200 MB) under ``root``; their ids and a 10,000-message one."""
    import bench_sessions_core

    return asyncio.run(bench_sessions_core.generate(root))


def in_window_process(root: Path, big_id: str) -> dict[str, Any]:
    """Run the window measurements in a fresh process; their figures."""
    done = subprocess.run(
        [sys.executable, __file__, "--window", str(root), big_id],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    for line in done.stdout.splitlines():
        if line.startswith("figures "):
            figures: dict[str, Any] = json.loads(line[len("figures ") :])
            return figures
    raise BenchmarkFailure(
        f"the window process failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
    )


def uptime() -> str:
    """``uptime``'s line (load averages)."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"load average {os.getloadavg()}"


# -- the window process ----------------------------------------------------------------


class StampedHeartbeat(QObject):
    """A 5 ms ``PreciseTimer`` recording each gap with its (start, end) time."""

    def __init__(self) -> None:
        super().__init__()
        self.gaps: list[tuple[float, float]] = []
        self._last = 0.0
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(5)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        """Forget earlier gaps and start ticking."""
        self.gaps.clear()
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> None:
        """Stop ticking."""
        self._timer.stop()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append((self._last, now))
        self._last = now

    def gaps_ms(self, spans: list[tuple[float, float]] | None = None) -> list[float]:
        """The gaps (ms); only those overlapping one of ``spans`` if given."""
        return [
            (end - start) * 1000
            for start, end in self.gaps
            if spans is None or any(start < b and a < end for a, b in spans)
        ]


class FirstPaint(QObject):
    """Notes when a widget first paints once ``ready()`` holds, and the loop turn after."""

    def __init__(self, widget: Any, ready: Callable[[], bool]) -> None:
        super().__init__()
        self.ready = ready
        self.painted_at: float | None = None
        self.settled_at: float | None = None
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Record the first paint after ``ready``."""
        if self.painted_at is None and event.type() == QEvent.Type.Paint and self.ready():
            self.painted_at = time.perf_counter()
            QTimer.singleShot(0, self._settled)
        return False

    def _settled(self) -> None:
        self.settled_at = time.perf_counter()


class RowsPainted(QObject):
    """Notes when a row of the chat (a widget inside ``viewport``) first paints once
    ``ready()`` holds, and the end of that loop turn (rows are child widgets: the viewport
    itself may not repaint when they appear)."""

    def __init__(self, viewport: QWidget, ready: Callable[[], bool]) -> None:
        super().__init__()
        self.viewport, self.ready = viewport, ready
        self.painted_at: float | None = None
        self.settled_at: float | None = None
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self)

    def remove(self) -> None:
        """Stop watching."""
        app = QApplication.instance()
        assert app is not None
        app.removeEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Record the first paint of a row after ``ready``."""
        if (
            self.painted_at is None
            and event.type() == QEvent.Type.Paint
            and isinstance(watched, QWidget)
            and (watched is self.viewport or self.viewport.isAncestorOf(watched))
            and self.ready()
        ):
            self.painted_at = time.perf_counter()
            QTimer.singleShot(0, self._settled)
        return False

    def _settled(self) -> None:
        self.settled_at = time.perf_counter()


def _stream_script() -> dict[str, Any]:
    return {
        "replies": [{"text": "Warm.", "chunk_size": 5}],
        "default": {"text": markdown_tokens(STREAM_TOKENS), "chunk_delay": STREAM_DELAY_S},
    }


async def window_amain(app: QApplication, root: Path, big_id: str) -> int:
    os.environ["DESKTOP_AGENT_HOME"] = str(root)
    figures: dict[str, Any] = {}
    probes: list[FirstPaint] = []
    window_painted: list[float] = []

    def watch(desktop: Any) -> None:  # the window's first paint, the sidebar's rows painted
        sidebar = desktop.window.sidebar
        desktop.window.first_painted.connect(lambda: window_painted.append(time.perf_counter()))
        probes.append(FirstPaint(sidebar.list.viewport(), lambda: sidebar.model.rowCount() > 0))

    with server_process(_stream_script()) as base_url:
        started = time.perf_counter()
        desktop = await open_desktop(base_url, watch)
        try:
            await wait_until(lambda: desktop.sessions.is_ready, 30, "sidebar filled")
            await wait_until(lambda: probes[0].painted_at is not None, 30, "sidebar painted")
            figures["sidebar_s"] = (probes[0].painted_at or 0.0) - started
            figures["window_paint_s"] = window_painted[0] - started
            figures["rows"] = len(desktop.window.sidebar.model.summaries())
            await run_turn(desktop, "Warm up.")  # imports the agent core, builds the agent
            figures["baseline"] = await stream_stalls(desktop, None)
            await open_by_click(desktop, big_id, figures)
            figures["stream"] = await stream_stalls(desktop, desktop.sessions.switcher)
            figures["idle_saves"] = await idle_save_stalls(desktop.sessions.switcher)
        finally:
            await desktop.aclose()
            desktop.window.close()
    print("figures " + json.dumps(figures), flush=True)
    return 0


async def open_by_click(desktop: Any, big_id: str, figures: dict[str, Any]) -> None:
    """Click the big session's row; time to its first painted rows, and the stall."""
    sidebar, conversation = desktop.window.sidebar, desktop.conversation
    await desktop.sessions.switcher.new_chat()
    await settle(0.5)
    sidebar.scroll_to(big_id)
    await settle(0.2)
    row = sidebar.model.row_of(big_id)
    if row is None:
        raise BenchmarkFailure("the 10,000-message session is not listed")
    chat_list = desktop.chat_view.list

    def shows_its_end() -> bool:  # the session's last rows come first, the others after
        entries = conversation.entries
        return bool(entries) and entries[-1].key in chat_list.live_rows()

    probe = RowsPainted(chat_list.viewport(), shows_its_end)
    beat = StampedHeartbeat()
    beat.start()
    clicked = time.perf_counter()
    center = sidebar.list.visualRect(sidebar.model.index(row)).center()
    QTest.mouseClick(sidebar.list.viewport(), Qt.MouseButton.LeftButton, pos=center)
    await wait_until(lambda: probe.settled_at is not None, 30, "first paint of the session")
    await wait_until(lambda: len(conversation) >= 10_000, 30, "every row of the session")
    await settle(1.0)
    beat.stop()
    probe.remove()
    assert probe.painted_at is not None and probe.settled_at is not None
    figures["open_paint_s"] = probe.settled_at - clicked
    figures["open_stall_ms"] = max(beat.gaps_ms(), default=TICK_MS) - TICK_MS
    figures["messages"] = len(conversation)


async def stream_stalls(desktop: Any, switcher: Any) -> dict[str, Any]:
    """Stream a reply with a heartbeat; gap figures while it streams (from its first
    chunk: building the request is not autosave), and those overlapping saves."""
    saves: list[tuple[float, float]] = []
    state_dicts: list[float] = []
    restore = _record_saves(switcher, saves, state_dicts) if switcher is not None else None
    first_chunk: list[float] = []

    def on_change(_event: object) -> None:
        entries = desktop.conversation.entries
        last = entries[-1].msg if entries else None
        if not first_chunk and last is not None and last.role == "assistant":
            first_chunk.append(time.perf_counter())

    unsubscribe = desktop.conversation.subscribe(on_change)
    beat = StampedHeartbeat()
    collections = CollectorTimes()
    await settle(0.5)
    sent = time.perf_counter()
    beat.start()
    try:
        with collections:
            await run_turn(desktop, "Tell me more.", timeout=180)
    finally:
        beat.stop()
        unsubscribe()
        if restore is not None:
            restore()
    if not first_chunk:
        raise BenchmarkFailure("no answer streamed")
    streaming = [(first_chunk[0], time.perf_counter())]
    p50, p99, worst = gap_summary(beat.gaps_ms(streaming))
    during = [
        gap
        for (a, b), gap in zip(beat.gaps, beat.gaps_ms(), strict=True)
        if a >= first_chunk[0] and any(a < end and start < b for start, end in saves)
    ]
    return {
        "p50": p50,
        "p99": p99,
        "max": worst,
        "first_chunk_s": first_chunk[0] - sent,
        "request_stall_ms": max(
            (g for (a, _b), g in zip(beat.gaps, beat.gaps_ms(), strict=True) if a < first_chunk[0]),
            default=0.0,
        ),
        "saves": sum(1 for start, _end in saves if start >= first_chunk[0]),
        "save_max": max(during, default=TICK_MS) - TICK_MS,
        "state_dict_ms": state_dicts,
        "gc_ms": collections.worst(first_chunk[0]),
    }


class CollectorTimes:
    """Records how long each cyclic garbage collection takes (by generation)."""

    def __init__(self) -> None:
        self.runs: list[tuple[int, float, float]] = []  # generation, start, ms
        self._start = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            elapsed = (time.perf_counter() - self._start) * 1000
            self.runs.append((info["generation"], self._start, elapsed))

    def __enter__(self) -> CollectorTimes:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def worst(self, since: float) -> dict[str, float]:
        """The longest collection of each generation after ``since`` (ms)."""
        worst: dict[str, float] = {}
        for generation, start, elapsed in self.runs:
            if start >= since:
                key = f"gen{generation}"
                worst[key] = max(worst.get(key, 0.0), elapsed)
        return worst


async def idle_save_stalls(switcher: Any, count: int = 10) -> dict[str, Any]:
    """Autosave the big session ``count`` times with nothing else running; the stall."""
    saves: list[tuple[float, float]] = []
    state_dicts: list[float] = []
    restore = _record_saves(switcher, saves, state_dicts)
    beat = StampedHeartbeat()
    await settle(0.5)
    beat.start()
    try:
        for _ in range(count):
            await switcher.save_now()
            await settle(0.1)
    finally:
        beat.stop()
        restore()
    during = beat.gaps_ms(saves)
    worst = max(during, default=TICK_MS) - TICK_MS
    return {"saves": len(saves), "max": worst, "state_dict_ms": state_dicts}


def _record_saves(
    switcher: Any, saves: list[tuple[float, float]], state_dicts: list[float]
) -> Callable[[], None]:
    library = switcher.library
    state = switcher.service.agent_state
    original_save, original_state_dict = library.save, state.state_dict
    original_append = library.append  # a journal save (the whole file: save, a checkpoint)

    async def save(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await original_save(*args, **kwargs)
        finally:
            saves.append((start, time.perf_counter()))

    async def append(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await original_append(*args, **kwargs)
        finally:
            saves.append((start, time.perf_counter()))

    def state_dict() -> Any:
        start = time.perf_counter()
        try:
            return original_state_dict()
        finally:
            state_dicts.append((time.perf_counter() - start) * 1000)

    library.save = save
    library.append = append
    state.state_dict = state_dict

    def restore() -> None:
        library.save = original_save
        library.append = original_append
        state.state_dict = original_state_dict

    return restore


# -- the report --------------------------------------------------------------------------


def report(cold: list[float], figures: dict[str, Any], size_mb: float, load: list[str]) -> None:
    """Print the results table."""
    table = Report(f"sessions through the window (500 saved sessions, {size_mb:.0f} MB)")
    median = statistics.median(cold)
    table.add(
        f"cold start → first paint (median of {len(cold)})",
        f"{median * 1000:.0f} ms",
        f"≤ {COLD_TARGET_S * 1000:.0f} ms",
        median <= COLD_TARGET_S,
    )
    table.add("  min / max", f"{min(cold) * 1000:.0f} / {max(cold) * 1000:.0f} ms")
    table.add(
        f"show → sidebar filled ({figures['rows']} rows painted)",
        f"{figures['sidebar_s'] * 1000:.0f} ms",
    )
    table.add(
        "  of which before the window's first paint",
        f"{figures['window_paint_s'] * 1000:.0f} ms",
    )
    table.add(
        f"open {figures['messages']:,}-message session: click → rows painted",
        f"{figures['open_paint_s'] * 1000:.0f} ms",
        f"≤ {OPEN_TARGET_S * 1000:.0f} ms",
        figures["open_paint_s"] <= OPEN_TARGET_S,
    )
    table.add(
        "  GUI stall while opening (longest gap − 5 ms tick)",
        f"{figures['open_stall_ms']:.0f} ms",
        f"≤ {OPEN_STALL_MS:.0f} ms",
        figures["open_stall_ms"] <= OPEN_STALL_MS,
    )
    stream, base = figures["stream"], figures["baseline"]
    table.add(
        f"autosave while a reply streams into it: worst stall in {stream['saves']} saves",
        f"{stream['save_max']:.1f} ms",
        f"≤ {SAVE_STALL_MS:.0f} ms",
        stream["save_max"] <= SAVE_STALL_MS,
    )
    table.add(
        "  heartbeat gaps while streaming (p99 / max)",
        f"{stream['p99']:.1f} / {stream['max']:.1f} ms",
        f"p99 ≤ {SAVE_STALL_MS:.0f} ms",
        stream["p99"] <= SAVE_STALL_MS,
    )
    idle = figures["idle_saves"]
    table.add(
        f"autosave of it, nothing else running: worst stall in {idle['saves']} saves",
        f"{idle['max']:.1f} ms",
        f"≤ {SAVE_STALL_MS:.0f} ms",
        idle["max"] <= SAVE_STALL_MS,
    )
    sd = stream["state_dict_ms"] + idle["state_dict_ms"]
    if sd:
        table.add("  of which state_dict() on the loop (median / max)", _pair(sd))
    table.add("  same stream in an empty chat: gaps p50 / p99 / max", _triple(base))
    collected = ", ".join(f"{k} {v:.0f} ms" for k, v in sorted(stream["gc_ms"].items()))
    table.add("  longest garbage collections while streaming", collected or "none")
    table.add(
        "  send → first chunk with the 10,000-message history",
        f"{stream['first_chunk_s'] * 1000:.0f} ms (stall {stream['request_stall_ms']:.0f} ms)",
    )
    for line in load:
        table.note(line)
    table.note(
        "Heartbeat: a 5 ms PreciseTimer; a gap is the time between ticks (~5 ms when idle),"
        " a stall is a gap minus the 5 ms tick."
    )
    table.print()


def _pair(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} / {max(values):.1f} ms"


def _triple(figures: dict[str, Any]) -> str:
    return f"{figures['p50']:.1f} / {figures['p99']:.1f} / {figures['max']:.1f} ms"


def main() -> int:
    """Generate, measure, print."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else COLD_RUNS
    folder = Path(tempfile.mkdtemp(prefix="bench-sessions-ui-"))
    try:
        load = [f"before: {uptime()}"]
        started = time.perf_counter()
        _ids, big_id = generate(folder)
        size = sum(p.stat().st_size for p in (folder / "sessions").glob("*.json"))
        took = time.perf_counter() - started
        print(f"generated 500 sessions, {size / 2**20:.0f} MB, in {took:.0f} s", flush=True)
        (folder / "state.json").write_text(json.dumps({"last_session": big_id}))
        cold_start(folder)  # warm the OS file cache, as a second launch would be
        cold = [cold_start(folder) for _ in range(runs)]
        (folder / "state.json").unlink()
        figures = in_window_process(folder, big_id)
        load.append(f"after:  {uptime()}")
        report(cold, figures, size / 2**20, load)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--window"]:
        root, big = Path(sys.argv[2]), sys.argv[3]
        main_guard(lambda: run_app(lambda app: window_amain(app, root, big)))
    else:
        main_guard(main)
