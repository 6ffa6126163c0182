"""The files a user attaches become part of the message, not paths to their originals.

A message that pointed at the user's file broke every later turn (Retry too) once the
file was moved or deleted, and backups did not hold it. When a file is attached, the
composer reads it (in a worker thread, :func:`read_attachment`) into a ``Base64Source``;
when a message is sent, any image or audio file it still names (attached a moment before
Send, or by a caller without a composer) is read the same way — as a
pasted image is; saving the session then stores it once in the session's
content-addressed blob folder (``<id>.blobs/<sha256>.<ext>``) and the saved message
refers to that copy — which the formatter's :class:`~desktop_agent.formatter.MediaPolicy`
lets it read, unlike any other local path.
"""

from __future__ import annotations

import asyncio
import base64
import json
import mimetypes
import os
from pathlib import Path
from typing import Any

from desktop_agent._logging import logger
from desktop_agent.message import Msg
from desktop_agent.session._atomic_write import atomic_write_bytes

MAX_ATTACHMENT_BYTES = 200 * 1024 * 1024
"""Larger files are left as a path (and not sent): a message holds its media in memory."""

_MEDIA_TYPES = {
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".png": "image/png",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".bmp": "image/bmp",
    ".wav": "audio/wav",
    ".mp3": "audio/mpeg",
    ".ogg": "audio/ogg",
    ".oga": "audio/ogg",
    ".flac": "audio/flac",
    ".m4a": "audio/mp4",
    ".aac": "audio/aac",
    ".opus": "audio/opus",
    ".webm": "audio/webm",
}


def attached_path(block: Any) -> str | None:
    """The local file an image/audio block names, or ``None`` (inline data, web URL)."""
    if not isinstance(block, dict) or block.get("type") not in ("image", "audio"):
        return None
    source = block.get("source")
    if not isinstance(source, dict) or source.get("type") != "url":
        return None
    url = str(source.get("url", ""))
    if url.startswith("file://"):
        return url[len("file://") :]
    if "://" in url or url.startswith("data:") or not os.path.isabs(url):
        return None
    return url


async def embed_attachments(msg: Msg) -> int:
    """Replace the file sources of ``msg``'s images and audio by their data, in place.

    A file that cannot be read keeps its path (the turn goes on; the model is told the
    file is missing). Returns how many files were embedded.
    """
    if not isinstance(msg.content, list):
        return 0
    embedded = 0
    for block in msg.content:
        path = attached_path(block)
        if path is None:
            continue
        source = await asyncio.to_thread(read_attachment, path, str(block["type"]))
        if source is not None:
            block["source"] = source
            embedded += 1
    return embedded


def read_attachment(path: str, kind: str) -> dict[str, Any] | None:
    """The file at ``path`` as a ``Base64Source`` of an image or audio (``kind``), or
    ``None`` if it cannot be read or is too large (blocking: call it in a worker thread).

    The composer calls it when a file is attached, so the message holds a copy of the
    file from then on: moving or deleting the original before sending loses nothing.
    """
    try:
        if os.path.getsize(path) > MAX_ATTACHMENT_BYTES:
            logger.warning("Attachment %s is too large to embed; it stays a path.", path)
            return None
        with open(path, "rb") as file:
            data = file.read()
    except OSError as exc:
        logger.warning("Attachment %s could not be read: %s", path, exc)
        return None
    return {
        "type": "base64",
        "media_type": _media_type(path, data, kind),
        "data": base64.b64encode(data).decode("ascii"),
    }


def _media_type(path: str, data: bytes, kind: str) -> str:
    extension = os.path.splitext(path)[1].lower()
    guessed = _MEDIA_TYPES.get(extension) or mimetypes.guess_type(path)[0]
    if guessed and guessed.startswith(f"{kind}/"):
        return guessed
    if kind == "image":
        from desktop_agent.formatter._media import sniff_image_type

        return sniff_image_type(data[:32]) or "image/png"
    return "audio/wav"


LEGACY_FILE = "legacy-attachment-sessions.json"
"""The sessions saved before attachments were copied (their messages name the user's
files by path), listed once, the first time this version opens a data folder."""


def legacy_sessions(root: Path, sessions: Path) -> frozenset[str]:
    """The sessions whose messages may name attached files by path (blocking).

    The first call on a data folder lists the sessions it holds and records them in
    ``root/LEGACY_FILE``: those were written by this app before attachments were copied.
    A session file that arrives later (an import, a copy, a hand-made file) is never on
    the list, so the paths it names are never read. If the record cannot be written, the
    sessions are trusted for this run only.
    """
    record = root / LEGACY_FILE
    try:
        names = json.loads(record.read_text(encoding="utf-8"))
        if isinstance(names, list):
            return frozenset(str(name) for name in names)
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as exc:
        logger.warning("Could not read %s (%s); no session names files by path.", record, exc)
        return frozenset()
    found = sorted(path.stem for path in _session_files(sessions))
    try:
        atomic_write_bytes(record, json.dumps(found).encode("utf-8"))
    except OSError as exc:
        logger.warning("Could not record the sessions of %s: %s", root, exc)
    return frozenset(found)


def _session_files(sessions: Path) -> list[Path]:
    try:
        return [p for p in sessions.glob("*.json") if p.name != "index.json"]
    except OSError:
        return []
