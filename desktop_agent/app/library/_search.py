"""Content search over each session's plain-text file, in a worker thread.

Every save writes ``<id>.search.txt`` (the conversation's text in lower case, without
JSON, tool arguments or binaries) right after the session file, so searching is a read
and a ``bytes.find`` per session, newest first, stopping early at ``limit`` or when the
caller gives up; no decoding or case folding happens at search time, and no single call
holds the GIL for long. Snippets therefore come out in lower case. A text file older
than its session file (written by another tool, or a crash between the two writes) is
rebuilt from the session on the way.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from desktop_agent.app._conversation import content_text
from desktop_agent.app.library._codec import SLICE_ITEMS, yield_gil
from desktop_agent.app.library._files import NewerSchemaError
from desktop_agent.app.library._journal import read_with_journal
from desktop_agent.app.library._meta import find_conversation, message_dict
from desktop_agent.app.library._paths import SessionPaths
from desktop_agent.session._atomic_write import atomic_write_bytes

_BEFORE = 40
_AFTER = 80


def conversation_text(parts: dict[str, object]) -> str:
    """The searchable text of a parsed session's conversation, in lower case."""
    texts = []
    for item in find_conversation(parts):
        message = message_dict(item)
        if message is not None:
            texts.append(content_text(message.get("content")))
    return "\n".join(text for text in texts if text).lower()


def encode_text(text: str) -> bytes:
    """The bytes of a search text file."""
    return text.encode("utf-8", "surrogatepass")


def encode_texts(texts: list[str]) -> Iterator[bytes]:
    """The bytes of a search text file of ``texts`` (one per line), a slice at a time: one
    join and encode of a 100,000-message chat's text holds the GIL for ~80 ms."""
    for start in range(0, len(texts), SLICE_ITEMS):
        if start:
            yield_gil()
            yield b"\n"
        yield encode_text("\n".join(texts[start : start + SLICE_ITEMS]))


def find_in_sessions(
    paths: SessionPaths,
    session_ids: Iterable[str],
    needle: str,
    limit: int | None,
    cancelled: threading.Event,
) -> dict[str, str]:
    """The sessions whose text contains ``needle`` (lower case), with a snippet each.

    Args:
        paths: The data root's files.
        session_ids: The sessions to look at, in the order results should come.
        needle: The lower-cased query.
        limit: Stop after this many matches.
        cancelled: Stop as soon as it is set.
    """
    found: dict[str, str] = {}
    pattern = encode_text(needle.lower())
    for session_id in session_ids:
        if cancelled.is_set() or (limit is not None and len(found) >= limit):
            break
        text = _session_text(paths, session_id)
        snippet = snippet_of(text, pattern) if text else None
        if snippet is not None:
            found[session_id] = snippet
    return found


def _session_text(paths: SessionPaths, session_id: str) -> bytes | None:
    text_path = paths.text(session_id)
    try:
        session_mtime = paths.file(session_id).stat().st_mtime_ns
        if text_path.stat().st_mtime_ns >= session_mtime:
            return text_path.read_bytes()
    except FileNotFoundError:
        pass
    except OSError:
        return None
    return _rebuild_text(paths.file(session_id), text_path)


def _rebuild_text(session_path: Path, text_path: Path) -> bytes | None:
    try:
        text = encode_text(conversation_text(read_with_journal(session_path).parts))
    except (OSError, ValueError, NewerSchemaError):  # such a session has no content hits
        return None
    with contextlib.suppress(OSError):
        atomic_write_bytes(text_path, text)
    return text


def snippet_of(text: bytes, pattern: bytes) -> str | None:
    """The text around the first occurrence of ``pattern``, or ``None`` if it is absent."""
    at = text.find(pattern)
    if at < 0:
        return None
    # Widen by a few bytes so that cutting inside a UTF-8 sequence loses nothing shown.
    start, end = max(at - 4 * _BEFORE, 0), min(at + len(pattern) + 4 * _AFTER, len(text))
    before = text[start:at].decode("utf-8", "ignore")[-_BEFORE:]
    after = text[at + len(pattern) : end].decode("utf-8", "ignore")[:_AFTER]
    words = " ".join((before + pattern.decode("utf-8", "ignore") + after).split())
    opened = "…" if at - len(before.encode()) > 0 else ""
    closed = "…" if at + len(pattern) + len(after.encode()) < len(text) else ""
    return opened + words + closed
