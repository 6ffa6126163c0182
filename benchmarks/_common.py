"""Shared helpers of the window benchmarks (``bench_stream_ui``, ``bench_stop``, ``bench_idle``).

What every one of them needs, measured the way ``shared/reference/qt-qasync-notes.md`` §6
describes: the loopback OpenAI-compatible server in a *separate process* (so it never
competes for our GIL), the real :class:`DesktopApp` on the app's own qasync loop, a 5 ms
``PreciseTimer`` heartbeat on the GUI thread whose gaps are the GUI stalls, and a results
table with the SPEC §7 target and PASS/MISS on every line.

Import this module first: it sets ``QT_QPA_PLATFORM=offscreen`` (unless set) and points
``DESKTOP_AGENT_HOME`` at a temporary folder, so a benchmark never touches the user's data.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_HOME = tempfile.TemporaryDirectory(prefix="desktop-agent-bench-")
os.environ["DESKTOP_AGENT_HOME"] = _HOME.name
os.environ["DESKTOP_AGENT_DISABLE_CONSOLE_OUTPUT"] = "true"

from PySide6.QtCore import QElapsedTimer, QObject, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from desktop_agent.app import TurnFailed, TurnFinished, TurnInterrupted  # noqa: E402
from desktop_agent.ui._qt_async import AppEventLoop  # noqa: E402
from desktop_agent.ui.window import DesktopApp  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
WINDOW_SIZE = (1000, 750)
MODEL = "test-model"
ENDINGS = (TurnFinished, TurnFailed, TurnInterrupted)


class BenchmarkFailure(RuntimeError):
    """A functional failure: the benchmark could not measure (exit status 1)."""


# -- statistics and the results table ----------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) by nearest rank; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def load_average() -> float:
    """The one-minute load average."""
    return os.getloadavg()[0]


def rss_mb() -> float:
    """This process's resident set size, in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class Row:
    """One line of the results table; ``ok`` is ``None`` for a figure without a target."""

    what: str
    value: str
    target: str = ""
    ok: bool | None = None


@dataclass
class Report:
    """The results table of a benchmark."""

    title: str
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, what: str, value: str, target: str = "", ok: bool | None = None) -> None:
        """Add a line (``ok`` decides PASS/MISS; ``None`` prints no verdict)."""
        self.rows.append(Row(what, value, target, ok))

    def note(self, text: str) -> None:
        """Add a free-text line printed under the table."""
        self.notes.append(text)

    def print(self) -> None:
        """Print the table, then the notes."""
        width = max([len(r.what) for r in self.rows] + [10])
        value_width = max([len(r.value) for r in self.rows] + [10])
        target_width = max([len(r.target) for r in self.rows] + [6])
        print(f"\n== {self.title}")
        print(f"{'what':<{width}}  {'measured':>{value_width}}  {'target':<{target_width}}  result")
        print("-" * (width + value_width + target_width + 14))
        for row in self.rows:
            verdict = "" if row.ok is None else ("PASS" if row.ok else "MISS")
            print(
                f"{row.what:<{width}}  {row.value:>{value_width}}  "
                f"{row.target:<{target_width}}  {verdict}"
            )
        for text in self.notes:
            print(f"  {text}")
        sys.stdout.flush()


# -- the loopback server in its own process ----------------------------------------------


@contextmanager
def server_process(script: dict[str, Any]) -> Iterator[str]:
    """Run ``python -m desktop_agent.testing.server`` with ``script``; yield its base URL."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "script.json"
        path.write_text(json.dumps(script), encoding="utf-8")
        command = [sys.executable, "-m", "desktop_agent.testing.server", "--script", str(path)]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        try:
            assert process.stdout is not None
            base_url = process.stdout.readline().strip()
            if not base_url.startswith("http"):
                raise BenchmarkFailure(f"the test server did not start (got {base_url!r})")
            yield base_url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# -- the GUI-thread heartbeat -------------------------------------------------------------


class Heartbeat(QObject):
    """A 5 ms ``PreciseTimer`` on the GUI thread recording the gaps between its ticks."""

    def __init__(self, interval_ms: int = 5) -> None:
        super().__init__()
        self.gaps: list[float] = []
        self._clock = QElapsedTimer()
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        """Forget earlier gaps and start ticking."""
        self.gaps.clear()
        self._clock.start()
        self._timer.start()

    def stop(self) -> list[float]:
        """Stop ticking; the gaps in milliseconds."""
        self._timer.stop()
        return list(self.gaps)

    def _tick(self) -> None:
        self.gaps.append(self._clock.nsecsElapsed() / 1e6)
        self._clock.restart()


def gap_summary(gaps: Sequence[float]) -> tuple[float, float, float]:
    """p50, p99 and max of heartbeat gaps (ms)."""
    return percentile(gaps, 0.5), percentile(gaps, 0.99), max(gaps, default=0.0)


# -- the application ----------------------------------------------------------------------


def run_app(amain: Callable[[QApplication], Coroutine[Any, Any, int]]) -> int:
    """Run ``amain(app)`` on the app's own loop (``asyncio.Runner`` + ``AppEventLoop``)."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setQuitOnLastWindowClosed(False)
    with asyncio.Runner(loop_factory=AppEventLoop) as runner:
        return runner.run(amain(app))


def provider_environ(base_url: str) -> dict[str, str]:
    """The environment that makes the window use the loopback server."""
    return {"OPENAI_BASE_URL": base_url, "OPENAI_API_KEY": "sk-bench", "DESKTOP_AGENT_MODEL": MODEL}


async def open_desktop(
    base_url: str | None, before_show: Callable[[DesktopApp], object] | None = None
) -> DesktopApp:
    """The real window at ``WINDOW_SIZE``, shown, with its provider resolved
    (``before_show(desktop)`` is called just before it is shown)."""
    environ = provider_environ(base_url) if base_url else {}
    desktop = DesktopApp(
        settings_path=Path(_HOME.name) / "settings.json", environ=environ, local_servers=[]
    )
    desktop.window.resize(*WINDOW_SIZE)
    if before_show is not None:
        before_show(desktop)
    provider = await desktop.start()
    if base_url and provider is None:
        raise BenchmarkFailure("the window found no provider")
    await settle(0.3)
    return desktop


async def settle(seconds: float) -> None:
    """Let the loop run (paint, deferred deletes) for ``seconds``."""
    await asyncio.sleep(seconds)


def turn_end(desktop: DesktopApp) -> asyncio.Future[Any]:
    """A future for the event that ends the next turn."""
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def on_event(event: object) -> None:
        if isinstance(event, ENDINGS) and not future.done():
            future.set_result(event)
            desktop.chat.turn_event.disconnect(on_event)

    desktop.chat.turn_event.connect(on_event)
    return future


async def run_turn(desktop: DesktopApp, text: str, timeout: float = 30.0) -> Any:
    """Send ``text`` and wait for the turn to end; the ending event."""
    ended = turn_end(desktop)
    desktop.chat.send(text)
    try:
        return await asyncio.wait_for(ended, timeout)
    except TimeoutError as exc:
        raise BenchmarkFailure(f"the turn for {text!r} did not end within {timeout} s") from exc


async def wait_until(condition: Callable[[], object], timeout: float, what: str) -> None:
    """Poll ``condition`` every 2 ms; :class:`BenchmarkFailure` after ``timeout`` s."""
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise BenchmarkFailure(f"{what}: not reached within {timeout} s")
        await asyncio.sleep(0.002)


def main_guard(body: Callable[[], int]) -> None:
    """Run ``body``; exit 1 (with the reason) on a functional failure."""
    try:
        code = body()
    except BenchmarkFailure as exc:
        print(f"FUNCTIONAL FAILURE: {exc}", flush=True)
        code = 1
    sys.exit(code)


# -- generated content ----------------------------------------------------------------------

_TOKEN = re.compile(r" *[^ \n]+|\n| +")
_SECTION = (
    "## Section {i}: handling request type {i}\n\n"
    "This paragraph explains **point {i}** in some detail, with `inline_code_{i}()`, a "
    "[link](https://example.com/docs/{i}) and *enough words* to wrap across several lines "
    "of the chat pane at its usual width, so that layout has real work to do.\n\n"
    "- first item of list {i}, short\n"
    "- second item with *emphasis* and `code`\n"
    "- third item that is a bit longer than the others and wraps\n\n"
    "1. step one of {i}\n2. step two of {i}\n3. step three\n\n"
    "| key | value | note |\n|-----|-------|------|\n"
    "| a{i} | {i} | first |\n| b{i} | {i}{i} | second |\n| c{i} | 0x{i:x} | third |\n\n"
    "```python\n"
    "def handler_{i}(request):\n"
    "    data = request.json()\n"
    "    if not data:\n"
    "        raise ValueError('empty body {i}')\n"
    "    return {{'ok': True, 'id': {i}, 'items': [x * 2 for x in data]}}\n"
    "```\n\n"
    "> A quoted remark about section {i}, with **bold** text.\n\n"
)


def markdown_tokens(count: int) -> list[str]:
    """A deterministic Markdown reply of ``count`` tokens (words with their leading space,
    newlines on their own), like a tokenizer would stream it."""
    tokens: list[str] = []
    section = 0
    while len(tokens) < count:
        tokens += _TOKEN.findall(_SECTION.format(i=section))
        section += 1
    return tokens[:count]


def cold_start(home: Path, timeout: float = 120) -> float:
    """Seconds from spawning ``python -m desktop_agent`` (data in ``home``) to its first
    painted window, which the app prints when ``DESKTOP_AGENT_BENCH_FIRST_PAINT`` is set.

    Raises:
        BenchmarkFailure: The app exited without printing its first paint.
    """
    env = {
        # Bytecode is written, as an installed app has it: with PYTHONDONTWRITEBYTECODE
        # set (as in some shells here), every module edited since its .pyc was written
        # would be compiled again on each start (~300 ms for all of them).
        **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
        "DESKTOP_AGENT_HOME": str(home),
        "DESKTOP_AGENT_BENCH_FIRST_PAINT": "1",
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
        "OPENAI_API_KEY": "bench",
    }
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "desktop_agent"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    for line in done.stdout.splitlines():
        if line.startswith("first-paint "):
            return float(line.split()[1]) - started
    raise BenchmarkFailure(f"no first-paint line (exit {done.returncode}):\n{done.stderr}")
