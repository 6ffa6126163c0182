"""One pass over a state before it is written: large binaries out, searchable text in.

Pasted images and recorded audio arrive as base64 inside messages. Above a threshold
they are written once to ``<id>.blobs/<sha256>.<ext>`` and the saved copy of the block
points at that file with a ``URLSource`` (a local path, which the formatter and the UI
both read), so session files, their parsing and their saving stay small. The live
state is never mutated: containers on the path to a replaced block are copied.

Messages stored in memory do not change once added, so the result for each message is
cached by the identity of its content list and a save of a long session only looks at
the messages added since the previous save. One scanner belongs to one open session and
runs in one worker thread at a time.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import mimetypes
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_agent.app._conversation import content_text
from desktop_agent.app.library._codec import SLICE_ITEMS, STRING_SLICE, yield_gil
from desktop_agent.app.library._meta import find_conversation, message_dict
from desktop_agent.session._atomic_write import atomic_write_bytes

BLOB_THRESHOLD = 64 * 1024
"""Base64 payloads longer than this (in characters) are stored as blob files."""

_EXTENSIONS = {
    "image/jpeg": ".jpg",
    "image/png": ".png",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "audio/mpeg": ".mp3",
    "audio/mp3": ".mp3",
    "audio/wav": ".wav",
    "audio/x-wav": ".wav",
    "audio/ogg": ".ogg",
    "audio/webm": ".webm",
    "video/mp4": ".mp4",
}


@dataclass(frozen=True, slots=True)
class ScanResult:
    """The state to write and the session's plain text, in lower case (for search)."""

    parts: dict[str, Any]
    texts: list[str]
    """The messages' texts, one per line of the search text file (joined by the writer,
    a slice at a time: see ``encode_texts``)."""
    long_items: frozenset[int] = frozenset()
    """The ``id()`` of each of the saved conversation's items holding a long text (to encode in
    pieces); they stay alive with ``parts``."""


UNFINISHED_REPLY = "unfinished_reply"
"""The part of a session file holding the reply that was streaming at the last save."""


@dataclass(slots=True)
class _CachedMessage:
    content: Any  # kept so that its id() is not reused while cached
    saved_content: Any
    text: str | None  # lower-cased search text, made when a conversation message needs it
    long: bool | None = None  # whether its text is longer than STRING_SLICE


class StateScanner:
    """Moves large binaries of one session into blob files and collects its text."""

    def __init__(self, blobs_dir: Path, threshold: int = BLOB_THRESHOLD) -> None:
        """Create a scanner.

        Args:
            blobs_dir: Where this session's blob files go (created when needed).
            threshold: Base64 payloads longer than this many characters become files.
        """
        self.blobs_dir = blobs_dir
        self.threshold = threshold
        self._cache: dict[int, _CachedMessage] = {}
        self._known_blobs: set[str] = set()
        self._done: tuple[Sequence[Any], Sequence[Any]] | None = None

    def scan(self, parts: dict[str, Any]) -> ScanResult:
        """The state to save (blobs replaced) and the conversation's text.

        Raises:
            OSError: A blob file could not be written.
        """
        seen: dict[int, _CachedMessage] = {}
        conversation = find_conversation(parts)
        texts: list[str] = []
        long_items: list[Any] = []
        saved_conversation = self._conversation(conversation, seen, texts, long_items)
        self._done = (conversation, saved_conversation)
        try:
            saved = {name: self._walk(state, seen) for name, state in list(parts.items())}
        finally:
            self._done = None
        # A streaming reply has new content at every save: kept in the cache, it kept the
        # text of an older state alive (another copy of a 20 MB reply) until the next save.
        unfinished = parts.get(UNFINISHED_REPLY)
        if isinstance(unfinished, dict):
            seen.pop(id(unfinished.get("content")), None)
        self._cache = seen
        long_ids = frozenset(id(item) for item in long_items)
        return ScanResult(parts=saved, texts=texts, long_items=long_ids)

    def walk(self, value: Any) -> Any:
        """``value`` with its large binaries replaced (as :meth:`scan` does), not cached:
        for a journal record's messages and parts.

        Raises:
            OSError: A blob file could not be written.
        """
        return self._walk(value, {})

    def _conversation(
        self,
        items: Sequence[Any],
        seen: dict[int, _CachedMessage],
        texts: list[str],
        long_items: list[Any],
    ) -> Sequence[Any]:
        """The memory's messages, in one flat loop: it runs over every message per save."""
        cache, copy, snapshot = self._cache, None, list(items)
        long_indexes: list[int] = []
        for index, item in enumerate(snapshot):
            if index % SLICE_ITEMS == SLICE_ITEMS - 1:
                yield_gil()
            message = message_dict(item)
            if message is None:
                continue
            content = message.get("content")
            cached = cache.get(id(content))
            if cached is None or cached.content is not content:
                cached = self._cached(content, seen)
            seen[id(content)] = cached
            if cached.text is None:
                cached.text = search_text(content)
                cached.long = len(content_text(content)) > STRING_SLICE
            if cached.text:
                texts.append(cached.text)
            if cached.long:
                long_indexes.append(index)
            if cached.saved_content is not content:
                if copy is None:
                    copy = list(snapshot)
                copy[index] = _with_content(item, cached.saved_content)
        result = snapshot if copy is None else copy
        long_items.extend(result[index] for index in long_indexes)
        return result

    def _cached(self, content: Any, seen: dict[int, _CachedMessage]) -> _CachedMessage:
        saved_content = self._walk(content, seen) if isinstance(content, list) else content
        return _CachedMessage(content, saved_content, None)

    def _walk(self, value: Any, seen: dict[int, _CachedMessage]) -> Any:
        if isinstance(value, list):
            if self._done is not None and value is self._done[0]:
                return self._done[1]
            return _copy_on_write_list(value, lambda item: self._walk(item, seen))
        if not isinstance(value, dict):
            return value
        if _is_message(value):
            return self._message(value, seen)
        if self._is_large_base64(value):
            return self._store(value)
        return _copy_on_write_dict(value, lambda item: self._walk(item, seen))

    def _message(self, message: dict[str, Any], seen: dict[int, _CachedMessage]) -> Any:
        content = message.get("content")
        key = id(content)
        cached = self._cache.get(key)
        if cached is None or cached.content is not content:
            cached = self._cached(content, seen)
        seen[key] = cached
        if cached.saved_content is content:
            return message
        copy = dict(message)
        copy["content"] = cached.saved_content
        return copy

    def _is_large_base64(self, value: dict[str, Any]) -> bool:
        data = value.get("data")
        return (
            value.get("type") == "base64"
            and isinstance(data, str)
            and len(data) > self.threshold
            and isinstance(value.get("media_type"), str)
        )

    def _store(self, source: dict[str, Any]) -> dict[str, Any]:
        try:
            raw = base64.b64decode(source["data"], validate=True)
        except (binascii.Error, ValueError):
            return source  # not base64 after all: keep it inline, untouched
        media_type = source["media_type"]
        name = hashlib.sha256(raw).hexdigest() + _extension(media_type)
        path = self.blobs_dir / name
        if name not in self._known_blobs:
            if not path.exists():
                self.blobs_dir.mkdir(exist_ok=True)
                atomic_write_bytes(path, raw)
            self._known_blobs.add(name)
        return {"type": "url", "url": str(path), "media_type": media_type}


def _with_content(item: Any, content: Any) -> Any:
    if isinstance(item, list):
        return [{**item[0], "content": content}, *item[1:]]
    return {**item, "content": content}


def _is_message(value: dict[str, Any]) -> bool:
    return "role" in value and "content" in value and "name" in value


def _copy_on_write_list(value: list[Any], walk: Callable[[Any], Any]) -> list[Any]:
    copy: list[Any] | None = None
    for index, item in enumerate(list(value)):
        if isinstance(item, (dict, list)):
            new = walk(item)
            if new is not item:
                if copy is None:
                    copy = list(value)
                copy[index] = new
    return value if copy is None else copy


def _copy_on_write_dict(value: dict[str, Any], walk: Callable[[Any], Any]) -> dict[str, Any]:
    copy: dict[str, Any] | None = None
    for key, item in list(value.items()):
        if isinstance(item, (dict, list)):
            new = walk(item)
            if new is not item:
                if copy is None:
                    copy = dict(value)
                copy[key] = new
    return value if copy is None else copy


def _extension(media_type: str) -> str:
    return _EXTENSIONS.get(media_type) or mimetypes.guess_extension(media_type) or ".bin"


SEARCH_CHARS = 1 << 20
"""Searchable characters per message: a 20 MB reply is searchable in its first megabyte
(its whole text, lower-cased and joined, cost ~60 MB and 100 ms of GIL per save)."""


def search_text(content: Any) -> str:
    """The lower-cased searchable text of a message content (its first ``SEARCH_CHARS``)."""
    return content_text(content)[:SEARCH_CHARS].lower()


def relocate_blobs(parts: dict[str, Any], blobs_dir: Path) -> None:
    """Point blob references of a freshly parsed state at ``blobs_dir``, in place.

    The data folder may have moved since the session was saved; references to another
    ``<id>.blobs`` folder with the same name are rewritten to the current one.
    """
    folder_name = blobs_dir.name
    stack: list[Any] = [parts]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            url = value.get("url")
            if value.get("type") == "url" and isinstance(url, str):
                _relocate(value, url, folder_name, blobs_dir)
            stack.extend(item for item in value.values() if isinstance(item, (dict, list)))
        elif isinstance(value, list):
            stack.extend(item for item in value if isinstance(item, (dict, list)))


def _relocate(source: dict[str, Any], url: str, folder_name: str, blobs_dir: Path) -> None:
    path = Path(url)
    if path.parent.name == folder_name and path.parent != blobs_dir:
        source["url"] = str(blobs_dir / path.name)
