"""Idle CPU, memory with a 10,000-message conversation, and the time to open it (SPEC §7).

The real :class:`DesktopApp` window (offscreen, 1000×750) on the app's qasync loop, with its
provider pointed at the loopback server (separate process) and the agent core preloaded as
after the app's first paint:

1. **Idle CPU**: the process's CPU time over ~10 s with the window open and nothing
   happening, as % of one core (target ≤ 2 %).
2. **Open a 10,000-message conversation** (``Conversation.reset`` with generated
   messages: user questions, Markdown answers with lists and code, tool calls with their
   results, some thinking): time from the reset to the first paint of its rows (≤ 0.3 s)
   and the longest GUI stall — 5 ms ``PreciseTimer`` heartbeat — from the reset until
   ~1.5 s later (≤ 100 ms). Also the time until every visible row is fully rendered.
3. **Memory**: RSS of the empty window vs with the conversation open and painted
   (≤ +100 MB, and ≤ 300 MB in all).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_idle.py [seconds]``
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from typing import Any

from _common import (
    BenchmarkFailure,
    Heartbeat,
    Report,
    gap_summary,
    load_average,
    main_guard,
    open_desktop,
    rss_mb,
    run_app,
    server_process,
    settle,
    wait_until,
)
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

from desktop_agent.app import preload_agent_core
from desktop_agent.message import Msg
from desktop_agent.ui.window import DesktopApp

IDLE_SECONDS = 10.0
MESSAGES = 10_000
TARGET_IDLE_CPU = 2.0
TARGET_OPEN_S = 0.3
TARGET_OPEN_STALL_MS = 100.0
TARGET_RSS_DELTA_MB = 100.0
TARGET_RSS_MB = 300.0

_ANSWER = (
    "Here is **answer {i}**, with `inline code` and a [link](https://example.com/{i}).\n\n"
    "- first point about {i}\n- second point, a little longer than the first one\n\n"
    "```python\ndef step_{i}(x):\n    return x * {i}\n```\n"
)


# -- generated conversation ----------------------------------------------------------------


def _exchange(i: int) -> list[Msg]:
    """Four messages: a question, then an answer (every third exchange uses a tool)."""
    user = Msg("User", f"Question {i}: how does step {i} work, and why?", "user")
    if i % 3:
        blocks: list[Any] = [{"type": "text", "text": _ANSWER.format(i=i)}]
        if i % 5 == 0:
            blocks.insert(0, {"type": "thinking", "thinking": f"The user asks about {i}."})
        return [user, Msg("Assistant", blocks, "assistant")]
    call = {"type": "tool_use", "id": f"call_{i}", "name": "calculate", "input": {"x": i}}
    result = {
        "type": "tool_result",
        "id": f"call_{i}",
        "name": "calculate",
        "output": [{"type": "text", "text": f"{i * 2}"}],
    }
    return [
        user,
        Msg("Assistant", [call], "assistant"),
        Msg("system", [result], "system"),
        Msg("Assistant", [{"type": "text", "text": f"The result is **{i * 2}**."}], "assistant"),
    ]


def conversation_messages(count: int) -> list[Msg]:
    """``count`` messages of mixed kinds, in conversation order."""
    msgs: list[Msg] = []
    i = 0
    while len(msgs) < count:
        msgs += _exchange(i)
        i += 1
    return msgs[:count]


# -- probes ---------------------------------------------------------------------------------


class FirstRowPaint(QObject):
    """Stamps the end of the first paint pass of the chat list's viewport after the reset.

    The viewport is the opaque widget behind the rows: painting a row paints it too.
    Watching it alone (not every event of the application) keeps the probe's own cost out
    of the measurement.
    """

    def __init__(self, desktop: DesktopApp) -> None:
        super().__init__()
        self.viewport = desktop.chat_view.list.viewport()
        self.future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._armed = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """On the first paint, stamp once the paint pass is over."""
        if not self._armed and event.type() == QEvent.Type.Paint:
            self._armed = True
            QTimer.singleShot(0, self._stamp)
        return False

    def _stamp(self) -> None:
        if not self.future.done():
            self.future.set_result(time.perf_counter())


async def measure_idle(seconds: float) -> float:
    """% of one core the process used while idle for ``seconds``."""
    gc.collect()
    await settle(1.0)
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.sleep(seconds)
    return (time.process_time() - cpu) / (time.perf_counter() - wall) * 100


async def measure_open(desktop: DesktopApp, msgs: list[Msg]) -> tuple[float, float, list[float]]:
    """Seconds to the first painted rows and to fully rendered rows; heartbeat gaps."""
    probe = FirstRowPaint(desktop)
    probe.viewport.installEventFilter(probe)
    beat = Heartbeat()
    beat.start()
    started = time.perf_counter()
    try:
        desktop.conversation.reset(msgs)
        first_paint = await asyncio.wait_for(probe.future, 10) - started
        await wait_until(lambda: not desktop.chat_view.list.rendering, 10, "rows rendered")
        rendered = time.perf_counter() - started
        await asyncio.sleep(max(0.0, 1.5 - rendered))
    except TimeoutError as exc:
        raise BenchmarkFailure("the opened conversation was never painted") from exc
    finally:
        probe.viewport.removeEventFilter(probe)
        gaps = beat.stop()
    if desktop.chat_view.list.row_widget(len(msgs) - 1) is None:
        raise BenchmarkFailure("the conversation did not open at its end")
    return first_paint, rendered, gaps


# -- main -----------------------------------------------------------------------------------


async def amain(app: QApplication, idle_seconds: float) -> int:
    loads = [load_average()]
    with server_process({"replies": []}) as base_url:
        desktop = await open_desktop(base_url)
        try:
            await preload_agent_core()  # as the app does after its first paint
            idle = await measure_idle(idle_seconds)
            loads.append(load_average())
            gc.collect()
            empty_rss = rss_mb()
            built = time.perf_counter()
            msgs = conversation_messages(MESSAGES)
            built = time.perf_counter() - built
            first_paint, rendered, gaps = await measure_open(desktop, msgs)
            gc.collect()
            await settle(0.5)
            open_rss = rss_mb()
            idle_open = await measure_idle(idle_seconds / 2)
            loads.append(load_average())
            rows = len(desktop.chat_view.list.live_rows())
        finally:
            await desktop.aclose()
            desktop.window.close()
    report = Report("idle CPU, and a 10,000-message conversation")
    report.add("idle CPU, empty window", f"{idle:.2f} %", f"≤ {TARGET_IDLE_CPU:.0f} %", idle <= 2)
    report.add(
        "idle CPU, 10,000 messages open",
        f"{idle_open:.2f} %",
        f"≤ {TARGET_IDLE_CPU:.0f} %",
        idle_open <= TARGET_IDLE_CPU,
    )
    report.add(
        "open: reset → first rows painted",
        f"{first_paint * 1000:.0f} ms",
        f"≤ {TARGET_OPEN_S * 1000:.0f} ms",
        first_paint <= TARGET_OPEN_S,
    )
    report.add("open: reset → visible rows fully rendered", f"{rendered * 1000:.0f} ms")
    _, p99, worst = gap_summary(gaps)
    report.add(
        "open: max GUI stall (5 ms heartbeat)",
        f"{worst:.0f} ms",
        f"≤ {TARGET_OPEN_STALL_MS:.0f} ms",
        worst <= TARGET_OPEN_STALL_MS,
    )
    report.add("RSS, empty window", f"{empty_rss:.0f} MB")
    delta = open_rss - empty_rss
    report.add(
        "RSS growth with 10,000 messages open",
        f"+{delta:.0f} MB",
        f"≤ +{TARGET_RSS_DELTA_MB:.0f} MB",
        delta <= TARGET_RSS_DELTA_MB,
    )
    report.add(
        "RSS with 10,000 messages open",
        f"{open_rss:.0f} MB",
        f"≤ {TARGET_RSS_MB:.0f} MB",
        open_rss <= TARGET_RSS_MB,
    )
    report.note(
        f"{MESSAGES:,} messages built in {built * 1000:.0f} ms (not part of the open); "
        f"{rows} row widgets alive; heartbeat p99 during the open {p99:.0f} ms"
    )
    report.note("load average (1 min): " + " → ".join(f"{x:.2f}" for x in loads))
    report.print()
    return 0


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else IDLE_SECONDS
    main_guard(lambda: run_app(lambda app: amain(app, seconds)))


if __name__ == "__main__":
    main()
