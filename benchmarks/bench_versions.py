"""Versions in a 10,000-message session, in the real window (issue 13).

The real :class:`DesktopApp` window (offscreen, 1000×750) on the app's qasync loop shows a
session of 10,000 messages (5,000 turns) whose last turn was regenerated against the
loopback server, so its answer has two versions. Measured:

(a) **switching versions**: from the request (``service.versions.switch``) to the first
    paint of the chat list after it — of the last answer (the common case), and of a user
    message in the middle of the session (5,000 messages change). Target: the last-pair
    switch repaints within 50 ms. It must not copy the history: the memory keeps its list
    object and the same entry objects before the switched turn, and ``tracemalloc``'s peak
    during a switch is printed next to the size of one copy of the history's list;
(b) **regenerating**: from the request (``VersionsController.regenerate``, what the
    button and Ctrl+R call) to the moment the loopback server receives the HTTP request
    (stamped in its thread). Target: within 100 ms.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_versions.py``
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
import tracemalloc
from typing import Any

from _common import BenchmarkFailure, Report, main_guard, percentile, run_app, settle
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication

from desktop_agent.app import TurnStarted
from desktop_agent.message import Msg
from desktop_agent.model import OpenAIChatModel
from desktop_agent.testing import OpenAICompatServer, RecordedRequest
from desktop_agent.ui.window import DesktopApp

MESSAGES = 10_000
SWITCHES = 20
REGENERATES = 10
TARGET_SWITCH_MS = 50.0
TARGET_REGENERATE_MS = 100.0


class PaintProbe(QObject):
    """A future for the next paint of a widget."""

    def __init__(self, widget: Any) -> None:
        super().__init__()
        self.future: asyncio.Future[float] | None = None
        widget.installEventFilter(self)

    def arm(self) -> asyncio.Future[float]:
        self.future = asyncio.get_running_loop().create_future()
        return self.future

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        future = self.future
        if event.type() == QEvent.Type.Paint and future is not None and not future.done():
            future.set_result(time.perf_counter())
        return False


def _history(turns: int) -> list[Msg]:
    msgs: list[Msg] = []
    for turn in range(turns):
        msgs.append(Msg("User", f"Question {turn}: what about item {turn}?", "user"))
        answer = f"Answer {turn}: item {turn} is fine. " * 6
        msgs.append(Msg("Assistant", answer, "assistant", metadata={"finish_reason": "stop"}))
    return msgs


async def _open(server: OpenAICompatServer) -> DesktopApp:
    environ = {
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": "sk-bench",
        "DESKTOP_AGENT_MODEL": "test-model",
    }
    desktop = DesktopApp(environ=environ, local_servers=[])
    desktop.window.resize(1000, 750)
    if await desktop.start() is None:
        raise BenchmarkFailure("the window found no provider")
    await settle(0.3)
    return desktop


async def _turn_done(desktop: DesktopApp) -> None:
    for _ in range(2000):
        if not desktop.service.busy:
            return
        await asyncio.sleep(0.005)
    raise BenchmarkFailure("a turn did not end")


async def _switch_ms(desktop: DesktopApp, probe: PaintProbe, user_id: str, answer: bool) -> float:
    versions = desktop.service.versions
    info = versions.answer_versions(user_id) if answer else versions.user_versions(user_id)
    delta = -1 if info.index > 0 else 1
    painted = probe.arm()
    started = time.perf_counter()
    if not await versions.switch(user_id, delta, answer=answer):
        raise BenchmarkFailure(f"a switch did nothing ({info}, answer={answer})")
    return (await asyncio.wait_for(painted, 5) - started) * 1000


async def amain(_app: QApplication) -> int:
    report = Report(f"Versions in a {MESSAGES:,}-message session (real window)")
    arrivals: list[float] = []

    def answer(_request: RecordedRequest) -> str:
        arrivals.append(time.perf_counter())
        return "A regenerated answer."

    with OpenAICompatServer() as server:
        server.default_reply = answer
        desktop = await _open(server)
        try:
            await _measure(desktop, arrivals, report)
        finally:
            await desktop.aclose()
    report.print()
    return 0


async def _measure(desktop: DesktopApp, arrivals: list[float], report: Report) -> None:
    service, view = desktop.service, desktop.chat_view
    history = _history(MESSAGES // 2 - 1)
    memory: Any = service.agent_state.memory
    memory.content = [(msg, []) for msg in history]
    desktop.conversation.reset(history)
    view.scroll_to_latest()
    await settle(0.3)
    desktop.chat.send("The last question.")  # a real turn: builds the agent, warms up
    await _turn_done(desktop)
    last_user = desktop.service.versions.turn_of(memory.content[-1][0].id)
    assert last_user is not None
    task = await service.versions.regenerate(last_user)  # the last answer has 2 versions
    assert task is not None
    await task
    task = await service.versions.edit(memory.content[MESSAGES // 2][0].id, "An edit.")
    assert task is not None
    await task
    await settle(0.3)
    if len(memory.content) != MESSAGES // 2 + 2:
        raise BenchmarkFailure(f"unexpected memory size {len(memory.content)}")
    edited = memory.content[MESSAGES // 2][0].id
    if not await service.versions.switch(edited, -1):  # back to the full session
        raise BenchmarkFailure("switching back to the unedited question did nothing")
    view.scroll_to_latest()
    await settle(0.3)
    if len(memory.content) != MESSAGES:
        raise BenchmarkFailure(f"the session has {len(memory.content)} messages, not {MESSAGES}")

    probe = PaintProbe(view.list.viewport())
    content_list = memory.content
    prefix = list(content_list[:-2])
    last_ms = [await _switch_ms(desktop, probe, last_user, True) for _ in range(SWITCHES)]
    same_list = memory.content is content_list
    same_entries = all(a is b for a, b in zip(prefix, memory.content, strict=False))
    tracemalloc.start()
    await _switch_ms(desktop, probe, last_user, True)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    copy_bytes = sys.getsizeof(list(memory.content))
    mid_ms = []
    for _ in range(4):  # the question shown there changes with each switch
        shown = memory.content[MESSAGES // 2][0].id
        mid_ms.append(await _switch_ms(desktop, probe, shown, False))
    p50, worst = statistics.median(last_ms), max(last_ms)
    report.add(
        "switch the last answer's version → repaint (p50)",
        f"{p50:.1f} ms",
        f"<= {TARGET_SWITCH_MS:.0f} ms",
        p50 <= TARGET_SWITCH_MS,
    )
    report.add(
        f"  … p90 of {SWITCHES}",
        f"{percentile(last_ms, 0.9):.1f} ms",
        f"<= {TARGET_SWITCH_MS:.0f} ms",
        percentile(last_ms, 0.9) <= TARGET_SWITCH_MS,
    )
    report.add(f"  … max of {SWITCHES}", f"{worst:.1f} ms")
    report.add(
        "history not copied (same list, same entries)",
        "yes" if same_list and same_entries else "NO",
        "yes",
        same_list and same_entries,
    )
    report.add("  tracemalloc peak during a switch", f"{peak / 1024:.0f} KiB", "", None)
    report.add("  (one copy of the history's list)", f"{copy_bytes / 1024:.0f} KiB", "", None)
    report.add("switch a mid-session question (5,000 msgs)", f"{max(mid_ms):.1f} ms", "", None)
    await _regenerate(desktop, arrivals, last_user, report)


class Stamps:
    """When a turn started, when its request was handed to the SDK (``_create``: the
    prompt is built, the HTTP request goes out now) and when the server had read it."""

    def __init__(self, desktop: DesktopApp, arrivals: list[float]) -> None:
        self.started: list[float] = []
        self.created: list[float] = []
        self.arrivals = arrivals
        desktop.service.subscribe(self._on_event)
        original = OpenAIChatModel._create
        created = self.created

        async def create(model: Any, request: dict[str, Any], started: float) -> Any:
            created.append(time.perf_counter())
            return await original(model, request, started)

        OpenAIChatModel._create = create  # type: ignore[method-assign,assignment]

    def _on_event(self, event: object) -> None:
        if isinstance(event, TurnStarted):
            self.started.append(time.perf_counter())


async def _request_ms(
    desktop: DesktopApp, stamps: Stamps, start: Any
) -> tuple[float, float, float]:
    """Milliseconds from ``start()`` to: the turn started, the SDK call, the server."""
    marks = len(stamps.started), len(stamps.created), len(stamps.arrivals)
    began = time.perf_counter()
    start()
    for _ in range(5000):
        if len(stamps.arrivals) > marks[2]:
            break
        await asyncio.sleep(0.001)
    else:
        raise BenchmarkFailure("the request never arrived")
    await _turn_done(desktop)
    await settle(0.05)
    return (
        (stamps.started[marks[0]] - began) * 1000,
        (stamps.created[marks[1]] - began) * 1000,
        (stamps.arrivals[marks[2]] - began) * 1000,
    )


async def _regenerate(
    desktop: DesktopApp, arrivals: list[float], last_user: str, report: Report
) -> None:
    stamps = Stamps(desktop, arrivals)
    runs = [
        await _request_ms(desktop, stamps, lambda: desktop.versions.regenerate(last_user))
        for _ in range(REGENERATES)
    ]
    started, created, arrived = (statistics.median(column) for column in zip(*runs, strict=True))
    report.add(
        "regenerate → the turn starts (p50)",
        f"{started:.1f} ms",
        f"<= {TARGET_REGENERATE_MS:.0f} ms",
        started <= TARGET_REGENERATE_MS,
    )
    report.add(
        "regenerate → request handed to the SDK (p50)",
        f"{created:.1f} ms",
        f"<= {TARGET_REGENERATE_MS:.0f} ms",
        created <= TARGET_REGENERATE_MS,
    )
    report.add("regenerate → request read by the server (p50)", f"{arrived:.1f} ms", "", None)
    sends = []
    for index in range(3):  # the same session, a plain message: the agent core's own cost
        turn = await _request_ms(desktop, stamps, lambda i=index: desktop.chat.send(f"More {i}"))
        sends.append(turn[1])
    report.add(
        "  a plain send in the same session → SDK (p50)", f"{statistics.median(sends):.1f} ms"
    )
    info = desktop.service.versions.answer_versions(last_user)
    report.note(f"the last answer had {info.count} versions at the end")


if __name__ == "__main__":
    main_guard(lambda: run_app(amain))
