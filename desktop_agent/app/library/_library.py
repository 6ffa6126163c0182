"""``SessionLibrary``: the saved sessions of one data root, for the sidebar and autosave.

Only ``state_dict()`` / ``load_state_dict()`` run on the event loop (they touch live
objects); everything else (blobs, encoding, writing, parsing, listing, searching) runs
in worker threads via ``SessionStore``. A journal memory's messages are not even turned
into dicts on the loop: a checkpoint copies the list of its entries there, and the
worker makes their saved form (``checkpoint_parts``). Renaming, the trash, export and
import are in ``_manage`` (the base class). Each session file is ``{"meta": ..., <module>:
..., ...}``, exactly what ``JSONSession`` writes and reads, with ``"meta"`` first.

The cyclic garbage collector is paused from ``state_dict()`` until the write is done
(and from reading until ``load_state_dict()`` is done): the tens of thousands of objects
a long memory's state is made of are then freed by reference counting in the worker
thread, instead of being scanned on the loop, which would stall it longer than
``state_dict()`` itself.

Ownership: the process that created or loaded a session holds its lock and is its only
writer; another process loads it read-only. A damaged file or one from a newer version
is never written, moved or deleted unless the user asks for it (``replace_damaged``,
``delete``).
"""

from __future__ import annotations

import asyncio
import builtins
import logging
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import shortuuid

from desktop_agent._i18n import QT_TRANSLATE_NOOP, translate
from desktop_agent.app.library._errors import (
    SessionCorruptError,
    SessionError,
    SessionFromNewerVersionError,
)
from desktop_agent.app.library._files import SessionFile
from desktop_agent.app.library._journal import (
    JournalMemory,
    JournalWriter,
    checkpoint_parts,
    find_journal_memory,
    journal_delta,
    prepared_on_loop,
    read_with_journal,
)
from desktop_agent.app.library._lock import SessionLock
from desktop_agent.app.library._manage import SessionManagement, fresh_error, meta_state
from desktop_agent.app.library._meta import (
    SCHEMA_VERSION,
    SessionMeta,
    find_conversation,
    now_iso,
    title_from_conversation,
)
from desktop_agent.app.library._paths import SessionPaths, check_session_id, data_root
from desktop_agent.app.library._scan import BLOB_THRESHOLD, UNFINISHED_REPLY, StateScanner
from desktop_agent.app.library._search import find_in_sessions
from desktop_agent.app.library._storage import (
    Handoff,
    ListedEntry,
    SessionStore,
    journal_text,
)
from desktop_agent.app.library._summary import (
    LoadedSession,
    SessionChange,
    SessionStatus,
    SessionSummary,
    by_last_activity,
    summary_from_entry,
)
from desktop_agent.message import Msg
from desktop_agent.module import StateModule
from desktop_agent.session._json_codec import gc_paused

logger = logging.getLogger("desktop_agent")

_RESERVED_NAMES = frozenset({"meta", UNFINISHED_REPLY})
_LOCKED_TEXT = QT_TRANSLATE_NOOP(
    "SessionLibrary", "Open in another desktop-agent window (read-only here)."
)
_LOAD_ERRORS = (KeyError, TypeError, ValueError, AssertionError, AttributeError, IndexError)


@dataclass(eq=False)
class _OpenSession:
    meta: SessionMeta
    lock: SessionLock
    scanner: StateScanner
    journal: JournalWriter
    stamp: list[int] | None = None  # the file as last read or written here
    writing: asyncio.Lock = field(default_factory=asyncio.Lock)


class SessionLibrary(SessionManagement):
    """The saved sessions under a data root: list, create, save, load, rename, delete, search.

    Methods that touch files are coroutines whose blocking work runs in worker threads.
    """

    def __init__(
        self, root: str | os.PathLike[str] | None = None, *, blob_threshold: int = BLOB_THRESHOLD
    ) -> None:
        """Create the library.

        Args:
            root: The data root; default :func:`data_root` (``$DESKTOP_AGENT_HOME`` or the
                platform's user data folder). Sessions go to ``root/sessions``.
            blob_threshold: Base64 images/audio longer than this many characters are saved
                as files beside the session.
        """
        self.root = Path(root) if root is not None else data_root()
        self._paths = SessionPaths(self.root)
        self._store = SessionStore(self._paths)
        self._blob_threshold = blob_threshold
        self._open: dict[str, _OpenSession] = {}
        self._damaged: dict[str, SessionError] = {}
        self._listeners: builtins.list[Callable[[SessionChange], None]] = []

    @property
    def sessions_dir(self) -> Path:
        """The folder holding the session files (a ``JSONSession`` ``save_dir``)."""
        return self._paths.sessions

    @property
    def trash_dir(self) -> Path:
        """The folder holding deleted sessions."""
        return self._paths.trash

    def blobs_dir(self, session_id: str) -> Path:
        """The folder of a session's images and audio (its attachments are copied there)."""
        return self._paths.blobs(check_session_id(session_id))

    # -- events --------------------------------------------------------------------------

    def add_listener(self, listener: Callable[[SessionChange], None]) -> Callable[[], None]:
        """Call ``listener`` (on the event loop) after each change; returns its remover."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _emit(
        self,
        kind: Any,
        session_id: str,
        summary: SessionSummary | None,
        error: SessionError | None = None,
    ) -> None:
        change = SessionChange(kind, session_id, summary, error)
        for listener in builtins.list(self._listeners):
            try:
                listener(change)
            except Exception:
                logger.exception("A session list listener failed on %s", change)

    # -- listing -------------------------------------------------------------------------

    async def list(self) -> builtins.list[SessionSummary]:
        """Every session, most recent activity first, from the index.

        Only sessions whose file changed since the index was written are read (their
        first kilobytes), so this stays fast with hundreds of large sessions.
        """
        rows = await asyncio.to_thread(self._store.list_entries, self._held())
        # Sessions with a journal here: their file (and so the index) lags behind.
        live = {sid: session.meta for sid, session in self._open.items() if session.journal.records}
        return by_last_activity(
            [
                summary_from_entry(row.session_id, _entry_of(live[row.session_id]))
                if row.session_id in live
                else _summary(row)
                for row in rows
            ]
        )

    async def list_trash(self) -> builtins.list[SessionSummary]:
        """The deleted sessions that ``restore`` can bring back, most recent first."""
        rows = await asyncio.to_thread(self._store.trashed_entries)
        return by_last_activity([_summary(row) for row in rows])

    async def read_trashed(self, session_id: str) -> dict[str, Any]:
        """A deleted session's parts, read from the trash without restoring it (the
        Trash shows it read-only). Blob references are left as they are.

        Raises:
            SessionCorruptError: It is not in the trash, or cannot be read.
        """
        check_session_id(session_id)
        path = self._paths.file(session_id, self._paths.trash)
        try:
            found = await asyncio.to_thread(read_with_journal, path)
        except Exception as exc:  # missing, damaged, newer: the Trash says it cannot show it
            raise SessionCorruptError(
                session_id, str(path), str(exc) or type(exc).__name__
            ) from None
        return found.parts

    def _held(self) -> frozenset[str]:
        return frozenset(sid for sid, session in self._open.items() if session.lock.held)

    async def search(
        self, query: str, *, limit: int | None = None
    ) -> builtins.list[SessionSummary]:
        """Sessions whose title or text contains ``query`` (any case), most recent first.

        Content matches carry a ``snippet``. The text files are scanned in a worker
        thread, newest first, stopping at ``limit``; cancelling the call stops the scan.
        """
        needle = query.strip().lower()
        rows = await self.list()
        if not needle:
            return rows[:limit]
        cancelled = threading.Event()
        by_title = {row.session_id for row in rows if needle in row.title.lower()}
        searchable = [
            row.session_id for row in rows if row.status in (SessionStatus.OK, SessionStatus.LOCKED)
        ]
        try:
            snippets = await asyncio.to_thread(
                find_in_sessions, self._paths, searchable, needle, limit, cancelled
            )
        finally:
            cancelled.set()
        hits = [
            replace(row, snippet=snippets.get(row.session_id, ""))
            for row in rows
            if row.session_id in by_title or row.session_id in snippets
        ]
        return hits[:limit]

    # -- open sessions -------------------------------------------------------------------

    def is_open(self, session_id: str) -> bool:
        """Whether this library created or loaded the session (and has not closed it)."""
        return session_id in self._open

    def is_read_only(self, session_id: str) -> bool:
        """Whether an open session is held for writing by another process."""
        return not self._get_open(session_id).lock.held

    def meta(self, session_id: str) -> SessionMeta:
        """The live metadata of an open session (set ``model`` here before a save)."""
        return self._get_open(session_id).meta

    def _get_open(self, session_id: str) -> _OpenSession:
        session = self._open.get(check_session_id(session_id))
        if session is None:
            raise RuntimeError(f"Session {session_id!r} is not open: create() or load() it first.")
        return session

    def _new_open(self, session_id: str, meta: SessionMeta) -> _OpenSession:
        return _OpenSession(
            meta=meta,
            lock=SessionLock(self._paths.lock(session_id)),
            scanner=StateScanner(self._paths.blobs(session_id), self._blob_threshold),
            journal=JournalWriter(self._paths.journal(session_id)),
        )

    def journal_size(self, session_id: str) -> int:
        """The bytes of an open session's journal written since its last checkpoint here."""
        return self._get_open(session_id).journal.size

    async def close(self, session_id: str) -> None:
        """Stop writing a session: wait for a save in flight, then release its lock."""
        session = self._open.pop(check_session_id(session_id), None)
        if session is not None:
            async with session.writing:
                session.journal.close()
                session.lock.release()

    async def close_all(self) -> None:
        """Close every open session (at app shutdown)."""
        for session_id in builtins.list(self._open):
            await self.close(session_id)

    # -- create / save / load ------------------------------------------------------------

    async def create(self, title: str | None = None, model: str | None = None) -> str:
        """Create a session, write it and hold it; returns its id.

        Raises:
            SessionSaveError: It could not be written. The session is open in memory all
                the same (its id is ``error.session_id``); later saves retry.
        """
        session_id = shortuuid.uuid()
        now = now_iso()
        custom_title = (title or "").strip()
        meta = SessionMeta(
            title=custom_title,
            created=now,
            updated=now,
            model=model or "",
            title_is_custom=bool(custom_title),
        )
        session = self._new_open(session_id, meta)
        self._open[session_id] = session
        async with session.writing:
            entry = await asyncio.to_thread(
                self._store.write,
                session_id,
                session.lock,
                session.scanner,
                meta_state(meta),
                Handoff({}),
                None,
                journal=session.journal,
            )
            session.stamp = entry["stamp"]
        self._emit("created", session_id, summary_from_entry(session_id, entry))
        return session_id

    async def save(
        self,
        session_id: str,
        /,
        *,
        unfinished_reply: Msg | None = None,
        replace_damaged: bool = False,
        **modules: StateModule,
    ) -> SessionSummary:
        """Save an open session's modules (plus its metadata, as ``"meta"``).

        Only the ``state_dict()`` calls run on the event loop. The metadata's ``updated``
        and ``message_count`` are refreshed and, unless the user chose one, the title is
        taken from the first user message.

        Args:
            session_id: A session this library created or loaded.
            unfinished_reply: A reply still streaming, saved beside the modules (see
                :attr:`LoadedSession.unfinished_reply`).
            replace_damaged: The user chose to replace a session whose file could not be
                loaded; the damaged file is moved to the trash first, never deleted.
            **modules: The parts to save, e.g. ``agent=agent``.

        Raises:
            SessionCorruptError, SessionFromNewerVersionError: The session's file could not
                be loaded, so it is not overwritten (unless ``replace_damaged``).
            SessionLockedError: Another process has the session open for writing.
            SessionSaveError: The disk refused; the modules in memory are intact.
            RuntimeError: The session is neither created nor loaded here.
        """
        _check_modules(modules)
        session = self._open.get(check_session_id(session_id))
        if session is None:
            session = await self._reopen_damaged(session_id, replace_damaged)
        # A state_dict() of a long memory allocates objects by the ten thousand and they
        # live until the write is done: with the collector on, scanning them would stall
        # the loop for longer than state_dict() itself. Freed by reference counting after.
        memory = find_journal_memory(modules)
        async with session.writing:
            with gc_paused():
                try:
                    parts = self._checkpoint_parts(session, modules, memory)
                    if unfinished_reply is not None:
                        parts[UNFINISHED_REPLY] = unfinished_reply.to_dict()
                    states = Handoff(parts)
                    del parts  # from here on the worker holds the only reference: it frees them
                    entry = await asyncio.to_thread(
                        self._store.write,
                        session_id,
                        session.lock,
                        session.scanner,
                        meta_state(session.meta),
                        states,
                        session.stamp,
                        journal=session.journal,
                    )
                except BaseException:
                    if memory is not None:
                        memory.unsaved_from(0)
                    raise
            session.stamp = entry["stamp"]
        summary = summary_from_entry(session_id, entry)
        self._emit("saved", session_id, summary)
        return summary

    @staticmethod
    def _checkpoint_parts(
        session: _OpenSession, modules: dict[str, StateModule], memory: JournalMemory | None
    ) -> dict[str, Any]:
        """The modules' states for :meth:`save`, the metadata refreshed. A journal memory's
        content is only snapshot here (a copy of its entry list): the worker makes its
        saved form (see ``checkpoint_parts``)."""
        if memory is None:
            parts = {name: module.state_dict() for name, module in modules.items()}
            conversation = find_conversation(parts)
            _refresh_meta(session.meta, len(conversation), conversation)
            return parts
        memory.mark_saved()  # a failure marks it all unsaved again (see save)
        parts, entries = checkpoint_parts(memory, modules)
        _refresh_meta(session.meta, len(entries), ([msg.to_dict(), m] for msg, m in entries))
        return parts

    async def append(
        self,
        session_id: str,
        memory: JournalMemory,
        /,
        *,
        unfinished_reply: Msg | None = None,
        **modules: StateModule,
    ) -> SessionSummary:
        """Save what changed since the last save to the session's journal (an autosave
        whose cost follows the change; :meth:`save` writes the whole file, a checkpoint).

        Args:
            session_id: A session this library created or loaded (not damaged).
            memory: The journal-capable memory inside ``modules`` (its changes are taken).
            unfinished_reply: As for :meth:`save`.
            **modules: The parts, as for :meth:`save`.

        Raises:
            SessionLockedError, SessionSaveError, RuntimeError: As for :meth:`save`.
        """
        _check_modules(modules)
        session = self._get_open(session_id)
        async with session.writing:
            with gc_paused():
                at, add = memory.take_changes()
                try:
                    delta = journal_delta(memory, modules, at, add, unfinished_reply)
                    _refresh_meta(session.meta, at + len(add), add)
                    delta.parts = {"meta": meta_state(session.meta), **delta.parts}
                    record = prepared_on_loop(session.journal, delta)
                    text = journal_text(delta.add) if record is not None else None
                    await asyncio.to_thread(
                        self._store.append,
                        session_id,
                        session.lock,
                        session.scanner,
                        session.journal,
                        Handoff(delta),
                        record,
                        text,
                        session.stamp,
                    )
                except BaseException:
                    memory.unsaved_from(at)
                    raise
        summary = summary_from_entry(session_id, _entry_of(session.meta))
        self._emit("saved", session_id, summary)
        return summary

    async def _reopen_damaged(self, session_id: str, replace_damaged: bool) -> _OpenSession:
        error = self._damaged.get(session_id)
        if error is None:
            raise RuntimeError(f"Session {session_id!r} is not open: create() or load() it first.")
        if not replace_damaged:
            raise fresh_error(error)
        now = now_iso()
        session = self._new_open(session_id, SessionMeta(created=now, updated=now))
        await asyncio.to_thread(self._store.set_aside, session_id, session.lock)
        self._open[session_id] = session
        del self._damaged[session_id]
        return session

    async def load(self, session_id: str, /, **modules: StateModule) -> LoadedSession:
        """Load a session into ``modules`` (e.g. ``agent=agent``) and open it.

        Parts missing from the file are skipped, as ``JSONSession`` does. Older formats
        are migrated. If another process holds the session, it loads read-only.

        Raises:
            SessionNotFoundError: There is no such session.
            SessionCorruptError: The file is damaged or a part does not fit its module
                (which may then be partly loaded: discard it). The file is not touched.
            SessionFromNewerVersionError: The file comes from a newer app version.
        """
        _check_modules(modules)
        check_session_id(session_id)
        # The parsed state is garbage once loaded: it is dropped before the collector is
        # back on, so that the collector's next pass sees only what the modules kept.
        with gc_paused():
            found = await self._read(session_id)
            session = self._open.get(session_id) or self._new_open(session_id, SessionMeta())
            read_only_reason = await asyncio.to_thread(self._store.read_only_reason, session.lock)
            failure = _load_parts(session_id, self._paths.file(session_id), found.parts, modules)
            meta, stamp, generation = found.meta, found.stamp, found.generation
            unfinished = _unfinished(found.parts.get(UNFINISHED_REPLY))
            del found
        if failure is not None:
            if session_id not in self._open:
                session.lock.release()
            await self._remember_damaged(session_id, failure)
            raise failure
        session.meta, session.stamp = SessionMeta.from_state(meta), stamp
        session.journal.generation = generation
        memory = find_journal_memory(modules)
        if memory is not None:
            memory.mark_saved()  # what was loaded is on disk already
        self._open[session_id] = session
        self._damaged.pop(session_id, None)
        summary = summary_from_entry(session_id, _entry_of(session.meta))
        return LoadedSession(summary, bool(read_only_reason), unfinished, read_only_reason)

    async def _read(self, session_id: str) -> SessionFile:
        try:
            found = await asyncio.to_thread(self._store.read_handoff, session_id)
            return found.take()
        except (SessionCorruptError, SessionFromNewerVersionError) as exc:
            self._damaged[session_id] = exc
            self._emit("damaged", session_id, None, exc)
            raise

    async def _remember_damaged(self, session_id: str, error: SessionCorruptError) -> None:
        await asyncio.to_thread(self._store.damaged, session_id, error.reason)
        self._damaged[session_id] = error
        self._emit("damaged", session_id, None, error)


def _summary(row: ListedEntry) -> SessionSummary:
    summary = summary_from_entry(row.session_id, row.entry)
    if row.locked:
        return replace(
            summary, status=SessionStatus.LOCKED, error=translate("SessionLibrary", _LOCKED_TEXT)
        )
    return summary


def _check_modules(modules: dict[str, StateModule]) -> None:
    for name, module in modules.items():
        if name in _RESERVED_NAMES:
            raise ValueError(f"The name {name!r} is reserved by the session library.")
        if not isinstance(module, StateModule):
            raise TypeError(f"{name!r} must be a StateModule, got {type(module).__name__}.")


def _refresh_meta(meta: SessionMeta, count: int, added: Iterable[Any]) -> None:
    """Stamp a save: the message count, the time, the schema; a title from ``added`` (the
    messages saved) when the session has none yet."""
    meta.message_count = count
    meta.updated = now_iso()
    meta.schema_version = SCHEMA_VERSION
    if not meta.title and not meta.title_is_custom:
        meta.title = title_from_conversation(added)


def _load_parts(
    session_id: str, path: Path, parts: dict[str, Any], modules: dict[str, StateModule]
) -> SessionCorruptError | None:
    """Load each module's part; the error to raise if one does not fit."""
    for name, module in modules.items():
        if name not in parts:
            continue
        try:
            module.load_state_dict(parts[name])
        except Exception as exc:  # whatever the module rejects the state with
            reason = f"its part {name!r} does not fit ({type(exc).__name__}: {exc})"
            error = SessionCorruptError(session_id, str(path), reason)
            error.__cause__ = exc
            return error
    return None


def _entry_of(meta: SessionMeta) -> dict[str, Any]:
    return {**meta.state_dict(), "status": SessionStatus.OK.value, "error": ""}


def _unfinished(state: Any) -> Msg | None:
    if not isinstance(state, dict):
        return None
    try:
        return Msg.from_dict(state)
    except _LOAD_ERRORS:
        return None
