"""Stream absorption through agent → UI, end to end, in the real window (SPEC §7).

The real :class:`DesktopApp` window (offscreen, 1000×750) on the app's qasync loop talks to
the loopback OpenAI-compatible server running in a separate process. The server streams a
20,000-token Markdown reply (headings, paragraphs, lists, tables, code fences, quotes; one
token per SSE chunk, as fast as it can). Measured in one run:

(a) the raw ``openai`` SDK's chunk rate against the same server and reply
    (``AsyncOpenAI(...).chat.completions.create(stream=True)`` consuming every chunk, in
    this process, on this loop) — once before and once after the app's run, averaged;
(a') the floor under (a): the same request read through the SDK's own transport and SSE
    decoder with ``json.loads`` per event but without building a pydantic chunk model
    (about 70 % of (a)'s cost) — what the app's stream reader does
    (``desktop_agent.model._openai_sse``); (b) / (a') is the app's own overhead;
(b) the rate at which the app absorbs the reply: chunks delivered to the conversation
    divided by the time from the request (``ChatController.send``) to the final render
    (the first paint after the last row shows the finished message);
the GUI stall during (b) from a 5 ms ``PreciseTimer`` heartbeat (p50/p99/max gap); and
per-chunk cost flatness: time per chunk delivered to the conversation in the first 10 %
vs the last 10 % of the stream.

Sanity checks (a failure exits 1): the streamed message equals the full text, and the
rendered documents equal a fresh, one-shot render of that text.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_stream_ui.py [tokens]``
"""

from __future__ import annotations

import asyncio
import bisect
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from _common import (
    MODEL,
    BenchmarkFailure,
    Heartbeat,
    Report,
    gap_summary,
    load_average,
    main_guard,
    markdown_tokens,
    open_desktop,
    percentile,
    run_app,
    run_turn,
    server_process,
    settle,
    turn_end,
)
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication

from desktop_agent.app import TurnFinished
from desktop_agent.message import Msg
from desktop_agent.ui.chat import RENDER_STATS, TextRender
from desktop_agent.ui.chat._list import MessageList
from desktop_agent.ui.chat._message_widget import MessageRow
from desktop_agent.ui.window import DesktopApp

TOKENS = 20_000
PROMPT = "Write the long answer."
WARMUP_TEXT = "Warm-up answer with **bold**, `code` and a list:\n\n- one\n- two\n\n" * 20
STREAM_TIMEOUT_S = 60.0
RENDER_TIMEOUT_S = 10.0
NO_PAINT_GRACE_S = 0.1

TARGET_RATIO = 0.8
TARGET_P99_MS = 16.0
TARGET_MAX_MS = 50.0
TARGET_FLATNESS = 1.5


# -- instrumentation ----------------------------------------------------------------------


class RelayoutTimer:
    """Times every ``MessageList.relayout`` (the render + layout of one flush).

    Patched on the class before the window is built, so the list's timer connections bind
    to the timed method.
    """

    def __init__(self) -> None:
        self.ms: list[float] = []
        self.active = False
        original = MessageList.relayout

        def timed(list_self: MessageList) -> None:
            if not self.active:
                original(list_self)
                return
            started = time.perf_counter()
            original(list_self)
            self.ms.append((time.perf_counter() - started) * 1000)

        MessageList.relayout = timed  # type: ignore[method-assign,assignment]


def _text_length(msg: Msg) -> int:
    content = msg.content
    if isinstance(content, str):
        return len(content)
    return sum(len(b.get("text", "")) for b in content if b.get("type") == "text")


class UpsertRecorder:
    """Records ``(time, text length)`` of every assistant message the conversation receives."""

    def __init__(self, desktop: DesktopApp) -> None:
        self.stamps: list[tuple[float, int]] = []
        self.calls = 0
        conversation = desktop.conversation
        original = conversation.upsert
        clock = time.perf_counter

        def upsert(msg: Msg, last: bool) -> int:
            self.calls += 1
            if msg.role == "assistant":
                self.stamps.append((clock(), _text_length(msg)))
            return original(msg, last)

        conversation.upsert = upsert  # type: ignore[method-assign]


class FinalRenderProbe(QObject):
    """Stamps the first paint after the last row shows its final state.

    It watches the chat list's viewport: the opaque widget behind the rows, painted
    whenever a row is (watching every event of the application would cost per event).
    """

    def __init__(self, desktop: DesktopApp) -> None:
        super().__init__()
        self.desktop = desktop
        self.future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._armed = False

    def install(self) -> None:
        """Start watching paints."""
        self.desktop.chat_view.list.viewport().installEventFilter(self)

    def remove(self) -> None:
        """Stop watching."""
        self.desktop.chat_view.list.viewport().removeEventFilter(self)

    def final_state_shown(self) -> bool:
        """Whether the last row's widget shows the finished message, nothing pending."""
        view = self.desktop.chat_view
        entries = self.desktop.conversation.entries
        if not entries or entries[-1].streaming or view.model.coalescer.pending:
            return False
        widget = view.list.row_widget(len(entries) - 1)
        return widget is not None and widget.revision == entries[-1].revision and not widget.pending

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """On a paint in the final state, stamp once the paint pass is over."""
        if event.type() == QEvent.Type.Paint and not self._armed and self.final_state_shown():
            self._armed = True
            QTimer.singleShot(0, self._stamp)
        return False

    def _stamp(self) -> None:
        if not self.future.done():
            self.future.set_result(time.perf_counter())

    async def wait(self, timeout: float) -> float:
        """The time of the final render.

        Normally the first paint in the final state. Should the final state need no paint
        at all (the last update changed nothing visible), the moment it was reached.
        """
        deadline = time.perf_counter() + timeout
        while not self.final_state_shown():
            if time.perf_counter() > deadline:
                raise TimeoutError
            await asyncio.sleep(0.002)
        reached = time.perf_counter()
        try:
            return await asyncio.wait_for(asyncio.shield(self.future), NO_PAINT_GRACE_S)
        except TimeoutError:
            return reached


# -- the two sides --------------------------------------------------------------------------


@dataclass
class SdkRun:
    chunks: int
    seconds: float
    cpu: float

    @property
    def rate(self) -> float:
        return self.chunks / self.seconds


async def sdk_run(client: Any) -> SdkRun:
    """The raw SDK: one streamed request, every chunk consumed."""
    started, cpu = time.perf_counter(), time.process_time()
    stream = await client.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": PROMPT}],
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = 0
    async for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            chunks += 1
    return SdkRun(chunks, time.perf_counter() - started, time.process_time() - cpu)


async def sdk_events_run(client: Any) -> SdkRun:
    """The SDK's transport and SSE decoder, ``json.loads`` per event, no chunk models."""
    started, cpu = time.perf_counter(), time.process_time()
    stream = await client.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": PROMPT}],
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = 0
    try:
        async for sse in stream._iter_events():
            if sse.data.startswith("[DONE]"):
                break
            choices = json.loads(sse.data).get("choices")
            if choices and (choices[0].get("delta") or {}).get("content"):
                chunks += 1
    finally:
        await stream.close()
    return SdkRun(chunks, time.perf_counter() - started, time.process_time() - cpu)


@dataclass
class AppRun:
    chunks: int
    seconds: float
    cpu: float
    stream_seconds: float
    gaps: list[float]
    stamps: list[tuple[float, int]]
    upserts: int
    relayout_ms: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.chunks / self.seconds


async def app_run(desktop: DesktopApp, tokens: list[str], relayouts: RelayoutTimer) -> AppRun:
    """One turn streaming the long reply into the window, request → final render."""
    recorder = UpsertRecorder(desktop)
    probe = FinalRenderProbe(desktop)
    ended = turn_end(desktop)
    beat = Heartbeat()
    RENDER_STATS.reset()
    relayouts.ms.clear()
    relayouts.active = True
    beat.start()
    started, cpu = time.perf_counter(), time.process_time()
    desktop.chat.send(PROMPT)
    try:
        event = await asyncio.wait_for(ended, STREAM_TIMEOUT_S)
        stream_end = time.perf_counter()
        if not isinstance(event, TurnFinished):
            raise BenchmarkFailure(f"the streamed turn ended with {event!r}")
        probe.install()
        finished = await probe.wait(RENDER_TIMEOUT_S)
        cpu = time.process_time() - cpu
    except TimeoutError as exc:
        raise BenchmarkFailure("the stream (or its final render) never finished") from exc
    finally:
        probe.remove()
        gaps = beat.stop()
        relayouts.active = False
    lengths = list(accumulate(len(t) for t in tokens))
    delivered = bisect.bisect_right(lengths, recorder.stamps[-1][1]) if recorder.stamps else 0
    return AppRun(
        chunks=delivered,
        seconds=finished - started,
        cpu=cpu,
        stream_seconds=stream_end - started,
        gaps=gaps,
        stamps=recorder.stamps,
        upserts=recorder.calls,
        relayout_ms=list(relayouts.ms),
    )


def flatness(stamps: list[tuple[float, int]], tokens: list[str]) -> tuple[float, float]:
    """Seconds per chunk delivered in the first and in the last 10 % of the stream."""
    lengths = list(accumulate(len(t) for t in tokens))
    counts = [(t, bisect.bisect_right(lengths, n)) for t, n in stamps]
    counts = [(t, c) for t, c in counts if c > 0]
    total = len(tokens)

    def first_reaching(chunks: float) -> tuple[float, int]:
        return next((t, c) for t, c in counts if c >= chunks)

    t0, c0 = counts[0]
    t10, c10 = first_reaching(total * 0.1)
    t90, c90 = first_reaching(total * 0.9)
    t_end, c_end = first_reaching(total)
    return (t10 - t0) / max(1, c10 - c0), (t_end - t90) / max(1, c_end - c90)


# -- sanity ---------------------------------------------------------------------------------


def check_render(desktop: DesktopApp, full: str, report: Report) -> None:
    """The streamed message and its rendered documents match the full text."""
    entries = desktop.conversation.entries
    msg = entries[-1].msg
    if msg is None or msg.get_text_content() != full:
        got = 0 if msg is None else len(msg.get_text_content() or "")
        raise BenchmarkFailure(
            f"the streamed message differs from the reply ({got} vs {len(full)})"
        )
    widget = desktop.chat_view.list.row_widget(len(entries) - 1)
    views = widget.block_widgets("text") if isinstance(widget, MessageRow) else []
    if len(views) != 1:
        raise BenchmarkFailure("the last row does not show one text block")
    shown = views[0].plain_text()
    drawn = full[: views[0].rendered_chars]  # a long reply is drawn up to the render cap
    fresh = TextRender(desktop.chat_view.context.styler)
    fresh.update(drawn, final=True)
    if shown != fresh.plain_text():
        raise BenchmarkFailure("the streamed render differs from a fresh render of the reply")
    whole = QTextDocument()
    whole.setMarkdown(drawn)
    same_words = _words(_CODE_HEADER.sub("", shown)) == _words(whole.toPlainText())
    report.note(
        f"sanity: message text == reply ({len(full):,} chars): yes; rendered documents == "
        f"fresh render of the first {len(drawn):,} chars: yes ({len(shown):,} chars shown, "
        f"{len(views[0].documents())} documents); "
        f"same words as a one-piece setMarkdown: {'yes' if same_words else 'NO'}"
    )


_CODE_HEADER = re.compile(r"^\S+ {3}Copy$", re.MULTILINE)
"""The "python   Copy" line the chat adds above each code block."""


def _words(text: str) -> list[str]:
    return re.split(r"\s+", text.strip())


# -- report ---------------------------------------------------------------------------------


def build_report(
    sdk: list[SdkRun], events: SdkRun, run: AppRun, tokens: list[str], loads: list[float]
) -> Report:
    sdk_rate = statistics.mean(r.rate for r in sdk)
    ratio = run.rate / sdk_rate
    p50, p99, worst = gap_summary(run.gaps)
    first, last = flatness(run.stamps, tokens)
    report = Report(f"stream {len(tokens):,}-token Markdown reply into the window at max rate")
    runs = ", ".join(f"{r.rate:,.0f}" for r in sdk)
    report.add("(a) raw openai SDK chunk rate", f"{sdk_rate:,.0f}/s", f"runs: {runs}")
    report.add("(b) app absorption rate (→ final render)", f"{run.rate:,.0f}/s")
    report.add("(b) / (a)", f"{ratio:.2f}", f"≥ {TARGET_RATIO}", ratio >= TARGET_RATIO)
    report.add("(a') SDK events without chunk models", f"{events.rate:,.0f}/s")
    report.add("(b) / (a')", f"{run.rate / events.rate:.2f}")
    report.add("GUI stall p50 (5 ms heartbeat)", f"{p50:.1f} ms")
    report.add("GUI stall p99", f"{p99:.1f} ms", f"≤ {TARGET_P99_MS:.0f} ms", p99 <= TARGET_P99_MS)
    report.add(
        "GUI stall max", f"{worst:.1f} ms", f"≤ {TARGET_MAX_MS:.0f} ms", worst <= TARGET_MAX_MS
    )
    report.add("time per chunk, first 10 %", f"{first * 1e6:.0f} µs")
    report.add("time per chunk, last 10 %", f"{last * 1e6:.0f} µs")
    report.add(
        "per-chunk cost last / first 10 %",
        f"{last / first:.2f}",
        f"≤ {TARGET_FLATNESS}",
        last / first <= TARGET_FLATNESS,
    )
    _notes(report, sdk, run, tokens, loads)
    return report


def _notes(
    report: Report, sdk: list[SdkRun], run: AppRun, tokens: list[str], loads: list[float]
) -> None:
    chars = sum(len(t) for t in tokens)
    report.note(
        f"{run.chunks:,} chunks ({chars / 1024:.0f} KiB) delivered; request → last chunk "
        f"{run.stream_seconds:.2f} s, → final render {run.seconds:.2f} s; "
        f"{run.upserts:,} upserts; {len(run.gaps):,} heartbeat ticks"
    )
    sdk_cpu = statistics.mean(r.cpu / r.chunks for r in sdk)
    report.note(
        f"process CPU per chunk: raw SDK {sdk_cpu * 1e6:.0f} µs, app "
        f"{run.cpu / run.chunks * 1e6:.0f} µs (CPU-bound rate ratio "
        f"{sdk_cpu * run.chunks / run.cpu:.2f})"
    )
    if run.relayout_ms:
        report.note(
            f"relayouts (render+layout per flush): {len(run.relayout_ms)}, mean "
            f"{statistics.mean(run.relayout_ms):.1f} ms, p99 "
            f"{percentile(run.relayout_ms, 0.99):.1f} ms, max {max(run.relayout_ms):.1f} ms"
        )
    report.note(
        f"render work: chunk renders {RENDER_STATS.chunk_renders}, tail renders "
        f"{RENDER_STATS.tail_renders}, {RENDER_STATS.chars_rendered / 1024:.0f} KiB of Markdown "
        f"handed to Qt for a {chars / 1024:.0f} KiB reply"
    )
    report.note("load average (1 min) during the run: " + " → ".join(f"{x:.2f}" for x in loads))


# -- main -----------------------------------------------------------------------------------


def script(tokens: list[str]) -> dict[str, Any]:
    """Warm-up reply first; every later request gets the long reply, one token per chunk."""
    return {
        "replies": [{"text": WARMUP_TEXT, "chunk_size": 4}],
        "default": {"text": tokens, "chunk_delay": 0},
    }


async def amain(app: QApplication, count: int) -> int:
    tokens = markdown_tokens(count)
    relayouts = RelayoutTimer()
    loads = [load_average()]
    with server_process(script(tokens)) as base_url:
        desktop = await open_desktop(base_url)
        try:
            return await _measure(desktop, base_url, tokens, relayouts, loads)
        finally:
            await desktop.aclose()
            desktop.window.close()


async def _measure(
    desktop: DesktopApp,
    base_url: str,
    tokens: list[str],
    relayouts: RelayoutTimer,
    loads: list[float],
) -> int:
    await run_turn(desktop, "Warm up.")  # builds the agent, imports openai, warms Qt
    from openai import AsyncOpenAI

    client = AsyncOpenAI(base_url=base_url, api_key="sk-bench", max_retries=0)
    try:
        await settle(0.5)
        sdk = [await sdk_run(client)]
        await settle(0.5)
        run = await app_run(desktop, tokens, relayouts)
        loads.append(load_average())
        await settle(0.5)
        sdk.append(await sdk_run(client))
        await settle(0.5)
        events = await sdk_events_run(client)
        loads.append(load_average())
    finally:
        await client.close()
    if any(r.chunks != len(tokens) for r in [*sdk, events]) or run.chunks != len(tokens):
        raise BenchmarkFailure(
            f"chunk counts differ: SDK {[r.chunks for r in sdk]}, SDK events {events.chunks}, "
            f"app {run.chunks}, expected {len(tokens)}"
        )
    report = build_report(sdk, events, run, tokens, loads)
    check_render(desktop, "".join(tokens), report)
    report.print()
    return 0


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else TOKENS
    runner: Callable[[QApplication], Any] = lambda app: amain(app, count)  # noqa: E731
    main_guard(lambda: run_app(runner))


if __name__ == "__main__":
    main()
