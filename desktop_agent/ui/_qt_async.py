"""Small bridges between Qt and asyncio: the app's event loop, task sets, dialogs.

- :class:`AppEventLoop` is ``qasync.QEventLoop`` plus the async-generator tracking that
  asyncio's own loops do in ``run_forever`` (qasync 0.28 skips it). Without it, an HTTP
  stream generator abandoned by a cancelled turn is finalized by the garbage collector
  *after* the loop is gone ("not in async context" at exit); with it, the loop closes
  such generators itself, and ``asyncio.Runner`` shuts the rest down before closing.
- :class:`TaskSet` keeps a strong reference to every task a controller starts (qasync
  0.28's ``asyncSlot`` does not) and cancels them on shutdown.
- :func:`dialog_result` shows a dialog with ``open()`` and returns a future for its result:
  ``QDialog.exec()`` inside a coroutine re-enters the event loop and hangs other tasks.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Coroutine
from typing import Any, TypeVar

import PySide6  # noqa: F401  (before qasync, so qasync binds to PySide6: qasync #23)
import qasync
from PySide6.QtWidgets import QDialog

from desktop_agent._logging import logger

T = TypeVar("T")


class AppEventLoop(qasync.QEventLoop):
    """The qasync loop, tracking async generators like asyncio's own loops do."""

    def run_forever(self) -> None:
        """Run the Qt event loop with this loop's async-generator hooks installed."""
        previous = sys.get_asyncgen_hooks()
        sys.set_asyncgen_hooks(
            firstiter=self._asyncgen_firstiter_hook, finalizer=self._asyncgen_finalizer_hook
        )
        try:
            super().run_forever()
        finally:
            sys.set_asyncgen_hooks(*previous)


class TaskSet:
    """Named tasks with strong references; failures are logged, never lost."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, T], name: str) -> asyncio.Task[T]:
        """Schedule ``coro`` on the running loop as a task named ``name``."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.error("Task %s failed", task.get_name(), exc_info=task.exception())

    def __len__(self) -> int:
        return len(self._tasks)

    async def cancel_all(self, timeout: float = 2.0) -> None:
        """Cancel every task and wait (bounded) for them to finish."""
        tasks = [t for t in self._tasks if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)


def dialog_result(dialog: QDialog) -> asyncio.Future[int]:
    """``dialog.open()`` it and return a future resolved with its result code.

    Cancelling the future rejects (closes) the dialog.
    """
    future: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def _on_finished(code: int) -> None:
        if not future.done():
            future.set_result(int(code))

    def _on_done(done: asyncio.Future[int]) -> None:
        if done.cancelled() and dialog.isVisible():
            dialog.reject()

    dialog.finished.connect(_on_finished)
    future.add_done_callback(_on_done)
    dialog.open()
    return future
