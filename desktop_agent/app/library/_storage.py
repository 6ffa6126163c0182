"""The blocking half of the library: every file operation, run in worker threads.

``SessionLibrary`` (on the event loop) takes ``state_dict()`` snapshots and hands them
here; scanning for blobs, encoding, writing, reading, parsing and moving files happen in
these methods, which translate ``OSError`` and bad files into the library's errors.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from desktop_agent._i18n import QT_TRANSLATE_NOOP, translate
from desktop_agent.app.library._codec import (
    SessionDecodeError,
    dumps,
    encode_session,
    encode_session_chunks,
    meta_from_prefix,
)
from desktop_agent.app.library._errors import (
    SessionCorruptError,
    SessionError,
    SessionFromNewerVersionError,
    SessionLockedError,
    SessionNotFoundError,
    SessionSaveError,
)
from desktop_agent.app.library._files import (
    NewerSchemaError,
    SessionFile,
    damaged_entry,
    entry_from_meta,
    inspect,
    newer_entry,
    stamp_of,
)
from desktop_agent.app.library._index import reconcile, write_changes
from desktop_agent.app.library._journal import (
    GENERATION_PART,
    JournalDelta,
    JournalWriter,
    Record,
    complete_content,
    journal_meta,
    long_items_of,
    next_generation,
    read_with_journal,
)
from desktop_agent.app.library._lock import SessionLock, locked_elsewhere
from desktop_agent.app.library._meta import (
    META_DEFAULTS,
    SCHEMA_VERSION,
    message_dict,
    meta_problem,
    now_iso,
)
from desktop_agent.app.library._paths import SessionPaths
from desktop_agent.app.library._scan import (
    UNFINISHED_REPLY,
    StateScanner,
    relocate_blobs,
    search_text,
)
from desktop_agent.app.library._search import encode_text, encode_texts
from desktop_agent.app.library._summary import SessionStatus
from desktop_agent.session._atomic_write import atomic_write_bytes

logger = logging.getLogger("desktop_agent")


Entry = dict[str, Any]
T = TypeVar("T")


LOCKED_ELSEWHERE = QT_TRANSLATE_NOOP(
    "SessionLibrary",
    "This session is open in another desktop-agent window, so it is read-only here: "
    "new messages cannot be saved. Close it there, or start a new chat.",
)
READ_ONLY_FOLDER = QT_TRANSLATE_NOOP(
    "SessionLibrary",
    "This session is read-only here: the data folder {folder} cannot be written "
    "({reason}), so new messages could not be saved. Make the folder writable, then open "
    "the session again.",
)


def reason_of(exc: OSError) -> str:
    """A short text for an ``OSError``: the system's message, else the error itself."""
    return exc.strerror or str(exc) or type(exc).__name__


class Handoff(Generic[T]):
    """A value handed to a worker thread, which takes it.

    The executor keeps a call's arguments until its thread moves on, a moment after the
    caller resumes; a large state passed directly would still be alive when the caller
    turns the garbage collector back on, and be scanned. Taken, it dies in the worker.
    """

    def __init__(self, value: T) -> None:
        """Hold ``value`` until :meth:`take`."""
        self._value: T | None = value

    def take(self) -> T:
        """The value (once)."""
        value, self._value = self._value, None
        assert value is not None, "a Handoff is taken once"
        return value


@dataclass(frozen=True, slots=True)
class ListedEntry:
    """An index entry and whether another process holds the session."""

    session_id: str
    entry: Entry
    locked: bool


class SessionStore:
    """Blocking session file operations under one data root."""

    def __init__(self, paths: SessionPaths) -> None:
        """Create the store.

        Args:
            paths: The data root's files.
        """
        self.paths = paths

    # -- listing -------------------------------------------------------------------------

    def list_entries(self, held: frozenset[str]) -> list[ListedEntry]:
        """Every session's entry (refreshing the index) and whether it is locked elsewhere.

        Args:
            held: Sessions this process holds (never probed).
        """
        scan = self.paths.scan()
        for leftover in scan.leftovers:
            with contextlib.suppress(OSError):
                os.unlink(leftover)
        rows = []
        for session_id, entry in reconcile(self.paths, scan).items():
            if session_id in scan.journals and session_id not in held:
                entry = self._with_journal_meta(session_id, entry)
            locked = (
                session_id in scan.locks
                and session_id not in held
                and entry.get("status") == SessionStatus.OK.value
                and locked_elsewhere(self.paths.lock(session_id))
            )
            rows.append(ListedEntry(session_id, entry, locked))
        return rows

    def _with_journal_meta(self, session_id: str, entry: Entry) -> Entry:
        """``entry`` updated from the session's journal (its file lags behind)."""
        if entry.get("status") != SessionStatus.OK.value:
            return entry
        try:
            meta = journal_meta(self.paths.file(session_id))
        except OSError:
            return entry
        if meta is None or meta_problem(meta):
            return entry
        return entry_from_meta(meta, entry["stamp"])

    def trashed_entries(self) -> list[ListedEntry]:
        """The sessions in the trash."""
        return [
            ListedEntry(
                session_id, inspect(self.paths.file(session_id, self.paths.trash), st), False
            )
            for session_id, st in self.paths.session_ids(self.paths.trash).items()
        ]

    # -- writing -------------------------------------------------------------------------

    def write(
        self,
        session_id: str,
        lock: SessionLock,
        scanner: StateScanner,
        meta: dict[str, Any],
        parts: Handoff[dict[str, Any]],
        expected: list[int] | None,
        *,
        index: bool = True,
        journal: JournalWriter | None = None,
    ) -> Entry:
        """Write a session (blobs, file, search text) and index it (unless ``index=False``:
        many new sessions at once, indexed by the next listing).

        The file is a checkpoint of the next generation: once it is durable, the
        session's journal is deleted (see ``_journal``).

        Args:
            session_id: The session.
            lock: Its lock, taken if not held yet.
            scanner: Its scanner.
            meta: The metadata state.
            parts: The other parts' states (taken, so they are freed here).
            expected: The stamp of the file as this process last read or wrote it
                (``None``: no file yet); checked when the lock is newly taken.
            journal: The session's journal writer (default: a new one).

        Raises:
            SessionLockedError: Another process holds the session, or changed it since
                this process read it.
            SessionSaveError: The disk refused, or the state is not JSON-serializable.
        """
        states = parts.take()
        try:
            self._take(session_id, lock, expected)
            complete_content(states)
            scan = scanner.scan(states)
            journal = journal or JournalWriter(self.paths.journal(session_id))
            generation = next_generation(journal)
            saved = {"meta": meta, **scan.parts}
            if generation:
                saved[GENERATION_PART] = {"generation": generation}
            data = encode_session_chunks(saved, scan.long_items)
            path = self.paths.file(session_id)
            atomic_write_bytes(path, data)
            journal.discard(generation)
            entry = entry_from_meta(meta, stamp_of(path.stat()))
        except OSError as exc:
            raise SessionSaveError(session_id, reason_of(exc)) from exc
        except (TypeError, ValueError) as exc:
            reason = f"part of the state cannot be stored as JSON ({exc})"
            raise SessionSaveError(session_id, reason) from exc
        self._write_derived(session_id, scan.texts, entry if index else None)
        return entry

    def append(
        self,
        session_id: str,
        lock: SessionLock,
        scanner: StateScanner,
        journal: JournalWriter,
        delta: Handoff[JournalDelta],
        record: Record | None = None,
        text: bytes | None = None,
        expected: list[int] | None = None,
    ) -> int:
        """Append one autosave's changes to the session's journal (fsynced); the bytes
        written. The new messages' text is added to the search text. ``expected``: the
        file's stamp when it was loaded or last saved here — a file changed elsewhere since
        is not journaled over (as :meth:`save` refuses to overwrite it).

        Args:
            session_id: The session.
            lock: Its lock (held).
            scanner: Its scanner (large binaries become blob files).
            journal: Its journal writer.
            delta: The changes (taken here).
            record: ``delta`` already encoded (with nothing to move to blob files), and
                ``text`` its search text: only written here.

        Raises:
            SessionLockedError: Another process holds the session.
            SessionSaveError: The disk refused, or the state is not JSON-serializable.
        """
        change = delta.take()
        try:
            self._take(session_id, lock, expected)
            if record is None:
                change.add = scanner.walk(change.add)
                change.parts = {name: scanner.walk(s) for name, s in change.parts.items()}
                long_items = long_items_of([*change.add, change.parts.get(UNFINISHED_REPLY)])
                record, text = journal.prepare(change, long_items), journal_text(change.add)
            written = journal.write(record)
        except OSError as exc:
            raise SessionSaveError(session_id, reason_of(exc)) from exc
        except (TypeError, ValueError) as exc:
            reason = f"part of the state cannot be stored as JSON ({exc})"
            raise SessionSaveError(session_id, reason) from exc
        if text:
            self._append_text(session_id, text)
        return written

    def _append_text(self, session_id: str, text: bytes) -> None:
        """Add messages' text to the search text (a cache: the next checkpoint rewrites it,
        dropping the text of messages replaced since)."""
        with contextlib.suppress(OSError):
            path = self.paths.text(session_id)
            if path.exists():
                with open(path, "ab") as file:
                    file.write(text)

    def _write_derived(self, session_id: str, texts: list[str], entry: Entry | None) -> None:
        """The search text and the index entry: caches, rebuilt from the file if lost."""
        try:
            atomic_write_bytes(self.paths.text(session_id), encode_texts(texts))
            if entry is not None:
                write_changes(self.paths, {session_id: entry})
        except OSError as exc:
            logger.warning(
                "Session %s saved, but not its index or search text: %s", session_id, exc
            )

    def _take(self, session_id: str, lock: SessionLock, expected: list[int] | None = None) -> None:
        self.paths.sessions.mkdir(parents=True, exist_ok=True)
        if lock.held:
            return
        if not lock.acquire():
            raise SessionLockedError(session_id)
        if expected is not None and self._stamp(session_id) not in (expected, None):
            lock.release()
            raise SessionLockedError(session_id, changed=True)

    def _stamp(self, session_id: str) -> list[int] | None:
        try:
            return stamp_of(self.paths.file(session_id).stat())
        except FileNotFoundError:
            return None

    # -- reading -------------------------------------------------------------------------

    def read(self, session_id: str) -> SessionFile:
        """Read a whole session, validated, migrated, its blob references relocated.

        Raises:
            SessionNotFoundError: There is no such session.
            SessionCorruptError: It is damaged (the index is told so; the file is not touched).
            SessionFromNewerVersionError: It comes from a newer app version.
        """
        path = self.paths.file(session_id)
        try:
            found = read_with_journal(path)
        except FileNotFoundError:
            raise _not_found(session_id) from None
        except SessionDecodeError as exc:
            raise self.damaged(session_id, str(exc)) from None
        except NewerSchemaError as exc:
            self._index_quietly(session_id, newer_entry(exc.meta, exc.stamp))
            version = int(exc.meta["schema_version"])
            raise SessionFromNewerVersionError(session_id, version, SCHEMA_VERSION) from None
        except OSError as exc:
            raise self.damaged(
                session_id,
                translate("SessionLibrary", "it cannot be read ({error})").format(
                    error=reason_of(exc)
                ),
            ) from None
        if found.has_blob_refs:
            relocate_blobs(found.parts, self.paths.blobs(session_id))
        return found

    def read_handoff(self, session_id: str) -> Handoff[SessionFile]:
        """:meth:`read`, handed off (see :class:`Handoff`)."""
        return Handoff(self.read(session_id))

    def damaged(self, session_id: str, reason: str) -> SessionCorruptError:
        """Record in the index that a session is damaged; the error to raise."""
        path = self.paths.file(session_id)
        with contextlib.suppress(OSError):
            stat = path.stat()
            known = inspect(path, stat)
            meta = known if known.get("status") == SessionStatus.OK.value else None
            self._index_quietly(session_id, damaged_entry(reason, stamp_of(stat), meta))
        return SessionCorruptError(session_id, str(path), reason)

    def _index_quietly(self, session_id: str, entry: Entry) -> None:
        with contextlib.suppress(OSError):  # a read-only folder: the index stays as it was
            write_changes(self.paths, {session_id: entry})

    def acquire(self, lock: SessionLock) -> bool:
        """Take a session lock; ``False`` if another process has it or it cannot be made."""
        return self.read_only_reason(lock) == ""

    def read_only_reason(self, lock: SessionLock) -> str:
        """Take a session lock; ``""`` if held, else why the session is read-only here."""
        try:
            if lock.acquire():
                return ""
        except OSError as exc:  # a read-only or full data folder: no lock file
            return translate("SessionLibrary", READ_ONLY_FOLDER).format(
                folder=self.paths.sessions, reason=reason_of(exc)
            )
        return translate("SessionLibrary", LOCKED_ELSEWHERE)

    # -- titles --------------------------------------------------------------------------

    def retitle(
        self,
        session_id: str,
        lock: SessionLock,
        update: Callable[[dict[str, Any]], Any],
        journal: JournalWriter | None = None,
    ) -> Entry:
        """Rewrite a session's meta with ``update(meta)``; the rest of the file is kept.

        Args:
            session_id: The session.
            lock: Its lock (taken for the call if not held).
            update: Makes the new meta from the old.
            journal: The journal writer of a session open here: a journal it has keeps
                going, with the new meta appended (replay would restore the old one).
                Without it, a journal left behind is merged into the file first.

        Raises:
            SessionNotFoundError, SessionCorruptError, SessionFromNewerVersionError,
            SessionLockedError, SessionSaveError.
        """
        held_before = lock.held
        try:
            self._take(session_id, lock)
            if journal is None and self.paths.journal(session_id).exists():
                return self._retitle_merged(session_id, update)
            entry = self._retitle_locked(session_id, update, journal)
            if journal is not None and journal.path.exists():
                meta = {key: entry[key] for key in META_DEFAULTS if key in entry}
                journal.append(JournalDelta(None, parts={"meta": meta}))
            return entry
        except OSError as exc:
            raise SessionSaveError(session_id, reason_of(exc)) from exc
        finally:
            if not held_before:
                lock.release()

    def _retitle_locked(
        self,
        session_id: str,
        update: Callable[[dict[str, Any]], Any],
        journal: JournalWriter | None,
    ) -> Entry:
        """Rewrite the meta at the start of the file, the rest byte for byte; a file whose
        meta does not come first (not written here) is rewritten whole (a checkpoint)."""
        path = self.paths.file(session_id)
        try:
            data = path.read_bytes()
            stat = path.stat()
        except FileNotFoundError:
            raise _not_found(session_id) from None
        self._refuse_if_unreadable(session_id, path, stat)
        found = meta_from_prefix(data)
        if found is None or meta_problem(found[0]):
            return self._retitle_merged(session_id, update, journal)
        meta = update(found[0])
        atomic_write_bytes(path, b'{"meta":' + dumps(meta) + data[found[1] :])
        entry = entry_from_meta(meta, stamp_of(path.stat()))
        write_changes(self.paths, {session_id: entry})
        return entry

    def _retitle_merged(
        self,
        session_id: str,
        update: Callable[[dict[str, Any]], Any],
        journal: JournalWriter | None = None,
    ) -> Entry:
        """Retitle by rewriting the whole file, its journal merged into it: a checkpoint of
        the next generation (so that records appended later are not taken for records the
        file already holds), then the journal is deleted.

        Args:
            session_id: The session.
            update: Makes the new meta from the old.
            journal: The journal writer of a session open here (its generation follows).
        """
        found = self.read(session_id)
        meta = update(found.parts["meta"])
        generation = {"generation": found.generation + 1}
        path = self.paths.file(session_id)
        parts = {"meta": meta, **found.parts, GENERATION_PART: generation}
        parts["meta"] = meta  # first in the file, as written here: the next retitle is short
        atomic_write_bytes(path, encode_session(parts))
        (journal or JournalWriter(self.paths.journal(session_id))).discard(generation["generation"])
        entry = entry_from_meta(meta, stamp_of(path.stat()))
        write_changes(self.paths, {session_id: entry})
        return entry

    def _refuse_if_unreadable(self, session_id: str, path: Path, stat: os.stat_result) -> None:
        entry = inspect(path, stat)
        if entry["status"] == SessionStatus.NEWER_SCHEMA.value:
            version = int(entry["schema_version"])
            raise SessionFromNewerVersionError(session_id, version, SCHEMA_VERSION)
        if entry["status"] != SessionStatus.OK.value:
            raise SessionCorruptError(session_id, str(path), entry["error"])

    # -- trash ---------------------------------------------------------------------------

    def to_trash(self, session_id: str, lock: SessionLock) -> None:
        """Move a session (file, text, blobs) to the trash and drop it from the index.

        Raises:
            SessionNotFoundError, SessionLockedError, SessionSaveError.
        """
        try:
            self._take(session_id, lock)
            try:
                if not self.paths.file(session_id).exists():
                    raise _not_found(session_id)
                self._move_all(session_id, self.paths.sessions, self.paths.trash, file_first=True)
                write_changes(self.paths, {session_id: None})
            finally:
                lock.release()
        except OSError as exc:
            raise SessionSaveError(session_id, reason_of(exc)) from exc

    def set_aside(self, session_id: str, lock: SessionLock) -> None:
        """Take the lock and move a damaged session file to the trash, under a name of its own.

        Raises:
            SessionLockedError: Another process holds the session.
            SessionSaveError: The file could not be moved.
        """
        try:
            self._take(session_id, lock)
            self.paths.trash.mkdir(parents=True, exist_ok=True)
            stamp = now_iso().replace(":", "").replace("+", "Z")
            target = self.paths.trash / f"{session_id}.damaged-{stamp}.json"
            os.replace(self.paths.file(session_id), target)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise SessionSaveError(session_id, reason_of(exc)) from exc

    def restore(self, session_id: str) -> Entry:
        """Move a session back from the trash and index it.

        Raises:
            SessionNotFoundError: It is not in the trash.
            SessionError: A session with this id exists already.
            SessionSaveError: The files could not be moved.
        """
        trashed = self.paths.file(session_id, self.paths.trash)
        if not trashed.exists():
            raise SessionNotFoundError(
                session_id, translate("SessionLibrary", "This session is not in the trash.")
            )
        if self.paths.file(session_id).exists():
            raise SessionError(
                session_id, translate("SessionLibrary", "A session with this id exists already.")
            )
        try:
            self.paths.sessions.mkdir(parents=True, exist_ok=True)
            self._move_all(session_id, self.paths.trash, self.paths.sessions, file_first=False)
            path = self.paths.file(session_id)
            entry = inspect(path, path.stat())
            write_changes(self.paths, {session_id: entry})
        except OSError as exc:
            raise SessionSaveError(session_id, reason_of(exc)) from exc
        return entry

    def _move_all(self, session_id: str, source: Path, target: Path, *, file_first: bool) -> None:
        target.mkdir(parents=True, exist_ok=True)
        # The session file marks a session as present: it leaves the sessions folder
        # first and comes back last, so an interrupted move never lists it without blobs.
        names = [self.paths.file, self.paths.journal, self.paths.text, self.paths.blobs]
        for name in names if file_first else reversed(names):
            origin, destination = name(session_id, source), name(session_id, target)
            if not origin.exists():
                continue
            if destination.is_dir():
                shutil.rmtree(destination)
            os.replace(origin, destination)

    def empty_trash(self) -> int:
        """Delete everything in the trash; the number of sessions it held.

        Raises:
            SessionSaveError: Something could not be deleted.
        """
        count = len(self.paths.session_ids(self.paths.trash))
        try:
            for entry in list(os.scandir(self.paths.trash)):
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
        except FileNotFoundError:
            return 0
        except OSError as exc:
            raise SessionSaveError("", reason_of(exc)) from exc
        return count


def journal_text(entries: list[Any]) -> bytes:
    """The search text of journaled messages, to append to the session's text file."""
    messages = [message for message in map(message_dict, entries) if message is not None]
    text = "\n".join(filter(None, (search_text(m.get("content")) for m in messages)))
    return encode_text("\n" + text) if text else b""


def _not_found(session_id: str) -> SessionNotFoundError:
    return SessionNotFoundError(session_id, f"There is no session {session_id!r}.")
