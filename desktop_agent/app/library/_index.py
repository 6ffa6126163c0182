"""The index: ``sessions/index.json``, one small entry per session, for the sidebar.

The index is a cache of each file's metadata, keyed by session id and stamped with the
file's size, mtime and inode. Listing reads it and ``stat``s the folder; only files
whose stamp differs (saved by another process, added, restored) or that have no entry
are inspected, and entries of vanished files are dropped. A missing or unreadable index
is simply an empty one, so it is rebuilt from the files.

Writers merge: under ``index.lock`` they re-read the index, apply only their own changes
and replace it atomically, so two processes never lose each other's entries. A change is
skipped when the entry on disk already describes the file as it is now.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import orjson

from desktop_agent.app.library._files import inspect, stamp_of
from desktop_agent.app.library._lock import index_lock
from desktop_agent.app.library._paths import FolderScan, SessionPaths
from desktop_agent.session._atomic_write import atomic_write_bytes
from desktop_agent.session._json_codec import gc_paused

logger = logging.getLogger("desktop_agent")

INDEX_FORMAT = 1

Entries = dict[str, dict[str, Any]]


def read_index(path: Path) -> Entries | None:
    """The index's entries, or ``None`` if it is missing, unreadable or of another format."""
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(data, dict) or data.get("format") != INDEX_FORMAT:
        return None
    sessions = data.get("sessions")
    if not isinstance(sessions, dict):
        return None
    return {k: v for k, v in sessions.items() if isinstance(v, dict)}


def write_changes(
    paths: SessionPaths, changes: dict[str, dict[str, Any] | None], *, always: bool = False
) -> None:
    """Merge ``changes`` (``None`` removes an entry) into the index on disk.

    Args:
        paths: The data root's files.
        changes: New entries by session id.
        always: Write even without changes (to replace a missing or unreadable index).

    Raises:
        OSError: The index could not be written.
    """
    if not changes and not always:
        return
    with index_lock(paths.index_lock):
        entries = read_index(paths.index) or {}
        for session_id, entry in changes.items():
            _merge(paths, entries, session_id, entry)
        atomic_write_bytes(paths.index, orjson.dumps({"format": INDEX_FORMAT, "sessions": entries}))


def _merge(
    paths: SessionPaths, entries: Entries, session_id: str, entry: dict[str, Any] | None
) -> None:
    try:
        current_stamp: list[int] | None = stamp_of(paths.file(session_id).stat())
    except OSError:
        current_stamp = None
    if entry is None or current_stamp is None:
        if current_stamp is None:
            entries.pop(session_id, None)
        return
    existing = entries.get(session_id)
    if existing and existing.get("stamp") == current_stamp and entry["stamp"] != current_stamp:
        return  # another writer already indexed the newer file
    entries[session_id] = entry


def reconcile(paths: SessionPaths, scan: FolderScan) -> Entries:
    """The entries of every session in ``scan``, refreshing the index where it is stale."""
    index = read_index(paths.index)
    known = index or {}
    files = scan.sessions
    entries: Entries = {}
    changes: dict[str, dict[str, Any] | None] = {}
    # Parsing many files makes short-lived objects by the million; a cyclic collection
    # triggered meanwhile would scan the whole heap while holding the GIL (~50 ms).
    with gc_paused():
        for session_id, stat in files.items():
            entry = known.get(session_id)
            if entry is None or entry.get("stamp") != stamp_of(stat):
                entry = inspect(paths.file(session_id), stat)
                changes[session_id] = entry
            entries[session_id] = entry
    changes.update({session_id: None for session_id in known if session_id not in files})
    if changes or (index is None and paths.sessions.is_dir()):
        try:
            write_changes(paths, changes, always=True)
        except OSError as exc:
            logger.warning("Could not update the session index %s: %s", paths.index, exc)
    return entries
