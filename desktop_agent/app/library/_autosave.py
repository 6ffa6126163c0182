"""``Autosaver``: keeps one open session saved while the user chats.

Saves are coalesced: while a reply streams, changes are saved at most once per
``interval`` and at least once per ``interval`` (so a crash loses at most about that
much); a finished message is saved as soon as the save in flight (if any) is done. One
named task runs the saves, so there is never more than one in flight and each save takes
the state as it is when it starts: the latest state wins. A failed save is reported to
``on_error`` and retried later; the session in memory keeps working.

When the session's memory tracks its changes (``SessionMemory``), a save appends what
changed to the session's journal (``SessionLibrary.append``: its cost follows the
change, not the chat). The whole file is rewritten (a checkpoint, ``SessionLibrary.save``)
once nothing has changed for ``checkpoint_after`` seconds and no reply is streaming,
when the journal has grown past ``journal_limit`` bytes (four times that while a reply
streams), on :meth:`checkpoint` and on :meth:`aclose`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable, Mapping

from desktop_agent.app.library._errors import SessionError, SessionSaveError
from desktop_agent.app.library._journal import JOURNAL_LIMIT, find_journal_memory
from desktop_agent.app.library._library import SessionLibrary
from desktop_agent.app.library._summary import SessionSummary
from desktop_agent.message import Msg
from desktop_agent.module import StateModule

logger = logging.getLogger("desktop_agent")

_MAX_RETRY_DELAY = 30.0


class Autosaver:
    """Saves a session after every finished message and regularly while one streams."""

    def __init__(
        self,
        library: SessionLibrary,
        session_id: str,
        modules: Mapping[str, StateModule],
        *,
        interval: float = 1.0,
        on_error: Callable[[SessionError], None] | None = None,
        on_saved: Callable[[SessionSummary], None] | None = None,
        checkpoint_after: float = 10.0,
        journal_limit: int = JOURNAL_LIMIT,
    ) -> None:
        """Create the autosaver (its task starts with the first change).

        Args:
            library: The library the session is open in.
            session_id: The session.
            modules: What to save, e.g. ``{"agent": agent}``.
            interval: Longest time a change stays unsaved while changes keep coming.
            on_error: Called (on the loop) with each failed save's error.
            on_saved: Called (on the loop) with the session's row after each save.
            checkpoint_after: Seconds without a change (and no reply streaming) after
                which the journal is folded into a rewrite of the whole file.
            journal_limit: Journal bytes after which the next save rewrites the file.
        """
        self.library = library
        self.session_id = session_id
        self.modules = dict(modules)
        self.interval = interval
        self.on_error = on_error
        self.on_saved = on_saved
        self.checkpoint_after = checkpoint_after
        self.journal_limit = journal_limit
        self.saves = 0
        self.checkpoints = 0
        self.last_error: SessionError | None = None
        self._memory = find_journal_memory(self.modules)
        self._journaled = False  # the journal holds changes the file does not
        self._checkpoint_wanted = False
        self._unfinished: Msg | None = None
        self._changes = 0
        self._saved_changes = 0
        self._urgent = False
        self._retry_delay = 0.0
        self._last_start = -math.inf
        self._wake = asyncio.Event()
        self._hurry = asyncio.Event()
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def pending(self) -> bool:
        """Whether some change is not saved yet."""
        return self._saved_changes < self._changes

    def changed(self, unfinished_reply: Msg | None = None) -> None:
        """Something changed (e.g. a streamed chunk): save within ``interval``.

        Args:
            unfinished_reply: The reply being streamed, saved beside the modules until
                :meth:`message_finished`; it is read at save time, not copied now.
        """
        if unfinished_reply is not None:
            self._unfinished = unfinished_reply
        self._note(urgent=False)

    def message_finished(self) -> None:
        """A message is complete (and in memory): save it as soon as possible."""
        self._unfinished = None
        self._note(urgent=True)

    def _note(self, *, urgent: bool) -> None:
        if self._closed:
            raise RuntimeError(f"The autosaver of session {self.session_id!r} is closed.")
        self._changes += 1
        self._urgent = self._urgent or urgent
        self._wake.set()
        if urgent:
            self._hurry.set()
        self._ensure_task()

    def _ensure_task(self) -> None:
        """Start the save task, or start it again if it died (e.g. Qt stepped it while no
        asyncio loop was running, between two ``run_until_complete`` calls in tests): a
        waiter in :meth:`flush` must never wait for a task that is gone."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name=f"autosave {self.session_id}")

    async def flush(self) -> None:
        """Wait until every change made so far has been saved (or its save has failed)."""
        target = self._changes
        if self._saved_changes >= target:
            return
        self._urgent = True
        self._hurry.set()
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((target, waiter))
        self._ensure_task()
        await waiter

    async def checkpoint(self) -> None:
        """Save now by rewriting the whole file, if the journal holds changes or a change
        is pending (e.g. the app is idle, or the user asked)."""
        if not (self._journaled or self.pending) or self._closed:
            return
        self._checkpoint_wanted = True
        self._note(urgent=True)
        await self.flush()

    async def aclose(self) -> None:
        """Save what is pending and fold the journal into the file (one checkpoint, after
        the save in flight if any), then stop."""
        if self._closed:
            return
        self._checkpoint_wanted = True  # what is pending is saved by a checkpoint
        await self.flush()
        await self.checkpoint()  # if the journal still holds changes (an append was in flight)
        self._closed = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if await self._wait_for_work(loop):
                self._checkpoint_wanted = True  # idle: fold the journal into the file
            self._wake.clear()
            self._hurry.clear()
            target, self._urgent = self._changes, False
            self._last_start = loop.time()
            retry = await self._save_once()
            self._saved_changes = max(self._saved_changes, target)
            self._wake_waiters()
            self._retry_delay = _next_delay(self._retry_delay, self.interval) if retry else 0.0

    async def _wait_for_work(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Wait until a save is due; whether it is an idle checkpoint."""
        if (
            self._journaled
            and not self.pending
            and not self._retry_delay
            and self._unfinished is None
        ):
            try:
                async with asyncio.timeout(self.checkpoint_after):
                    await self._wake.wait()
            except TimeoutError:
                return True
        elif self._retry_delay and not self.pending:
            # The last save failed and nothing changed since: retry after a while.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._retry_delay):
                    await self._wake.wait()
        else:
            await self._wake.wait()
        delay = self._last_start + max(self.interval, self._retry_delay) - loop.time()
        if not self._urgent and delay > 0:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await self._hurry.wait()
        return False

    async def _save_once(self) -> bool:
        """Save once; whether to retry without a new change (the disk refused)."""
        try:
            summary = await self._journal_or_checkpoint()
        except SessionError as exc:
            self._report(exc)
            return isinstance(exc, SessionSaveError)
        except Exception as exc:  # a bug must not stop autosaving: report it, keep going
            logger.exception("Autosave of session %r failed", self.session_id)
            self._checkpoint_wanted = True  # the plain way next time
            self._report(SessionSaveError(self.session_id, f"{type(exc).__name__}: {exc}"))
            return False
        self.saves += 1
        self.last_error = None
        if self.on_saved is not None:
            self.on_saved(summary)
        return False

    async def _journal_or_checkpoint(self) -> SessionSummary:
        memory = self._memory
        # While a reply streams the journal may grow to 4x the limit: a checkpoint then
        # would stall the loop the stream paints on.
        limit = self.journal_limit * (4 if self._unfinished is not None else 1)
        if (
            memory is not None
            and not self._checkpoint_wanted
            and self.library.is_open(self.session_id)
            and self.library.journal_size(self.session_id) < limit
        ):
            summary = await self.library.append(
                self.session_id, memory, unfinished_reply=self._unfinished, **self.modules
            )
            self._journaled = True
            return summary
        summary = await self.library.save(
            self.session_id,
            unfinished_reply=self._unfinished,
            replace_damaged=False,
            **self.modules,
        )
        self._journaled = self._checkpoint_wanted = False
        self.checkpoints += 1
        return summary

    def _report(self, error: SessionError) -> None:
        self.last_error = error
        if self.on_error is not None:
            self.on_error(error)

    def _wake_waiters(self) -> None:
        remaining = []
        for target, waiter in self._waiters:
            if self._saved_changes >= target:
                if not waiter.done():
                    waiter.set_result(None)
            else:
                remaining.append((target, waiter))
        self._waiters = remaining


def _next_delay(previous: float, interval: float) -> float:
    return min(max(previous * 2, interval), _MAX_RETRY_DELAY)
