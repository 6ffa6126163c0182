"""Starts the desktop window: the one place the qasync event loop is created.

Start-up: ``QApplication`` → ``asyncio.Runner(loop_factory=AppEventLoop)`` (a
``qasync.QEventLoop``; Python 3.11; no event-loop policies) → the main coroutine builds and
shows the window, then finds the provider. After the first paint the sidebar is filled and
the last session reopened; then the heavy imports (``openai``, the agent core, ~0.75 s)
run in a worker thread (not sooner: they would share the GIL with the sessions loading).
Shut-down: closing the window (or SIGINT) sets an ``asyncio.Event``; the main coroutine
then cancels a running turn, closes the model client and returns while the loop still
runs — so no task is destroyed pending and no transport outlives its loop.

Environment hooks (benchmarks and tests; they do nothing unless set):

- ``DESKTOP_AGENT_BENCH_FIRST_PAINT=1``: print ``first-paint <time.monotonic()>`` on the
  first paint of the window, then quit.
- ``DESKTOP_AGENT_TEST_SEND=<text>``: send ``text`` once a provider is found; print
  ``streaming`` when the first answer chunk arrives.
- ``DESKTOP_AGENT_TEST_CLOSE_ON_STREAM=1``: close the window when the first chunk arrives.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import time

from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from desktop_agent._logging import logger
from desktop_agent._resources import resource_path
from desktop_agent._version import __version__
from desktop_agent.app import preload_agent_core
from desktop_agent.ui._qt_async import AppEventLoop, TaskSet
from desktop_agent.ui.window import DesktopApp

BENCH_FIRST_PAINT = "DESKTOP_AGENT_BENCH_FIRST_PAINT"
TEST_SEND = "DESKTOP_AGENT_TEST_SEND"
TEST_CLOSE_ON_STREAM = "DESKTOP_AGENT_TEST_CLOSE_ON_STREAM"

APP_ID = "io.github.desktop_agent.DesktopAgent"
"""Reverse-DNS id: the .desktop and AppStream file names in packaging/linux use it."""
ICON_SIZES = (16, 32, 48, 64, 128, 256, 512)


def run() -> int:
    """Run the application until its window is closed; returns the exit code."""
    _configure_logging()
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    describe_application(app)
    with asyncio.Runner(loop_factory=AppEventLoop) as runner:
        return runner.run(_amain(app))


async def _amain(app: QApplication) -> int:
    app.setQuitOnLastWindowClosed(False)  # closing the window must not stop the loop
    close_requested = asyncio.Event()
    _handle_sigint(close_requested)
    tasks = TaskSet()
    desktop = DesktopApp()
    desktop.window.close_requested.connect(close_requested.set)
    desktop.window.first_painted.connect(lambda: _on_first_paint(close_requested))
    desktop.sessions.ready.connect(lambda: _after_sessions(tasks, close_requested))
    _install_test_hooks(desktop)
    tasks.spawn(desktop.start(), "startup")
    await close_requested.wait()
    desktop.window.hide()
    await tasks.cancel_all()
    await desktop.aclose()
    return 0


def _on_first_paint(close_requested: asyncio.Event) -> None:
    if os.environ.get(BENCH_FIRST_PAINT):
        print(f"first-paint {time.monotonic():.6f}", flush=True)
        close_requested.set()


def _after_sessions(tasks: TaskSet, close_requested: asyncio.Event) -> None:
    """The sidebar is filled and the last session reopened: preload the agent core (a
    turn started before that imports it itself)."""
    if not close_requested.is_set():  # not while closing: the task would outlive the loop
        tasks.spawn(_preload(), "preload-agent-core")


async def _preload() -> None:
    try:
        await preload_agent_core()
    except ImportError as exc:  # reported again, readably, when a turn needs the core
        logger.warning("Could not preload the agent core: %s", exc)


def _handle_sigint(close_requested: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, close_requested.set)
    except (NotImplementedError, RuntimeError):  # Windows' proactor loop
        signal.signal(signal.SIGINT, lambda *_: loop.call_soon_threadsafe(close_requested.set))


def describe_application(app: QApplication) -> None:
    """Name the application and set its icon, so the desktop can show and match it."""
    app.setApplicationName("desktop-agent")
    app.setApplicationDisplayName("Desktop Agent")
    app.setOrganizationName("desktop-agent")
    app.setApplicationVersion(__version__)
    # Wayland and X11 docks match the window to packaging/linux/<APP_ID>.desktop by this.
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(application_icon())


def application_icon() -> QIcon:
    """The app icon from ``resources/icons``: a PNG per size (null if none is found)."""
    icon = QIcon()
    for size in ICON_SIZES:
        path = resource_path("icons", f"desktop-agent-{size}.png")
        if path.exists():
            icon.addFile(str(path), QSize(size, size))
    return icon


def _configure_logging() -> None:
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")


def _install_test_hooks(desktop: DesktopApp) -> None:
    text = os.environ.get(TEST_SEND)
    if not text:
        return
    close_on_stream = bool(os.environ.get(TEST_CLOSE_ON_STREAM))

    def on_provider(provider: object) -> None:
        if provider is not None and not desktop.chat.busy:
            desktop.chat.send(text)

    def on_change(_event: object) -> None:
        entries = desktop.conversation.entries
        if entries and entries[-1].msg is not None and entries[-1].msg.role == "assistant":
            unsubscribe()
            print("streaming", flush=True)
            if close_on_stream:
                desktop.window.close()

    desktop.settings.provider_changed.connect(on_provider)
    unsubscribe = desktop.conversation.subscribe(on_change)
