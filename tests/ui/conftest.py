"""The qasync harness for window tests (see shared/reference/qt-qasync-notes.md §2).

- Async tests (``async def``) under ``tests/ui`` run on a ``qasync.QEventLoop``: the
  ``pytest_asyncio_loop_factories`` hook below is defined in this conftest, and
  pytest-asyncio asks for it through ``item.ihook``, which only sees the conftests of the
  test's own folder. Tests elsewhere (the core's plain async tests, ``tests/app``) keep a
  plain asyncio loop.
- Sync tests that drive widgets with ``qtbot`` and need a running loop (``asyncSlot``,
  ``asyncio.get_running_loop()``) take the ``qloop`` fixture.
- In async tests never use ``qtbot.waitSignal``/``waitUntil`` (their nested Qt loop
  re-enters the running task and hangs); the ``wait_signal`` / ``wait_until``
  fixtures (awaitables) instead. Never ``loop.stop()`` in a teardown: outside ``exec()`` it calls
  ``QApplication.exit()``, and every later nested Qt loop returns at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import PySide6  # noqa: F401  (before qasync, so qasync binds to PySide6: qasync #23)
import pytest
import qasync
from PySide6.QtCore import QLocale, Qt, SignalInstance
from PySide6.QtWidgets import QApplication

from desktop_agent.ui._i18n import remove_translations
from desktop_agent.ui._qt_async import AppEventLoop

# Numbers and dates as on CI (no LANG: the C locale), whatever the developer's desktop.
QLocale.setDefault(QLocale.c())
_DEFAULT_LOCALE = QLocale()


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> Any:
    """Async tests in this folder run on a qasync loop over the one QApplication."""
    return {"qasync": _qasync_loop}


class _LoopOnlyTimer(qasync._SimpleTimer):  # type: ignore[misc]
    """qasync's callback timer, running callbacks only while their loop runs.

    pytest-qt calls ``processEvents()`` after each test phase (setup, call, teardown), when
    pytest-asyncio's loop is not running. A task step due then (the session library's
    start, scheduled by the window's first paint during a fixture) ran without a running
    loop and failed ("no running event loop" in ``asyncio.to_thread``): a test failing only
    on a loaded machine. Such callbacks now wait, their timers left armed, until the loop
    runs again (the app's loop always runs, so this is a test-harness matter only).
    """

    def timerEvent(self, event: Any) -> None:
        if asyncio.events._get_running_loop() is None:
            return
        super().timerEvent(event)


class _TestQEventLoop(AppEventLoop):
    """A qasync loop that leaves nothing behind for the next test's loop.

    qasync runs ``call_later`` callbacks on Qt timers of a private ``QObject``; closing the
    loop leaves those timers registered until they fire. If the closed loop is then
    garbage-collected while Qt delivers one of them, Qt touches a deleted object and the
    process segfaults (seen: a 1.5 s ``asyncio.wait`` timeout outliving its test). So on
    close the timers are killed at once. Callbacks run only while the loop runs
    (:class:`_LoopOnlyTimer`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._timer = _LoopOnlyTimer()

    def close(self) -> None:
        timer = self._timer
        callbacks = timer._SimpleTimer__callbacks
        for timer_id in list(callbacks):
            timer.killTimer(timer_id)
        callbacks.clear()
        super().close()


def _qasync_loop() -> qasync.QEventLoop:
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    # As in the app: closing the last window (a dialog, say) must not end the loop.
    app.setQuitOnLastWindowClosed(False)
    return _TestQEventLoop(app)


@pytest.fixture
def qasync_loop_factory() -> Callable[[], qasync.QEventLoop]:
    """How this harness makes each async test's loop (not running until run)."""
    return _qasync_loop


@pytest.fixture
def qloop(qapp: QApplication) -> Iterator[qasync.QEventLoop]:
    """A qasync loop marked running, for sync tests driven by ``qtbot``."""
    qapp.setQuitOnLastWindowClosed(False)
    loop = _TestQEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        for task in [t for t in asyncio.all_tasks(loop) if not t.done()]:
            task.cancel()
        qapp.processEvents()
        loop._QEventLoop__is_running = False  # type: ignore[attr-defined]  # close() w/o app.exit()
        asyncio.events._set_running_loop(None)
        loop.close()
        asyncio.set_event_loop(None)


def _wait_signal(signal: SignalInstance, timeout: float = 5.0) -> Awaitable[tuple[Any, ...]]:
    """An awaitable for the arguments of the next emission of ``signal``.

    It connects at once, so ``opened = wait_signal(sig)`` *before* the action that emits,
    then ``await opened`` — an emission in between is not missed.
    """
    future: asyncio.Future[tuple[Any, ...]] = asyncio.get_running_loop().create_future()

    def _on_emit(*args: Any) -> None:
        if not future.done():
            future.set_result(args)

    signal.connect(_on_emit)

    async def _wait() -> tuple[Any, ...]:
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            signal.disconnect(_on_emit)

    return _wait()


async def _wait_until(
    condition: Callable[[], object], timeout: float = 5.0, interval: float = 0.005
) -> None:
    """Return once ``condition()`` is truthy; fail after ``timeout`` seconds.

    For states with no signal of their own (a widget's text after a model update).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        await asyncio.sleep(interval)


@pytest.fixture(name="wait_signal")
def wait_signal_fixture() -> Callable[..., Any]:
    """``opened = wait_signal(widget.some_signal)``, act, then ``await opened`` → arguments."""
    return _wait_signal


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """A test that installs a language (a ``DesktopApp`` does) leaves no trace in the next."""
    yield
    remove_translations()
    QLocale.setDefault(_DEFAULT_LOCALE)
    if QApplication.instance() is not None:
        QApplication.setLayoutDirection(Qt.LayoutDirection.LeftToRight)


@pytest.fixture(name="wait_until")
def wait_until_fixture() -> Callable[..., Any]:
    """``await wait_until(lambda: condition)``."""
    return _wait_until
