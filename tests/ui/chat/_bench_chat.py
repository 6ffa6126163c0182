"""Chat pane benchmark (not collected by pytest): prints the figures of SPEC §7 it owns.

QT_QPA_PLATFORM=offscreen .venv/bin/python tests/ui/chat/_bench_chat.py

1. Open a 10,000-message conversation: time from ``reset`` to the first painted rows, the
   longest GUI stall, RSS growth.
2. Stream a ~20,000-token Markdown reply at maximum rate through ``Conversation.upsert``
   (yielding to Qt every 8 ms, as the app's stream consumer does), each chunk preceded by
   0.3 ms of CPU work standing in for the SDK's own per-chunk cost (≈3,000 chunks/s alone):
   chunks/s absorbed, render time per flush, heartbeat gaps, per-chunk cost early vs late.

Wall-clock figures suffer on a loaded machine (the load average is printed); the GUI
thread's CPU time (``time.thread_time``) is printed alongside and is what to compare.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QElapsedTimer, QEvent, Qt, QTimer
from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import RENDER_STATS, ChatView
from desktop_agent.ui.chat._list import MessageList

HISTORY_TEXT = (
    "Here is **item {i}** with a list:\n\n- first point\n- second point with `code`\n\n"
    "```python\nprint({i})\n```\n"
)


SDK_CPU_PER_CHUNK = 0.0003


def sdk_work() -> None:
    """Burn the CPU time the SDK spends decoding one streamed chunk."""
    start = time.thread_time()
    while time.thread_time() - start < SDK_CPU_PER_CHUNK:
        pass


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Heartbeat:
    """A 5 ms precise timer recording the gaps between its ticks (GUI stalls)."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self._clock = QElapsedTimer()
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(5)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.gaps.clear()
        self._clock.start()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _tick(self) -> None:
        self.gaps.append(self._clock.nsecsElapsed() / 1e6)
        self._clock.restart()


def pump(app: QApplication, seconds: float) -> None:
    """Run the event loop for a while (deferred deletions included, as exec() would)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        time.sleep(0.001)


def history(n: int) -> list[Msg]:
    msgs = []
    for i in range(n):
        if i % 2 == 0:
            msgs.append(Msg("user", f"Question {i}: what about item {i}?", "user"))
        else:
            msgs.append(Msg("assistant", HISTORY_TEXT.format(i=i), "assistant"))
    return msgs


def bench_open(app: QApplication, view: ChatView, conversation: Conversation) -> None:
    msgs = history(10_000)
    gc.collect()
    pump(app, 0.3)
    before = rss_mb()
    RENDER_STATS.reset()
    beat = Heartbeat()
    beat.start()
    pump(app, 0.05)
    start, cpu = time.perf_counter(), time.thread_time()
    conversation.reset(msgs)
    app.processEvents()
    view.repaint()
    first_paint = time.perf_counter() - start
    first_paint_cpu = time.thread_time() - cpu
    pump(app, 1.0)
    beat.stop()
    gc.collect()
    after = rss_mb()
    print("== open 10,000 messages")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(
        f"reset → first visible rows painted: {first_paint * 1000:.0f} ms wall, "
        f"{first_paint_cpu * 1000:.0f} ms CPU"
    )
    print(f"max GUI stall (5 ms heartbeat) around it: {max(beat.gaps):.0f} ms")
    print(
        f"row widgets alive: {len(view.list.live_rows())}, "
        f"text blocks rendered: {RENDER_STATS.full_renders}"
    )
    print(f"RSS {before:.0f} MB → {after:.0f} MB (+{after - before:.0f} MB)")
    # Scroll through a stretch of history: time per page.
    timings = []
    bar = view.list.verticalScrollBar()
    for step in range(200):
        t = time.thread_time()
        bar.setValue(bar.maximum() - (step + 1) * view.list.viewport().height())
        app.processEvents()
        view.repaint()
        timings.append(time.thread_time() - t)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    print(
        f"scroll back by a page (200 pages), CPU: median "
        f"{statistics.median(timings) * 1000:.1f} ms, max {max(timings) * 1000:.1f} ms; "
        f"rows created {view.list.rows_created}; RSS now {rss_mb():.0f} MB"
    )
    view.list.scroll_to_bottom()


def answer_tokens(n_tokens: int) -> list[str]:
    section = (
        "## Section {i}\n\nThis paragraph explains **point {i}** in some detail, with "
        "`inline code`, a [link](https://example.com/{i}) and enough words to wrap across "
        "several lines of the chat pane at its usual width.\n\n"
        "- first item of list {i}\n- second item with *emphasis*\n- third item\n\n"
        "| key | value |\n|-----|-------|\n| a{i} | {i} |\n| b{i} | {i}{i} |\n\n"
        "```python\ndef handler_{i}(request):\n    data = request.json()\n"
        "    return {{'ok': True, 'id': {i}}}\n```\n\n"
    )
    text = "".join(section.format(i=i) for i in range(400))
    words = text.split(" ")
    tokens = [w + " " for w in words]
    while len(tokens) < n_tokens:
        tokens += tokens
    return tokens[:n_tokens]


def bench_stream(app: QApplication, view: ChatView, conversation: Conversation) -> None:
    conversation.reset(history(500))
    pump(app, 0.3)
    tokens = answer_tokens(20_000)
    RENDER_STATS.reset()
    flush_ms: list[float] = []
    original = MessageList.relayout

    def timed_relayout(self: MessageList) -> None:
        t = time.thread_time()
        original(self)
        flush_ms.append((time.thread_time() - t) * 1000)

    MessageList.relayout = timed_relayout  # type: ignore[method-assign]
    baseline_start = time.perf_counter()
    for _ in range(2000):
        sdk_work()
    sdk_rate = 2000 / (time.perf_counter() - baseline_start)
    block = {"type": "text", "text": ""}
    msg = Msg("assistant", [block], "assistant")
    conversation.upsert(Msg("user", "Write a long answer.", "user"), last=True)
    beat = Heartbeat()
    beat.start()
    per_chunk: list[float] = []
    text = ""
    start, cpu_start = time.perf_counter(), time.thread_time()
    last_yield = start
    for token in tokens:
        sdk_work()
        text += token
        block["text"] = text
        t = time.perf_counter()
        conversation.upsert(msg, last=False)
        per_chunk.append(time.perf_counter() - t)
        if time.perf_counter() - last_yield > 0.008:
            app.processEvents()
            last_yield = time.perf_counter()
    conversation.upsert(msg, last=True)
    conversation.finish_streaming()
    elapsed, cpu = time.perf_counter() - start, time.thread_time() - cpu_start
    view.flush()
    app.processEvents()
    beat.stop()
    MessageList.relayout = original  # type: ignore[method-assign]
    gaps = sorted(beat.gaps)
    tenth = len(per_chunk) // 10
    print("== stream a 20,000-token Markdown reply at max rate")
    print(f"load average {os.getloadavg()[0]:.1f}; SDK stand-in alone: {sdk_rate:.0f} chunks/s")
    print(
        f"{len(tokens)} chunks, {len(text) / 1024:.0f} KB in {elapsed:.2f} s wall "
        f"→ {len(tokens) / elapsed:.0f} chunks/s absorbed ({len(tokens) / elapsed / sdk_rate:.2f}"
        f" × SDK); GUI-thread CPU {cpu:.2f} s → {len(tokens) / cpu:.0f} chunks/s "
        f"({len(tokens) / cpu / (1 / SDK_CPU_PER_CHUNK):.2f} × SDK) on an idle core"
    )
    print(
        f"flushes: {view.model.coalescer.flush_count}; relayout (render) per flush: "
        f"mean {statistics.mean(flush_ms):.2f} ms, p99 "
        f"{sorted(flush_ms)[int(len(flush_ms) * 0.99)]:.1f} ms, max {max(flush_ms):.1f} ms"
    )
    print(
        f"heartbeat gaps: p50 {gaps[len(gaps) // 2]:.1f} ms, p99 "
        f"{gaps[int(len(gaps) * 0.99)]:.1f} ms, max {gaps[-1]:.1f} ms"
    )
    early, late = sum(per_chunk[:tenth]), sum(per_chunk[-tenth:])
    print(
        f"upsert cost per chunk: first 10% {early / tenth * 1e6:.1f} µs, "
        f"last 10% {late / tenth * 1e6:.1f} µs (ratio {late / early:.2f})"
    )
    print(
        f"render work: full renders {RENDER_STATS.full_renders}, chunk renders "
        f"{RENDER_STATS.chunk_renders}, tail renders {RENDER_STATS.tail_renders}, "
        f"chars rendered {RENDER_STATS.chars_rendered / 1024:.0f} KB for a "
        f"{len(text) / 1024:.0f} KB reply"
    )


def bench_flush_cost(app: QApplication, view: ChatView, conversation: Conversation) -> None:
    """CPU per flush with the flush cadence of 3,000 chunks/s at 30 ms: one per 90 chunks.

    Deterministic (no timers, no wall clock), so it means the same on a loaded machine.
    """
    conversation.reset(history(500))
    pump(app, 0.3)
    tokens = answer_tokens(20_000)
    block = {"type": "text", "text": ""}
    msg = Msg("assistant", [block], "assistant")
    render_cpu: list[float] = []
    paint_cpu: list[float] = []
    text = ""
    start = time.thread_time()
    for i, token in enumerate(tokens):
        sdk_work()
        text += token
        block["text"] = text
        conversation.upsert(msg, last=i == len(tokens) - 1)
        if i % 90 == 89:
            t = time.thread_time()
            view.model.coalescer.flush()
            view.list.relayout()
            t2 = time.thread_time()
            view.repaint()
            render_cpu.append(t2 - t)
            paint_cpu.append(time.thread_time() - t2)
    cpu = time.thread_time() - start
    sdk = len(tokens) * SDK_CPU_PER_CHUNK
    print("== flush cost at 3,000 chunks/s (one flush per 90 chunks, CPU time)")
    print(
        f"per flush: render+layout mean {statistics.mean(render_cpu) * 1000:.1f} ms "
        f"(p99 {sorted(render_cpu)[int(len(render_cpu) * 0.99)] * 1000:.1f}), paint mean "
        f"{statistics.mean(paint_cpu) * 1000:.1f} ms; first/last 10% of flushes: "
        f"{statistics.mean(render_cpu[: len(render_cpu) // 10]) * 1000:.1f} / "
        f"{statistics.mean(render_cpu[-len(render_cpu) // 10 :]) * 1000:.1f} ms"
    )
    print(
        f"total {cpu:.2f} s CPU for {len(tokens)} chunks, of which SDK stand-in {sdk:.2f} s "
        f"→ {len(tokens) / cpu:.0f} chunks/s = {sdk / cpu:.2f} × the SDK-alone rate"
    )


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    conversation = Conversation()
    view = ChatView(conversation)
    view.resize(900, 700)
    view.show()
    pump(app, 0.3)
    bench_open(app, view, conversation)
    bench_flush_cost(app, view, conversation)
    bench_stream(app, view, conversation)


if __name__ == "__main__":
    main()
