"""Reading session files: the cheap look the index needs, and the full read a load needs.

Both run in worker threads. The index look reads the first few kilobytes (the ``"meta"``
part opens every file this app writes) and the last few bytes (a file that does not end
with ``}`` was cut short); small files, files written by other tools (meta elsewhere, or
none: format 0) are parsed whole. Nothing here ever writes to a session file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from desktop_agent._i18n import translate
from desktop_agent.app.library._codec import (
    SessionDecodeError,
    decode_parts,
    ends_like_object,
    meta_from_prefix,
)
from desktop_agent.app.library._meta import META_DEFAULTS, SCHEMA_VERSION, meta_problem
from desktop_agent.app.library._migrations import migrate, schema_version_of
from desktop_agent.app.library._summary import SessionStatus

HEAD_BYTES = 8 * 1024
META_MAX_BYTES = 1024 * 1024
FULL_PARSE_MAX_BYTES = 256 * 1024
_TAIL_BYTES = 64


def stamp_of(stat: os.stat_result) -> list[int]:
    """What identifies one version of a file: size, mtime and inode.

    An atomic save replaces the file, so the inode changes even within one mtime tick.
    """
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino]


def file_time(stat: os.stat_result) -> str:
    """The file's modification time as ISO 8601 in UTC."""
    return datetime.fromtimestamp(stat.st_mtime, UTC).isoformat(timespec="milliseconds")


def damaged_entry(
    reason: str, stamp: list[int], meta: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An index entry for a file that cannot be opened, keeping what meta is known."""
    entry = entry_from_meta(meta or {}, stamp)
    entry.update(status=SessionStatus.CORRUPT.value, error=_sentence(reason))
    return entry


def _sentence(reason: str) -> str:
    return translate("SessionLibrary", "The session file is damaged: {reason}.").format(
        reason=reason
    )


def entry_from_meta(meta: dict[str, Any], stamp: list[int]) -> dict[str, Any]:
    """An index entry from (valid) metadata and the file's stamp."""
    entry = {key: meta.get(key, default) for key, default in META_DEFAULTS.items()}
    entry.update(status=SessionStatus.OK.value, error="", stamp=stamp)
    return entry


def newer_entry(meta: dict[str, Any], stamp: list[int]) -> dict[str, Any]:
    """An index entry for a session from a newer app version."""
    entry = entry_from_meta(meta, stamp)
    version = meta.get("schema_version")
    entry.update(
        status=SessionStatus.NEWER_SCHEMA.value,
        error=translate(
            "SessionLibrary",
            "Saved by a newer version of desktop-agent (format {version}); update the app "
            "to open it.",
        ).format(version=version),
    )
    return entry


def inspect(path: Path, stat: os.stat_result) -> dict[str, Any]:
    """The index entry for one session file, reading as little of it as possible."""
    stamp = stamp_of(stat)
    try:
        meta = _read_meta(path, stat)
    except (ValueError, TypeError) as exc:  # SessionDecodeError, or a failed migration
        return damaged_entry(str(exc), stamp)
    except OSError as exc:
        return damaged_entry(
            translate("SessionLibrary", "it cannot be read ({error})").format(
                error=exc.strerror or exc
            ),
            stamp,
        )
    problem = meta_problem(meta)
    if problem:
        return damaged_entry(problem, stamp)
    if meta["schema_version"] > SCHEMA_VERSION:
        return newer_entry(meta, stamp)
    return entry_from_meta(meta, stamp)


def _read_meta(path: Path, stat: os.stat_result) -> Any:
    with open(path, "rb") as file:
        head = file.read(HEAD_BYTES)
        if stat.st_size <= FULL_PARSE_MAX_BYTES:
            return _meta_of_whole(head + file.read(), stat)
        found = meta_from_prefix(head)
        while found is None and len(head) < META_MAX_BYTES and head.lstrip().startswith(b"{"):
            more = file.read(len(head))
            if not more:
                break
            head += more
            found = meta_from_prefix(head)
        if found is None:
            file.seek(0)
            return _meta_of_whole(file.read(), stat)
        file.seek(max(stat.st_size - _TAIL_BYTES, 0))
        if not ends_like_object(file.read()):
            raise SessionDecodeError(
                translate(
                    "SessionLibrary", "it was cut short (it does not end where the JSON closes)"
                )
            )
        return found[0]


def _meta_of_whole(data: bytes, stat: os.stat_result) -> Any:
    parts = decode_parts(data)
    version = schema_version_of(parts)
    if 0 <= version < SCHEMA_VERSION:
        parts = migrate(parts, version, file_time(stat))
    return parts.get("meta")


@dataclass(frozen=True, slots=True)
class SessionFile:
    """A fully read, validated and migrated session file."""

    parts: dict[str, Any]
    meta: dict[str, Any]
    stamp: list[int]
    has_blob_refs: bool
    generation: int = 0
    """The checkpoint's generation when its journal was replayed (see ``_journal``)."""


class NewerSchemaError(Exception):
    """The file's format is newer than ``SCHEMA_VERSION`` (carries the meta)."""

    def __init__(self, meta: dict[str, Any], stamp: list[int]) -> None:
        """Create the error."""
        super().__init__(meta.get("schema_version"))
        self.meta = meta
        self.stamp = stamp


def read_session_file(path: Path) -> SessionFile:
    """Read, validate and migrate a whole session file.

    Raises:
        FileNotFoundError: There is no such file.
        SessionDecodeError: It is damaged or of the wrong shape (with the reason).
        NewerSchemaError: It comes from a newer app version.
        OSError: It cannot be read.
    """
    with open(path, "rb") as file:
        stat = os.fstat(file.fileno())
        data = file.read()
    stamp = stamp_of(stat)
    parts = decode_parts(data)
    version = schema_version_of(parts)
    if version == -1 or (version > 0 and meta_problem(parts["meta"])):
        raise SessionDecodeError(
            meta_problem(parts["meta"])
            or translate("SessionLibrary", "its format version is invalid")
        )
    if version > SCHEMA_VERSION:
        raise NewerSchemaError(parts["meta"], stamp)
    try:
        parts = migrate(parts, version, file_time(stat))
    except (ValueError, TypeError, KeyError) as exc:
        raise SessionDecodeError(
            translate(
                "SessionLibrary", "it could not be upgraded from format {version} ({error})"
            ).format(version=version, error=exc)
        ) from None
    return SessionFile(parts, parts["meta"], stamp, b".blobs" in data)
