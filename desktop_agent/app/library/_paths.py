"""Where sessions live: one data root that every part of the app agrees on.

Layout under the root::

    sessions/index.json          the sidebar's index (a cache, rebuilt from the files)
    sessions/index.lock          serializes index writers across processes
    sessions/<id>.json           the session, ``{"meta": ..., "agent": ..., ...}``
    sessions/<id>.journal        changes since the file was last written (``_journal``)
    sessions/<id>.search.txt     its plain text, for content search
    sessions/<id>.blobs/         large images and audio, named by their SHA-256
    sessions/<id>.lock           held by the process that has the session open to write
    trash/                       deleted sessions (same names), until the trash is emptied
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from desktop_agent.app._files import data_dir

LEFTOVER_AGE = 3600.0
"""Seconds after which a temporary file of an interrupted write is removed."""

_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")
_RESERVED_IDS = frozenset({"index"})


data_root = data_dir
"""The app's data folder: ``$DESKTOP_AGENT_HOME`` if set, else the platform's."""


def is_session_id(name: str) -> bool:
    """Whether ``name`` can be a session id (and so a file name stem)."""
    return _ID_PATTERN.fullmatch(name) is not None and name not in _RESERVED_IDS


def check_session_id(session_id: object) -> str:
    """Return ``session_id`` if it is valid.

    Raises:
        ValueError: It is not a string of letters, digits, ``-`` and ``_`` (1-128 long,
            not starting with ``-`` or ``_``), or it is a reserved name.
    """
    if not isinstance(session_id, str) or not is_session_id(session_id):
        raise ValueError(
            f"Invalid session id {session_id!r}: use 1-128 letters, digits, '-' or '_'."
        )
    return session_id


@dataclass(frozen=True)
class SessionPaths:
    """The files of a data root."""

    root: Path

    @property
    def sessions(self) -> Path:
        """The sessions folder."""
        return self.root / "sessions"

    @property
    def trash(self) -> Path:
        """The trash folder."""
        return self.root / "trash"

    @property
    def index(self) -> Path:
        """The index file."""
        return self.sessions / "index.json"

    @property
    def index_lock(self) -> Path:
        """The lock file serializing index writers."""
        return self.sessions / "index.lock"

    def file(self, session_id: str, folder: Path | None = None) -> Path:
        """The session file (in ``folder``, default the sessions folder)."""
        return (folder or self.sessions) / f"{session_id}.json"

    def journal(self, session_id: str, folder: Path | None = None) -> Path:
        """The session's journal: changes appended since its file was last written."""
        return journal_of(self.file(session_id, folder))

    def text(self, session_id: str, folder: Path | None = None) -> Path:
        """The session's plain-text search file."""
        return (folder or self.sessions) / f"{session_id}.search.txt"

    def blobs(self, session_id: str, folder: Path | None = None) -> Path:
        """The folder of the session's large binaries."""
        return (folder or self.sessions) / f"{session_id}.blobs"

    def lock(self, session_id: str) -> Path:
        """The session's lock file."""
        return self.sessions / f"{session_id}.lock"

    def scan(self, folder: Path | None = None) -> FolderScan:
        """One pass over ``folder`` (default the sessions folder): sessions, locks, debris."""
        return scan_folder(folder or self.sessions)

    def session_ids(self, folder: Path | None = None) -> dict[str, os.stat_result]:
        """The sessions in ``folder`` (default the sessions folder) and their ``stat``."""
        return self.scan(folder).sessions


def journal_of(session_file: Path) -> Path:
    """The journal beside a session file (``<id>.json`` -> ``<id>.journal``)."""
    return session_file.with_suffix(".journal")


@dataclass(frozen=True)
class FolderScan:
    """What a sessions folder holds.

    Attributes:
        sessions: Each session's id and its file's ``stat``.
        locks: The sessions that have a lock file (perhaps stale).
        leftovers: Temporary files of writes that were interrupted long ago.
        journals: The sessions that have a journal (changes not in their file yet).
    """

    sessions: dict[str, os.stat_result]
    locks: frozenset[str]
    leftovers: list[str]
    journals: frozenset[str] = frozenset()


def scan_folder(folder: Path, leftover_age: float = LEFTOVER_AGE) -> FolderScan:
    """Scan ``folder`` once (a missing folder is empty)."""
    sessions: dict[str, os.stat_result] = {}
    locks: set[str] = set()
    journals: set[str] = set()
    leftovers: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return FolderScan(sessions, frozenset(), leftovers)
    too_old = time.time() - leftover_age
    for entry in entries:
        stem, _, ext = entry.name.rpartition(".")
        try:
            if ext == "json" and is_session_id(stem):
                sessions[stem] = entry.stat()
            elif ext == "lock" and is_session_id(stem):
                locks.add(stem)
            elif ext == "journal" and is_session_id(stem):
                journals.add(stem)
            elif ext == "tmp" and entry.name.startswith(".") and entry.stat().st_mtime < too_old:
                leftovers.append(entry.path)
        except FileNotFoundError:
            continue
    return FolderScan(sessions, frozenset(locks), leftovers, frozenset(journals))
