"""Older session formats, brought up to date on load.

``MIGRATIONS[n]`` turns a state of format ``n`` into format ``n + 1``; loading applies
them in order up to ``SCHEMA_VERSION`` and never writes the result back by itself (the
next save writes the current format). Each released format has a frozen file in
``tests/fixtures/sessions/`` that must keep loading.

Format 0 is a plain AgentScope ``JSONSession`` file (``{"agent": {...}}``, no metadata).
Format 1 adds the ``"meta"`` part (``SessionMeta``), first in the file.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from desktop_agent.app.library._meta import (
    SCHEMA_VERSION,
    SessionMeta,
    find_conversation,
    message_dict,
    title_from_conversation,
)

Migration = Callable[[dict[str, Any], str], dict[str, Any]]
"""``(parts, file_time) -> parts``; ``file_time`` is the file's mtime (ISO 8601)."""


def _from_0_to_1(parts: dict[str, Any], file_time: str) -> dict[str, Any]:
    conversation = find_conversation(parts)
    times = [_message_time(item) for item in conversation]
    known = [moment for moment in times if moment]
    meta = SessionMeta(
        title=title_from_conversation(conversation),
        created=known[0] if known else file_time,
        updated=known[-1] if known else file_time,
        message_count=len(conversation),
        schema_version=1,
    )
    return {"meta": meta.state_dict(), **parts}


def _message_time(item: Any) -> str:
    message = message_dict(item)
    stamp = message.get("timestamp") if message else None
    if not isinstance(stamp, str):
        return ""
    try:  # AgentScope's "YYYY-mm-dd HH:MM:SS.mmm", local time
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return ""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


MIGRATIONS: dict[int, Migration] = {0: _from_0_to_1}


def schema_version_of(parts: dict[str, Any]) -> int:
    """The format of a parsed session: the meta's ``schema_version``, 0 without meta."""
    meta = parts.get("meta")
    if meta is None:
        return 0
    version = meta.get("schema_version") if isinstance(meta, dict) else None
    return version if isinstance(version, int) and not isinstance(version, bool) else -1


def migrate(parts: dict[str, Any], version: int, file_time: str) -> dict[str, Any]:
    """Apply the migrations from ``version`` up to ``SCHEMA_VERSION``.

    Raises:
        ValueError: ``version`` is unknown (below 0, or with a gap in the table).
    """
    while version < SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise ValueError(f"its format version {version} is unknown")
        parts = step(parts, file_time)
        version += 1
    if isinstance(parts.get("meta"), dict):
        parts["meta"]["schema_version"] = SCHEMA_VERSION
    return parts
