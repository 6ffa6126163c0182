"""Reading import files: our JSON export, AgentScope ``JSONSession`` files, ChatGPT exports.

Everything here is a pure function of a file's bytes: it says what the file holds as
:class:`Incoming` conversations (each ready to become a session) and :class:`Skipped`
items with a reason, or refuses the whole file with :class:`ImportRefused`. Nothing is
written here, so a refused file changes nothing.

Large files are read in slices: a top-level JSON array (ChatGPT's ``conversations.json``)
is parsed one element at a time with the GIL given up between elements, so a worker
thread parsing a 100 MB export never holds the event loop for long.
"""

from __future__ import annotations

import codecs
import contextlib
import hashlib
import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from desktop_agent._i18n import QT_TRANSLATE_NOOP, translate
from desktop_agent.app.library._codec import yield_gil
from desktop_agent.app.library._meta import SCHEMA_VERSION, title_from_conversation
from desktop_agent.app.transfer._chatgpt import chatgpt_conversation, looks_like_chatgpt
from desktop_agent.app.transfer._document import (
    EXPORT_FORMAT,
    EXPORT_SCHEMA_VERSION,
    META_FIELDS,
    inline_media,
    memory_holder,
    parts_from_conversation,
)
from desktop_agent.message import Msg

MAX_IMPORT_BYTES = 1024 * 1024 * 1024
"""Files larger than this are refused before a byte is read."""

_DECODER = json.JSONDecoder()
_TEXT_SLICE = 1024 * 1024


class ImportRefused(ValueError):
    """A file that cannot be imported at all (the message says why, for the user)."""


@dataclass
class Incoming:
    """One conversation read from a file, not yet added.

    Attributes:
        label: How the report names it (its title).
        meta: ``title``, ``title_is_custom``, ``created``, ``updated``, ``model``.
        parts: The session's saved parts, ``"meta"`` excluded.
        fingerprint: Same messages, same fingerprint: how duplicates are recognised.
        source_id: The id the source gave it (a session id for our own files).
        notes: What was left out of it, and why.
    """

    label: str
    meta: dict[str, Any]
    parts: dict[str, Any]
    fingerprint: str
    source_id: str = ""
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Skipped:
    """Something in a file that was not imported, and why."""

    label: str
    reason: str


@dataclass
class SourceContents:
    """What one file holds."""

    kind: str
    conversations: list[Incoming] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def fingerprint(messages: list[dict[str, Any]]) -> str:
    """A digest of the message ids (and texts' lengths) of a conversation."""
    digest = hashlib.sha256()
    for message in messages:
        digest.update(f"{message.get('id')}\n".encode())
    return digest.hexdigest()


def read_source(path: Path, max_bytes: int = MAX_IMPORT_BYTES) -> SourceContents:
    """What ``path`` holds, ready to import.

    Raises:
        ImportRefused: Too large, unreadable, not JSON, of no known shape, or from a
            newer version of the app.
    """
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ImportRefused(_unreadable(exc)) from None
    if size > max_bytes:
        raise ImportRefused(
            translate("ImportReport", "it is {size}, more than the {limit} an import reads").format(
                size=_size_text(size), limit=_size_text(max_bytes)
            )
        )
    try:
        with _open_source(path, max_bytes) as file:
            value = _read_json(_chunks(file))
    except OSError as exc:
        raise ImportRefused(_unreadable(exc)) from None
    return _classify(value)


@contextlib.contextmanager
def _open_source(path: Path, max_bytes: int) -> Iterator[IO[bytes]]:
    """The JSON file itself, or the ``conversations.json`` inside a ChatGPT export ZIP."""
    if not zipfile.is_zipfile(path):
        with open(path, "rb") as file:
            yield file
        return
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        if "manifest.json" in names and any(n.startswith("sessions/") for n in names):
            raise ImportRefused(
                translate(
                    "ImportReport", "it is a desktop-agent backup: use Settings → Data → Restore…"
                )
            )
        inner = next((n for n in names if n.rsplit("/", 1)[-1] == "conversations.json"), None)
        if inner is None:
            raise ImportRefused(
                translate("ImportReport", "it is a ZIP archive without a conversations.json")
            )
        if archive.getinfo(inner).file_size > max_bytes:
            raise ImportRefused(
                translate("ImportReport", "its conversations.json is larger than {limit}").format(
                    limit=_size_text(max_bytes)
                )
            )
        with archive.open(inner) as file:
            yield file


def _chunks(file: IO[bytes]) -> Iterator[str]:
    """The file's text, a slice at a time (UTF-8, a BOM dropped), the GIL given up between."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    try:
        while True:
            raw = file.read(_TEXT_SLICE)
            yield decoder.decode(raw, final=not raw)
            if not raw:
                return
            yield_gil()
    except UnicodeDecodeError:
        raise ImportRefused(translate("ImportReport", "it is not JSON (not UTF-8 text)")) from None


def _read_json(chunks: Iterator[str]) -> Any:
    """The file's one JSON value; a top-level array is parsed element by element, holding
    only a slice of the text at a time (an object is parsed whole)."""
    reader = _SliceReader(chunks)
    if not reader.skip_space():
        raise ImportRefused(translate("ImportReport", "it is empty"))
    try:
        if reader.peek() == "[":
            reader.index += 1
            return list(_array_items(reader))
        text = reader.rest()
        value, end = _DECODER.raw_decode(text)
        if text[end:].strip():
            raise ImportRefused(
                translate("ImportReport", "it is not JSON (extra data after the value)")
            )
        return value
    except json.JSONDecodeError as exc:
        raise ImportRefused(
            translate("ImportReport", "it is not JSON ({error})").format(error=exc.msg)
        ) from None
    except RecursionError:
        raise ImportRefused(
            translate("ImportReport", "its JSON nests too deeply to be read")
        ) from None


class _SliceReader:
    """A window over the text: ``buffer[index:]`` is what is not parsed yet."""

    def __init__(self, chunks: Iterator[str]) -> None:
        self.chunks = chunks
        self.buffer = ""
        self.index = 0

    def more(self, count: int = 1) -> bool:
        """Drop what was parsed and append ``count`` more slices; ``False`` at the end."""
        pieces = [piece for _, piece in zip(range(count), self.chunks, strict=False)]
        added = "".join(pieces)
        if not added:
            return False
        self.buffer, self.index = self.buffer[self.index :] + added, 0
        return True

    def skip_space(self) -> bool:
        """Move past whitespace; ``False`` if the text ends first."""
        while True:
            self.index = _skip_space(self.buffer, self.index)
            if self.index < len(self.buffer):
                return True
            if not self.more():
                return False

    def peek(self) -> str:
        return self.buffer[self.index]

    def rest(self) -> str:
        return self.buffer[self.index :] + "".join(self.chunks)

    def decode(self) -> Any:
        """The next value, reading more slices while it is cut by the window's end."""
        wanted = 1
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buffer, self.index)
            except json.JSONDecodeError as exc:
                if not _maybe_cut(exc, self.buffer) or not self.more(wanted):
                    raise
                wanted *= 2  # a long value: read ahead faster than re-parsing grows
                continue
            if end >= len(self.buffer) and self.more(wanted):
                continue  # a number may go on in the next slice
            self.index = end
            return value


def _maybe_cut(exc: json.JSONDecodeError, buffer: str) -> bool:
    return exc.msg.startswith("Unterminated string") or exc.pos >= len(buffer.rstrip()) - 1


def _array_items(reader: _SliceReader) -> Iterator[Any]:
    cut = translate(
        "ImportReport", "it is not JSON (the array is not closed: the file is cut short)"
    )
    if not reader.skip_space():
        raise ImportRefused(cut)
    if reader.peek() == "]":
        reader.index += 1
        _check_end(reader)
        return
    while True:
        yield reader.decode()
        yield_gil()
        if not reader.skip_space():
            raise ImportRefused(cut)
        if reader.peek() == "]":
            reader.index += 1
            _check_end(reader)
            return
        if reader.peek() != ",":
            raise ImportRefused(
                translate("ImportReport", "it is not JSON (expected ',' between the array's items)")
            )
        reader.index += 1
        if not reader.skip_space():
            raise ImportRefused(cut)


def _check_end(reader: _SliceReader) -> None:
    if reader.skip_space():
        raise ImportRefused(
            translate("ImportReport", "it is not JSON (extra data after the value)")
        )


def _is_session_file(value: Any) -> bool:
    """``{name: state, ...}`` with a memory in one of the states."""
    return (
        isinstance(value, dict)
        and bool(value)
        and all(isinstance(state, dict) for state in value.values())
        and memory_holder(value) is not None
    )


def _skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\r\n":
        index += 1
    return index


def _classify(value: Any) -> SourceContents:
    if isinstance(value, dict) and value.get("format") == EXPORT_FORMAT:
        return _our_export(value)
    if looks_like_chatgpt(value):
        return _chatgpt(value if isinstance(value, list) else [value])
    if _is_session_file(value):
        return _json_session(value)
    raise ImportRefused(
        translate(
            "ImportReport",
            "it is JSON, but not a desktop-agent export, an AgentScope session file or a "
            "ChatGPT conversations.json",
        )
    )


# -- our export --------------------------------------------------------------------------


def _our_export(document: dict[str, Any]) -> SourceContents:
    version = document.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ImportRefused(translate("ImportReport", "its schema_version is missing or invalid"))
    if version > EXPORT_SCHEMA_VERSION:
        raise ImportRefused(
            translate(
                "ImportReport",
                "it was made by a newer desktop-agent (export schema {version}; this version "
                "reads up to {supported}): update the app to import it",
            ).format(version=version, supported=EXPORT_SCHEMA_VERSION)
        )
    items = document.get("conversations")
    if not isinstance(items, list):
        raise ImportRefused(translate("ImportReport", "its 'conversations' is not a list"))
    contents = SourceContents(QT_TRANSLATE_NOOP("ImportReport", "desktop-agent export"))
    for number, item in enumerate(items, 1):
        label = _label(item, number)
        try:
            contents.conversations.append(_exported_conversation(item, label))
        except (TypeError, ValueError, KeyError, AssertionError) as exc:
            contents.skipped.append(Skipped(label, f"it has the wrong shape ({exc})"))
    return contents


def _label(item: Any, number: int) -> str:
    title = item.get("title") if isinstance(item, dict) else None
    return str(title) if isinstance(title, str) and title else f"conversation {number}"


def _exported_conversation(item: Any, label: str) -> Incoming:
    if not isinstance(item, dict):
        raise TypeError(f"a {type(item).__name__}, not an object")
    messages = item.get("messages")
    if not isinstance(messages, list):
        raise TypeError("'messages' is not a list")
    if not isinstance(item.get("state", {}), dict) or not isinstance(item.get("marks", {}), dict):
        raise TypeError("'state' or 'marks' is not an object")
    for message in messages:
        Msg.from_dict(message)
    meta = {name: item[name] for name in META_FIELDS if name in item}
    _check_meta(meta)
    parts = parts_from_conversation(item)
    source_id = str(item.get("id") or "")
    return Incoming(label, meta, parts, fingerprint(messages), source_id)


def _check_meta(meta: dict[str, Any]) -> None:
    for name, value in meta.items():
        kind = bool if name == "title_is_custom" else str
        if not isinstance(value, kind):
            raise TypeError(f"{name!r} is not a {kind.__name__}")


# -- AgentScope JSONSession ----------------------------------------------------------------


def _json_session(parts: dict[str, Any]) -> SourceContents:
    meta_part = parts.get("meta")
    if isinstance(meta_part, dict):
        return _our_session_file(parts, meta_part)
    contents = SourceContents(QT_TRANSLATE_NOOP("ImportReport", "AgentScope session file"))
    for name, state in parts.items():
        found = _agent_conversation(name, state, {})
        if isinstance(found, Skipped):
            contents.skipped.append(found)
        else:
            contents.conversations.append(found)
    return contents


def _our_session_file(parts: dict[str, Any], meta: dict[str, Any]) -> SourceContents:
    """A desktop-agent session file: one chat, every part kept (its versions too)."""
    version = meta.get("schema_version")
    if isinstance(version, int) and version > SCHEMA_VERSION:
        raise ImportRefused(
            translate(
                "ImportReport",
                "it is a session saved by a newer desktop-agent (format {version}): update the "
                "app to import it",
            ).format(version=version)
        )
    contents = SourceContents(QT_TRANSLATE_NOOP("ImportReport", "desktop-agent session file"))
    holder = memory_holder({k: v for k, v in parts.items() if k != "meta"})
    if holder is None:
        contents.skipped.append(Skipped("the session", "it holds no memory"))
        return contents
    name = holder[0]
    found = _agent_conversation(name, parts[name], meta)
    if isinstance(found, Skipped):
        contents.skipped.append(found)
        return contents
    others = {k: v for k, v in parts.items() if k not in ("meta", name)}
    # Media files of the session (its blobs, wherever they are) travel inside the import.
    found.parts = inline_media({name: found.parts["agent"], **others})
    contents.conversations.append(found)
    return contents


def _agent_conversation(
    name: str, state: dict[str, Any], meta: dict[str, Any]
) -> Incoming | Skipped:
    holder = memory_holder({name: state})
    if holder is None:
        return Skipped(repr(name), "it holds no memory (not an agent or a memory state)")
    memory = state if holder[1] is None else state["memory"]
    content = memory.get("content")
    if not isinstance(content, list):
        return Skipped(repr(name), "its memory's content is not a list")
    entries, bad = _valid_entries(content)
    if not entries:
        return Skipped(repr(name), "its memory holds no messages")
    agent = dict(state) if holder[1] is not None else {}
    agent["memory"] = {
        "_compressed_summary": str(memory.get("_compressed_summary") or ""),
        "content": entries,
    }
    messages = [entry[0] for entry in entries]
    title = str(meta.get("title") or "") or title_from_conversation(entries) or f"Imported {name}"
    times = [t for t in (_message_time(m) for m in messages) if t]
    info = {
        "title": title,
        "title_is_custom": bool(meta.get("title_is_custom", False)),
        "created": str(meta.get("created") or (times[0] if times else "")),
        "updated": str(meta.get("updated") or (times[-1] if times else "")),
        "model": str(meta.get("model") or ""),
    }
    notes = [f"{bad} malformed messages left out"] if bad else []
    return Incoming(title, info, {"agent": agent}, fingerprint(messages), notes=notes)


def _valid_entries(content: list[Any]) -> tuple[list[list[Any]], int]:
    entries, bad = [], 0
    for item in content:
        message, marks = (
            (item[0], item[1] if len(item) > 1 else [])
            if isinstance(item, list) and item
            else (item, [])
        )
        try:
            Msg.from_dict(message)
        except (TypeError, KeyError, AssertionError, ValueError):
            bad += 1
            continue
        entries.append([message, list(marks) if isinstance(marks, list) else []])
    return entries, bad


def _message_time(message: dict[str, Any]) -> str:
    """A message's AgentScope timestamp (local time) as ISO 8601 in UTC, or ``""``."""
    stamp = message.get("timestamp")
    try:
        moment = datetime.fromisoformat(stamp) if isinstance(stamp, str) else None
    except ValueError:
        return ""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds") if moment else ""


# -- ChatGPT ------------------------------------------------------------------------------


def _chatgpt(items: list[Any]) -> SourceContents:
    contents = SourceContents(QT_TRANSLATE_NOOP("ImportReport", "ChatGPT export"))
    # Taken off the list one by one: each raw conversation is freed once converted,
    # instead of the whole parsed file at once (one long hold of the GIL).
    items.reverse()
    number = 0
    while items:
        item = items.pop()
        number += 1
        label = _label(item, number)
        found = chatgpt_conversation(item)
        if isinstance(found, str):
            contents.skipped.append(Skipped(label, found))
            continue
        meta, parts, notes = found
        messages = [entry[0] for entry in parts["agent"]["memory"]["content"]]
        source_id = str(item.get("conversation_id") or item.get("id") or "")
        incoming = Incoming(label, meta, parts, fingerprint(messages), source_id, notes)
        contents.conversations.append(incoming)
        yield_gil()
    return contents


def _size_text(size: int) -> str:
    if size >= 1024**3:
        return f"{size / 1024**3:.1f} GB"
    return f"{size / 1024**2:.0f} MB"


def _unreadable(exc: OSError) -> str:
    return translate("ImportReport", "it cannot be read ({error})").format(
        error=exc.strerror or exc
    )
