"""A 20 MB reply streamed into the real window: the GUI never stalls, memory stays bounded.

The real :class:`DesktopApp` window (offscreen, 1000×750) on the app's qasync loop talks to
the loopback OpenAI-compatible server running in a separate process, which streams a
Markdown reply of ``MB`` megabytes (default 20) in 4 KiB chunks as fast as it can. Measured
(SPEC §7, "a 20 MB reply"):

- the GUI stall while it streams and renders, from a 5 ms ``PreciseTimer`` heartbeat
  (p50/p99/max gap), from the request until the finished message is shown;
- the RSS growth of the process over the same span, against 3× the reply's size;
- the next, short turn with the huge reply in memory: its time and GUI stall;
- Stop works: a second, identical reply is stopped half-way, and the time from Stop to an
  idle window is reported.

Sanity checks (a failure exits 1): the streamed message equals the full text, and the
rendered part of the reply is capped (the rest is offered as "Show all" / "Save to file").

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_huge_reply.py [MB]``
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from collections.abc import Callable
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
    run_turn,
    server_process,
    settle,
    turn_end,
    wait_until,
)
from PySide6.QtWidgets import QApplication

from desktop_agent.app import TurnFinished, TurnInterrupted
from desktop_agent.ui.window import DesktopApp

MEGABYTES = 20
CHUNK_CHARS = 4096
PROMPT = "Print the whole log."
STREAM_TIMEOUT_S = 120.0
TARGET_MAX_MS = 50.0
TARGET_RSS_FACTOR = 3.0
TARGET_STOP_MS = 100.0

_PARAGRAPH = (
    "Line {i}: the service answered request {i} with status 200 after {i} ms; "
    "**payload** `id_{i}` was stored, and the cache now holds {i} entries.\n\n"
)


def huge_reply(megabytes: float) -> str:
    """A deterministic Markdown reply of about ``megabytes`` MB (paragraphs, some code)."""
    target = int(megabytes * 1024 * 1024)
    parts: list[str] = []
    size = 0
    i = 0
    while size < target:
        part = _PARAGRAPH.format(i=i)
        if i % 50 == 49:
            part += f"```text\nblock {i}\n" + "x = 1\n" * 20 + "```\n\n"
        parts.append(part)
        size += len(part)
        i += 1
    return "".join(parts)[:target]


def script(text: str) -> dict[str, Any]:
    """A short warm-up reply, the huge one, a short one (the next turn), then the huge one
    for every later request."""
    return {
        "replies": [
            {"text": "Warm **up**.", "chunk_size": 4},
            {"text": text, "chunk_size": CHUNK_CHARS, "chunk_delay": 0},
            {"text": "A short answer to the next question.", "chunk_size": 4},
        ],
        "default": {"text": text, "chunk_size": CHUNK_CHARS, "chunk_delay": 0},
    }


def _last_text(desktop: DesktopApp) -> str:
    entries = desktop.conversation.entries
    msg = entries[-1].msg if entries else None
    return (msg.get_text_content() or "") if msg is not None else ""


async def streamed_run(desktop: DesktopApp, text: str, report: Report) -> None:
    """Stream the whole reply; stall and RSS growth until it is shown."""
    gc.collect()
    rss_before = rss_mb()
    peak = rss_before
    beat = Heartbeat()
    ended = turn_end(desktop)
    beat.start()
    started = time.perf_counter()
    desktop.chat.send(PROMPT)
    try:
        while not ended.done():
            peak = max(peak, rss_mb())
            await asyncio.sleep(0.05)
            if time.perf_counter() - started > STREAM_TIMEOUT_S:
                raise BenchmarkFailure("the huge reply did not finish streaming in time")
        event = ended.result()
        if not isinstance(event, TurnFinished):
            raise BenchmarkFailure(f"the huge turn ended with {event!r}")
        streamed = time.perf_counter() - started
        for _ in range(10):  # the final render and a few frames after it
            peak = max(peak, rss_mb())
            await settle(0.05)
    finally:
        gaps = beat.stop()
    if _last_text(desktop) != text:
        raise BenchmarkFailure(f"the streamed message differs ({len(_last_text(desktop))} chars)")
    megabytes = len(text) / 1024 / 1024
    p50, p99, worst = gap_summary(gaps)
    growth = peak - rss_before
    report.add("reply size", f"{megabytes:.1f} MB")
    report.add("stream time (request → finished)", f"{streamed:.1f} s")
    report.add("GUI stall p50 / p99", f"{p50:.1f} / {p99:.1f} ms")
    report.add("GUI stall max", f"{worst:.1f} ms", f"≤ {TARGET_MAX_MS:.0f} ms", worst <= 50.0)
    limit = TARGET_RSS_FACTOR * megabytes
    report.add(
        "RSS growth (peak)",
        f"{growth:.0f} MB",
        f"≤ {limit:.0f} MB (3× reply)",
        growth <= limit,
    )
    _check_capped(desktop, report)


def _check_capped(desktop: DesktopApp, report: Report) -> None:
    entries = desktop.conversation.entries
    widget = desktop.chat_view.list.row_widget(len(entries) - 1)
    views = widget.block_widgets("text") if widget is not None else []
    if not views:
        raise BenchmarkFailure("the huge reply's row is not shown")
    view = views[0]
    rendered = getattr(view, "rendered_chars", None)
    if rendered is None or not getattr(view, "is_capped", False):
        raise BenchmarkFailure("the huge reply was rendered whole (no cap)")
    report.add("characters rendered of the reply", f"{rendered:,}")


async def next_turn(desktop: DesktopApp, report: Report) -> None:
    """A short turn with the huge reply in memory (formatted, sent and saved again)."""
    beat = Heartbeat()
    beat.start()
    started = time.perf_counter()
    try:
        event = await run_turn(desktop, "And in one sentence?", timeout=STREAM_TIMEOUT_S)
        await settle(0.3)
    finally:
        gaps = beat.stop()
    if not isinstance(event, TurnFinished):
        raise BenchmarkFailure(f"the next turn ended with {event!r}")
    seconds = time.perf_counter() - started - 0.3
    worst = max(gaps, default=0.0)
    report.add("next turn: time", f"{seconds:.1f} s")
    report.add(
        "next turn: GUI stall max", f"{worst:.1f} ms", f"≤ {TARGET_MAX_MS:.0f} ms", worst <= 50
    )


async def stopped_run(desktop: DesktopApp, text: str, report: Report) -> None:
    """Stream the reply again and press Stop half-way; Stop → idle."""
    ended = turn_end(desktop)
    desktop.chat.send(PROMPT)
    await wait_until(lambda: len(_last_text(desktop)) >= len(text) // 2, 60, "half the reply")
    started = time.perf_counter()
    desktop.chat.stop()
    event = await asyncio.wait_for(ended, 10)
    await wait_until(lambda: not desktop.service.busy, 10, "idle after Stop")
    stop_ms = (time.perf_counter() - started) * 1000
    if not isinstance(event, TurnInterrupted):
        raise BenchmarkFailure(f"the stopped turn ended with {event!r}")
    report.add(
        "Stop → idle, mid-reply", f"{stop_ms:.0f} ms", f"≤ {TARGET_STOP_MS:.0f} ms", stop_ms <= 100
    )


async def amain(app: QApplication, megabytes: float) -> int:
    text = huge_reply(megabytes)
    report = Report(f"A {megabytes:g} MB reply in the window (bench_huge_reply)")
    loads = [load_average()]
    with server_process(script(text)) as base_url:
        desktop = await open_desktop(base_url)
        try:
            await run_turn(desktop, "Warm up.")
            await settle(0.5)
            await streamed_run(desktop, text, report)
            loads.append(load_average())
            await settle(0.5)
            await next_turn(desktop, report)
            await settle(0.5)
            await stopped_run(desktop, text, report)
            loads.append(load_average())
        finally:
            await desktop.aclose()
            desktop.window.close()
    report.note("load average (1 min): " + " → ".join(f"{x:.2f}" for x in loads))
    report.print()
    return 0


def main() -> None:
    megabytes = float(sys.argv[1]) if len(sys.argv) > 1 else MEGABYTES
    runner: Callable[[QApplication], Any] = lambda app: amain(app, megabytes)  # noqa: E731
    main_guard(lambda: run_app(runner))


if __name__ == "__main__":
    main()
