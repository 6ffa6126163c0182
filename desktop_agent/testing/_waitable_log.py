"""A thread-safe, append-only log that code on any event loop (or thread) can wait on.

The test server appends from its own thread; tests wait from theirs — plain asyncio,
qasync, or synchronous code. Async waiters are woken with ``call_soon_threadsafe`` on
the loop they wait on, so no polling and no sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Generic, TypeVar

_T = TypeVar("_T")


class WaitableLog(Generic[_T]):
    """Items in arrival order; ``next``/``next_sync`` return each item once, in order."""

    def __init__(self) -> None:
        self._items: list[_T] = []
        self._cursor = 0
        self._condition = threading.Condition()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def append(self, item: _T) -> None:
        with self._condition:
            self._items.append(item)
            self._condition.notify_all()
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_resolve, future)

    def snapshot(self) -> list[_T]:
        with self._condition:
            return list(self._items)

    def clear(self) -> None:
        with self._condition:
            self._items.clear()
            self._cursor = 0

    def _take(self) -> _T | None:
        if self._cursor < len(self._items):
            self._cursor += 1
            return self._items[self._cursor - 1]
        return None

    async def next(self, timeout: float, what: str) -> _T:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            with self._condition:
                item = self._take()
                if item is not None:
                    return item
                future: asyncio.Future[None] = loop.create_future()
                self._waiters.append((loop, future))
            remaining = deadline - loop.time()
            try:
                await asyncio.wait_for(future, max(remaining, 0))
            except TimeoutError:
                raise TimeoutError(f"No {what} within {timeout:g} s.") from None

    def next_sync(self, timeout: float, what: str) -> _T:
        with self._condition:
            if not self._condition.wait_for(lambda: self._cursor < len(self._items), timeout):
                raise TimeoutError(f"No {what} within {timeout:g} s.")
            item = self._take()
            assert item is not None
            return item


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
