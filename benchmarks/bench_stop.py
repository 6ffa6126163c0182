"""Stop → idle latency in the real window (SPEC §7: ≤ 100 ms).

The real :class:`DesktopApp` window on the app's qasync loop, its provider pointed at the
loopback server in a separate process. For each of three phases a turn is started, the
phase is reached, and the Stop slot is called (``ChatController.stop``: what the Stop
button and Esc call). Latency = from that call until the window is idle: the composer's
button is back to "Send" (not busy) *and* the turn task has ended (``ChatService.busy`` is
false, the turn published ``TurnInterrupted``).

1. waiting for the first token (the server's first chunk comes after 5 s);
2. mid-stream (a slow stream: 8 characters every 10 ms);
3. during a running tool: the model calls ``execute_shell_command`` with ``sleep 30``, the
   permission prompt is answered "Allow once" programmatically, and Stop comes once the
   ``sleep`` process runs.

After every stop the agent's memory must be consistent — every ``tool_use`` has a
``tool_result`` — and after the tool phase no ``sleep 30`` may be left running. Either
failing, or a turn that does not end, exits 1.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_stop.py [repetitions]``
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _common import (
    BenchmarkFailure,
    Report,
    load_average,
    main_guard,
    open_desktop,
    run_app,
    run_turn,
    server_process,
    settle,
    turn_end,
    wait_until,
)
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from desktop_agent.app import TurnInterrupted
from desktop_agent.ui.window import DesktopApp

REPETITIONS = 10
TARGET_MS = 100.0
FIRST_TOKEN_DELAY_S = 5.0
TOOL_COMMAND = "sleep 30"
TOOL_SETTLE_S = 0.1
SLOW_TEXT = " ".join(f"word{i}" for i in range(3000))
TOOL_REPLY = {
    "tool_calls": [{"name": "execute_shell_command", "arguments": {"command": TOOL_COMMAND}}]
}


@dataclass
class Phase:
    """One way of being busy when Stop comes."""

    name: str
    reply: dict[str, Any]
    reached: Callable[[DesktopApp], Awaitable[None]]
    repetitions: int | None = None  # default: the benchmark's
    latencies: list[float] = field(default_factory=list)


async def _request_sent(desktop: DesktopApp) -> None:
    await wait_until(lambda: desktop.service.busy, 5, "turn started")
    await asyncio.sleep(0.3)  # the request is out long before the first token (5 s)


async def _streaming(desktop: DesktopApp) -> None:
    def streamed() -> bool:
        entries = desktop.conversation.entries
        msg = entries[-1].msg if entries else None
        return (
            msg is not None and msg.role == "assistant" and len(msg.get_text_content() or "") > 40
        )

    await wait_until(streamed, 10, "the reply streams")


async def _tool_spawned(desktop: DesktopApp) -> None:
    await wait_until(lambda: bool(_sleep_children()), 10, f"{TOOL_COMMAND!r} runs")


async def _tool_running(desktop: DesktopApp) -> None:
    await wait_until(lambda: bool(_sleep_children()), 10, f"{TOOL_COMMAND!r} runs")
    # Past the tool's start-up: a Stop within the first milliseconds of the spawn, while
    # asyncio still connects the pipes, is a different case (see the report's notes).
    await asyncio.sleep(TOOL_SETTLE_S)


def _sleep_children() -> list[int]:
    """Processes running ``sleep 30`` whose parent or grandparent is this process."""
    me = os.getpid()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").strip()
            if cmdline != TOOL_COMMAND.encode() and not cmdline.endswith(b"-c sleep 30"):
                continue
            parent = _ppid(int(entry.name))
            if me in (parent, _ppid(parent)):
                found.append(int(entry.name))
        except (OSError, ValueError):
            continue
    return found


def _ppid(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def phases() -> list[Phase]:
    return [
        Phase(
            "waiting for the first token",
            {"text": "Too late.", "first_chunk_delay": FIRST_TOKEN_DELAY_S},
            _request_sent,
        ),
        Phase("mid-stream", {"text": SLOW_TEXT, "chunk_size": 8, "chunk_delay": 0.01}, _streaming),
        Phase("during a running tool", TOOL_REPLY, _tool_running),
        Phase("tool just spawned (pipes connecting)", TOOL_REPLY, _tool_spawned, 3),
    ]


# -- one stop ---------------------------------------------------------------------------------


async def measure_stop(desktop: DesktopApp, phase: Phase) -> float:
    """Start a turn, reach ``phase``, press Stop; seconds until the window is idle."""
    ended = turn_end(desktop)
    desktop.chat.send(f"please go on ({phase.name})")
    await phase.reached(desktop)
    turn = desktop.service._turn  # the turn task: its end is part of "idle"
    if turn is None or turn.done():
        raise BenchmarkFailure(f"{phase.name}: the turn ended before Stop")
    turn_done: list[float] = []
    turn.add_done_callback(lambda _task: turn_done.append(time.perf_counter()))
    composer = desktop.window.composer
    started = time.perf_counter()
    desktop.chat.stop()  # the Stop button's / Esc's slot
    ui_idle = time.perf_counter() if not composer.busy else None
    try:
        event = await asyncio.wait_for(ended, 5)
        await wait_until(lambda: bool(turn_done), 5, "turn task ended")
    except TimeoutError as exc:
        raise BenchmarkFailure(f"{phase.name}: the turn did not end after Stop") from exc
    if ui_idle is None or composer.send_button.text() != "Send":
        raise BenchmarkFailure(f"{phase.name}: the composer is not back to Send")
    if not isinstance(event, TurnInterrupted) or desktop.service.busy:
        raise BenchmarkFailure(f"{phase.name}: the turn ended with {event!r}, not interrupted")
    return max(ui_idle, turn_done[0]) - started


async def check_memory(desktop: DesktopApp) -> None:
    """Every tool_use in the agent's memory has its tool_result."""
    uses: set[str] = set()
    results: set[str] = set()
    for msg in await desktop.service.memory.get_memory():
        for block in msg.get_content_blocks():
            if block.get("type") == "tool_use":
                uses.add(str(block.get("id")))
            elif block.get("type") == "tool_result":
                results.add(str(block.get("id")))
    if uses - results:
        raise BenchmarkFailure(f"memory inconsistent: tool calls without result {uses - results}")


def answer_permissions(desktop: DesktopApp) -> None:
    """Click "Allow once" on every permission prompt (after it is shown)."""

    def on_dialog(dialog: Any) -> None:
        QTimer.singleShot(0, dialog.allow_once_button.click)

    desktop.permissions.dialog_opened.connect(on_dialog)


# -- main ---------------------------------------------------------------------------------------


async def run_phase(desktop: DesktopApp, phase: Phase) -> None:
    for _ in range(phase.repetitions or REPETITIONS):
        phase.latencies.append(await measure_stop(desktop, phase))
        await check_memory(desktop)
        await settle(0.1)


async def amain(app: QApplication, repetitions: int) -> int:
    plan = phases()
    for phase in plan:
        phase.repetitions = phase.repetitions or repetitions
    replies = [{"text": "Warm-up answer."}]
    for phase in plan:
        replies += [phase.reply] * (phase.repetitions or repetitions)
    loads = [load_average()]
    with server_process({"replies": replies}) as base_url:
        desktop = await open_desktop(base_url)
        try:
            answer_permissions(desktop)
            await run_turn(desktop, "Warm up.")
            for phase in plan:
                await run_phase(desktop, phase)
                loads.append(load_average())
            await settle(1.0)
            left = _sleep_children()
        finally:
            await desktop.aclose()
            desktop.window.close()
    report_results(plan, left, loads)
    if left:
        raise BenchmarkFailure(f"{len(left)} '{TOOL_COMMAND}' process(es) still run after Stop")
    return 0


def report_results(plan: list[Phase], left: list[int], loads: list[float]) -> None:
    report = Report("Stop → idle (median / max over the stops of each phase)")
    for phase in plan:
        median = statistics.median(phase.latencies) * 1000
        worst = max(phase.latencies) * 1000
        report.add(
            f"{phase.name} (×{len(phase.latencies)})",
            f"{median:.1f} / {worst:.1f} ms",
            f"≤ {TARGET_MS:.0f} ms",
            worst <= TARGET_MS,
        )
    stops = sum(len(phase.latencies) for phase in plan)
    report.note(
        f"memory consistent after every stop (each tool_use has its tool_result): yes "
        f"({stops} stops); '{TOOL_COMMAND}' processes left: {len(left)}"
    )
    report.note(
        "a Stop within milliseconds of the tool's spawn lands while asyncio connects the "
        "subprocess pipes; asyncio's clean-up then waits for pipes that never connected, and "
        "the turn ends only when ChatService cancels it after STOP_GRACE (0.25 s)"
    )
    report.note("load average (1 min): " + " → ".join(f"{x:.2f}" for x in loads))
    report.print()


def main() -> None:
    repetitions = int(sys.argv[1]) if len(sys.argv) > 1 else REPETITIONS
    main_guard(lambda: run_app(lambda app: amain(app, repetitions)))


if __name__ == "__main__":
    main()
