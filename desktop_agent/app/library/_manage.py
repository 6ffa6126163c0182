"""Renaming, deleting, restoring and adding sessions: the part of ``SessionLibrary`` that
manages saved sessions as a whole (``_library`` saves and loads the open ones).

``SessionManagement`` is ``SessionLibrary``'s base class: it works on the library's
state, which ``SessionLibrary`` creates.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import shortuuid

from desktop_agent._i18n import translate
from desktop_agent.app.library._errors import SessionError
from desktop_agent.app.library._lock import SessionLock
from desktop_agent.app.library._meta import SCHEMA_VERSION, SessionMeta, find_conversation
from desktop_agent.app.library._paths import SessionPaths, check_session_id
from desktop_agent.app.library._storage import Handoff, SessionStore
from desktop_agent.app.library._summary import SessionSummary, summary_from_entry

if TYPE_CHECKING:
    from desktop_agent.app.library._library import _OpenSession


class SessionManagement:
    """Titles, the trash, export and import of the sessions under a data root."""

    _paths: SessionPaths
    _store: SessionStore
    _open: dict[str, _OpenSession]
    _damaged: dict[str, SessionError]

    def _emit(
        self,
        kind: Any,
        session_id: str,
        summary: SessionSummary | None,
        error: SessionError | None = None,
    ) -> None:
        raise NotImplementedError  # SessionLibrary's

    def _new_open(self, session_id: str, meta: SessionMeta) -> _OpenSession:
        raise NotImplementedError  # SessionLibrary's

    # -- titles --------------------------------------------------------------------------

    async def rename(self, session_id: str, title: str) -> SessionSummary:
        """Give a session the user's title (kept from then on).

        Raises:
            ValueError: The title is empty.
            SessionNotFoundError, SessionCorruptError, SessionFromNewerVersionError,
            SessionLockedError, SessionSaveError.
        """
        title = " ".join(title.split())
        if not title:
            raise ValueError(translate("SessionLibrary", "A session title cannot be empty."))
        summary = await self._retitle(session_id, title, custom=True)
        assert summary is not None
        return summary

    async def refine_title(self, session_id: str, title: str) -> bool:
        """Set a better title (e.g. one the model suggested), unless the user chose one.

        Returns:
            Whether the title was changed.
        """
        title = " ".join(title.split())
        if not title:
            return False
        return await self._retitle(session_id, title, custom=False) is not None

    async def _retitle(self, session_id: str, title: str, *, custom: bool) -> SessionSummary | None:
        check_session_id(session_id)
        if session_id in self._damaged:
            raise fresh_error(self._damaged[session_id])
        session = self._open.get(session_id)
        if session is None:
            return await self._retitle_closed(session_id, title, custom)
        async with session.writing:
            if session.meta.title_is_custom and not custom:
                return None
            titled = _titled(title, custom)
            live = meta_state(session.meta)  # the file's meta may predate the journal
            entry = await asyncio.to_thread(
                self._store.retitle,
                session_id,
                session.lock,
                lambda _saved: titled(live),
                session.journal,
            )
            session.meta.title, session.meta.title_is_custom = title, custom
            session.stamp = entry["stamp"]
        return self._renamed(session_id, entry)

    async def _retitle_closed(
        self, session_id: str, title: str, custom: bool
    ) -> SessionSummary | None:
        skipped = False
        titled = _titled(title, custom)

        def update(meta: dict[str, Any]) -> dict[str, Any]:
            nonlocal skipped
            if meta.get("title_is_custom") and not custom:
                skipped = True
                return meta
            return titled(meta)

        lock = SessionLock(self._paths.lock(session_id))
        entry = await asyncio.to_thread(self._store.retitle, session_id, lock, update)
        return None if skipped else self._renamed(session_id, entry)

    def _renamed(self, session_id: str, entry: dict[str, Any]) -> SessionSummary:
        summary = summary_from_entry(session_id, entry)
        self._emit("renamed", session_id, summary)
        return summary

    # -- delete / trash ------------------------------------------------------------------

    async def delete(self, session_id: str) -> None:
        """Move a session to the trash (recoverable with :meth:`restore`).

        Stop its autosaver first. Deleting a damaged session is allowed (the user asked).

        Raises:
            SessionNotFoundError, SessionLockedError, SessionSaveError.
        """
        check_session_id(session_id)
        session = self._open.get(session_id)
        if session is None:
            lock = SessionLock(self._paths.lock(session_id))
            await asyncio.to_thread(self._store.to_trash, session_id, lock)
        else:
            async with session.writing:
                session.journal.close()
                await asyncio.to_thread(self._store.to_trash, session_id, session.lock)
            self._open.pop(session_id, None)
        self._damaged.pop(session_id, None)
        self._emit("deleted", session_id, None)

    async def restore(self, session_id: str) -> SessionSummary:
        """Bring a deleted session back from the trash.

        Raises:
            SessionNotFoundError: It is not in the trash.
            SessionError: A session with its id exists already.
            SessionSaveError: The files could not be moved.
        """
        check_session_id(session_id)
        entry = await asyncio.to_thread(self._store.restore, session_id)
        summary = summary_from_entry(session_id, entry)
        self._emit("restored", session_id, summary)
        return summary

    async def empty_trash(self) -> int:
        """Delete the trash for good; returns how many sessions it held."""
        return await asyncio.to_thread(self._store.empty_trash)

    # -- export / import (desktop_agent.app.transfer) ------------------------------------

    async def read_parts(self, session_id: str) -> dict[str, Any]:
        """A saved session's parts (``"meta"`` included), read without opening it.

        Saves are atomic, so this is one consistent version even while another window
        writes the session. Blob references point at this data root's files.

        Raises:
            SessionNotFoundError, SessionCorruptError, SessionFromNewerVersionError.
        """
        check_session_id(session_id)
        found = await asyncio.to_thread(self._store.read, session_id)
        return found.parts

    async def add(
        self,
        parts: dict[str, Any],
        meta: SessionMeta,
        session_id: str | None = None,
        *,
        index: bool = True,
        announce: bool = True,
    ) -> SessionSummary:
        """Write a new session from saved parts (an import, a restored backup); not opened.

        ``meta`` keeps its times and title; its message count is taken from the parts.
        Large base64 media become blob files as in :meth:`save`. For adding thousands at
        once: ``index=False`` leaves the index to the next :meth:`list`, and
        ``announce=False`` sends no ``"created"`` change (the caller reloads its list once).

        Raises:
            SessionError: A session with ``session_id`` exists already.
            SessionSaveError: The disk refused, or the parts are not JSON.
        """
        session_id = check_session_id(session_id or shortuuid.uuid())
        if self._paths.file(session_id).exists():
            raise SessionError(session_id, "A session with this id exists already.")
        states = {name: state for name, state in parts.items() if name != "meta"}
        meta.message_count = len(find_conversation(states))
        meta.schema_version = SCHEMA_VERSION
        session = self._new_open(session_id, meta)
        try:
            entry = await asyncio.to_thread(
                self._store.write,
                session_id,
                session.lock,
                session.scanner,
                meta_state(meta),
                Handoff(states),
                None,
                index=index,
            )
        finally:
            session.lock.release()
        summary = summary_from_entry(session_id, entry)
        if announce:
            self._emit("created", session_id, summary)
        return summary


def _titled(title: str, custom: bool) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda meta: {**meta, "title": title, "title_is_custom": custom}


def meta_state(meta: SessionMeta) -> dict[str, Any]:
    """A copy of the metadata's state (for a worker thread to write)."""
    return dict(meta.state_dict())


def fresh_error(error: SessionError) -> SessionError:
    """A new exception like ``error`` (an exception object is raised once)."""
    clone = type(error).__new__(type(error))
    clone.__dict__.update(error.__dict__)
    Exception.__init__(clone, error.message)
    return clone
