"""The session journal: an autosave writes what changed, not the whole session.

A write-ahead log beside each session file. While a session is open, each autosave
appends one record to ``<id>.journal`` and fsyncs it: the messages from the first one
that changed to the end (a new message, a streamed reply growing, an edit), plus the
small parts that changed (metadata, the agent's state without its memory, the other
versions, the unfinished reply). Its cost follows the change, not the chat's length.

The session file itself is rewritten whole (a *checkpoint*, ``SessionLibrary.save``)
only when the app is idle, on close, or when the journal has grown past a size. Each
checkpoint carries a generation number (part ``"journal"``: ``{"generation": n}``) and
every record carries the generation of the checkpoint it follows, so the order of a
checkpoint is: write the file (fsynced, renamed), then delete the journal. A crash in
between leaves records of an older generation, which are skipped: they are in the file.

Record framing: ``b"%010d %08x\\n" % (length, crc32)``, the JSON payload, ``b"\\n"``.
Reading stops at the first record that is cut short or whose checksum is wrong (a write
torn by a crash or a full disk): that record and anything after it are dropped, and the
writer truncates them before it appends again. The session file stays a plain
``JSONSession`` file: AgentScope reads the last checkpoint (and ignores the
``"journal"`` part); this app reads the checkpoint and replays the journal on top.
"""

from __future__ import annotations

import contextlib
import os
import re
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from desktop_agent.app.library._codec import (
    SLICE_ITEMS,
    STRING_SLICE,
    SessionDecodeError,
    decode,
    dumps,
    encode_chunks,
)
from desktop_agent.app.library._files import SessionFile, read_session_file
from desktop_agent.app.library._paths import journal_of
from desktop_agent.app.library._scan import UNFINISHED_REPLY
from desktop_agent.session._atomic_write import fsync_folder

GENERATION_PART = "journal"
"""The part of a session file holding ``{"generation": n}`` (the checkpoint's number)."""

JOURNAL_LIMIT = 8 * 1024 * 1024
"""Journal bytes after which the next save is a checkpoint."""

_HEADER = re.compile(rb"(\d{10}) ([0-9a-f]{8})\n")
_HEADER_SIZE = 20
_COMPARED_MAX = 64 * 1024  # parts encoded shorter than this are left out when unchanged


@runtime_checkable
class JournalMemory(Protocol):
    """A memory that tracks which of its entries changed since it was last saved."""

    def take_changes(self) -> tuple[int, list[list[Any]]]:
        """The first changed position and the saved form of the entries from there on;
        from now on they count as saved."""

    def unsaved_from(self, index: int) -> None:
        """A save failed: the entries from ``index`` on count as changed again."""

    def mark_saved(self) -> None:
        """Everything in memory now counts as saved (just loaded, or saved whole)."""

    def content_snapshot(self) -> list[Any]:
        """The ``(msg, marks)`` entries as they are now: the list is copied, not the
        messages (a checkpoint takes it on the loop)."""

    def saved_content(self, entries: list[Any]) -> list[list[Any]]:
        """The saved form of a :meth:`content_snapshot` (made in a worker thread)."""

    def without_content(self) -> contextlib.AbstractContextManager[object]:
        """While active, ``state_dict()`` holds :data:`omitted_marker` as its content."""

    @property
    def omitted_marker(self) -> list[Any]:
        """The object standing for the content inside :meth:`without_content`."""


def find_journal_memory(modules: Mapping[str, Any]) -> JournalMemory | None:
    """The journal-capable memory among ``modules`` (itself, or an agent's ``memory``)."""
    for module in modules.values():
        for candidate in (module, getattr(module, "memory", None)):
            if isinstance(candidate, JournalMemory):
                return candidate
    return None


@dataclass(slots=True)
class JournalDelta:
    """One autosave's changes, taken on the loop and written by a worker.

    Attributes:
        path: Where the memory's state sits in the parts (``["agent", "memory"]``);
            ``None``: the messages did not change (a rename).
        at: The first changed message: the saved messages from there on are replaced.
        add: The saved form of the messages from ``at`` on.
        parts: The other parts' states, the memory's content left out.
        drop: Parts that no longer exist (the unfinished reply once it is finished).
    """

    path: list[str] | None
    at: int = 0
    add: list[Any] = field(default_factory=list)
    parts: dict[str, Any] = field(default_factory=dict)
    drop: list[str] = field(default_factory=list)


def journal_delta(
    memory: JournalMemory,
    modules: Mapping[str, Any],
    at: int,
    add: list[Any],
    unfinished_reply: Any = None,
) -> JournalDelta:
    """The record of one autosave: the changed messages (taken from ``memory`` by the
    caller) and every module's state without the memory's content (on the loop).

    Raises:
        ValueError: ``memory`` is not part of ``modules``.
    """
    with memory.without_content():
        parts = {name: module.state_dict() for name, module in modules.items()}
    path = strip_content(parts, memory.omitted_marker)
    if path is None:
        raise ValueError("The journal's memory is not one of the modules saved.")
    if unfinished_reply is None:
        return JournalDelta(path, at, add, parts, [UNFINISHED_REPLY])
    parts[UNFINISHED_REPLY] = unfinished_reply.to_dict()
    return JournalDelta(path, at, add, parts)


def strip_content(parts: dict[str, Any], marker: list[Any]) -> list[str] | None:
    """Remove the memory's content (``marker``) from ``parts``; where it was."""
    found = _holder_of(parts, lambda content: content is marker)
    if found is None:
        return None
    path, holder = found
    del holder["content"]
    return path


def _holder_of(
    parts: dict[str, Any], wanted: Callable[[Any], bool]
) -> tuple[list[str], dict[str, Any]] | None:
    """Where in ``parts`` the memory's content is ``wanted``: its path and its state."""
    for name, state in parts.items():
        if not isinstance(state, dict):
            continue
        if wanted(state.get("content")):
            return [name], state
        memory = state.get("memory")
        if isinstance(memory, dict) and wanted(memory.get("content")):
            return [name, "memory"], memory
    return None


@dataclass(frozen=True, slots=True)
class LaterContent:
    """A memory's content in a checkpoint's parts until a worker thread makes its saved
    form (:func:`complete_content`): on the loop, only the list of entries is copied."""

    memory: JournalMemory
    entries: list[Any]


def checkpoint_parts(
    memory: JournalMemory, modules: Mapping[str, Any]
) -> tuple[dict[str, Any], list[Any]]:
    """Every module's state for a checkpoint, the memory's content left to a worker (a
    :class:`LaterContent`: a 100,000-message memory's ``state_dict()`` takes 40-70 ms);
    and the memory's entries.

    Raises:
        ValueError: ``memory`` is not part of ``modules``.
    """
    with memory.without_content():
        parts = {name: module.state_dict() for name, module in modules.items()}
    found = _holder_of(parts, lambda content: content is memory.omitted_marker)
    if found is None:
        raise ValueError("The journal's memory is not one of the modules saved.")
    entries = memory.content_snapshot()
    found[1]["content"] = LaterContent(memory, entries)  # same key: the order is kept
    return parts, entries


def complete_content(parts: dict[str, Any]) -> None:
    """Put the saved form of a :class:`LaterContent` in ``parts`` in its place (in a
    worker thread, before the parts are scanned and encoded)."""
    found = _holder_of(parts, lambda content: isinstance(content, LaterContent))
    if found is not None:
        later = found[1]["content"]
        found[1]["content"] = later.memory.saved_content(later.entries)


# -- writing -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Record:
    """An encoded journal record, framed, in pieces; the parts as encoded (to leave out
    unchanged ones from the next record)."""

    pieces: list[bytes | memoryview]
    last: dict[str, bytes]


_LOOP_ITEMS_MAX = 64  # messages a record may carry to be encoded on the loop


def prepared_on_loop(journal: JournalWriter, delta: JournalDelta) -> Record | None:
    """``delta`` encoded now, when that is cheap and nothing in it has to be moved to a blob
    file; ``None``: the worker scans and encodes it. A worker running Python holds the GIL
    the loop waits for (and on a busy machine may be descheduled holding it), so the small
    record of an ordinary save is built here and the worker only writes and fsyncs it.
    """
    if len(delta.add) > _LOOP_ITEMS_MAX:
        return None
    if long_items_of([*delta.add, delta.parts.get(UNFINISHED_REPLY)]):
        return None
    record = journal.prepare(delta)
    if b'"base64"' in b"".join(record.pieces):  # small: no long texts, few messages
        return None  # perhaps a large image or recording: the scanner moves it out
    return record


class JournalWriter:
    """Appends records to one session's journal (blocking: call it from a worker thread).

    The file is opened on the first append: what a crash left is checked then, and a
    torn tail, or records of another generation, are cut off before anything is added.
    """

    def __init__(self, path: Path, generation: int = 0) -> None:
        """Create the writer (no file is touched yet).

        Args:
            path: The journal file.
            generation: The generation of the session file on disk.
        """
        self.path = path
        self.generation = generation
        self.size = 0
        self.records = 0
        self._file: Any = None
        self._last: dict[str, bytes] = {}

    def append(self, delta: JournalDelta, long_items: frozenset[int] = frozenset()) -> int:
        """Append one record and fsync it; the bytes written.

        Raises:
            OSError: It could not be written (the journal is as it was before).
            TypeError: A state holds something JSON cannot represent.
        """
        return self.write(self.prepare(delta, long_items))

    def prepare(self, delta: JournalDelta, long_items: frozenset[int] = frozenset()) -> Record:
        """The record of ``delta``, encoded (no I/O: the loop may call it, between writes).

        Raises:
            TypeError: A state holds something JSON cannot represent.
        """
        pieces, last = _record_pieces(self.generation, delta, self._last, long_items)
        return Record(pieces, last)

    def write(self, record: Record) -> int:
        """Append a prepared record and fsync it; the bytes written.

        Raises:
            OSError: It could not be written (the journal is as it was before).
        """
        if self._file is None:
            self._open()
        start = self.size
        try:
            self._file.writelines(record.pieces)
            self._file.flush()
            os.fsync(self._file.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                self._file.truncate(start)
                self._file.seek(start)
            raise
        self.size = self._file.tell()
        self.records += 1
        self._last = record.last
        return self.size - start

    def _open(self) -> None:
        created = not self.path.exists()
        # Private to its owner, as the session file is (chat histories are personal data).
        descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        file = os.fdopen(descriptor, "a+b")  # kept open between appends
        try:
            file.seek(0)
            records, end = parse_records(file.read())
            stale = any(record.get("g") != self.generation for record in records)
            file.truncate(0 if stale else end)
            file.seek(0, os.SEEK_END)
            self.size, self.records = file.tell(), 0 if stale else len(records)
            file.flush()
            os.fsync(file.fileno())
        except BaseException:
            file.close()
            raise
        if created:
            fsync_folder(self.path.parent)
        self._file = file

    def discard(self, generation: int) -> None:
        """The session file was rewritten (generation ``generation``): delete the journal.

        Call it only after the new file is durable; a journal left by a failure here
        holds records of an older generation, which replay skips (and the next append
        cuts off).
        """
        self.close()
        self.generation = generation
        self.size = self.records = 0
        self._last = {}
        with contextlib.suppress(OSError):
            os.unlink(self.path)

    def close(self) -> None:
        """Close the file (the next append reopens it)."""
        file, self._file = self._file, None
        if file is not None:
            file.close()


def _record_pieces(
    generation: int,
    delta: JournalDelta,
    last: dict[str, bytes],
    long_items: frozenset[int],
) -> tuple[list[bytes | memoryview], dict[str, bytes]]:
    """The framed record's bytes, in pieces; the parts as encoded now (for the next one)."""
    body: list[bytes | memoryview] = [b'{"g":%d' % generation]
    if delta.path is not None:
        body += [b',"path":', dumps(delta.path), b',"at":%d,"add":' % delta.at]
        body += _encoded(delta.add, long_items)
    body.append(b',"parts":{')
    now: dict[str, bytes] = {}
    first = True
    for name, state in delta.parts.items():
        pieces = _encoded(state, long_items)
        size = sum(len(piece) for piece in pieces)
        if size < _COMPARED_MAX:
            encoded = b"".join(pieces)
            now[name] = encoded
            if last.get(name) == encoded:
                continue
        body += [b"" if first else b",", dumps(name), b":", *pieces]
        first = False
    body += [b'},"drop":', dumps(delta.drop), b"}"]
    checksum, length = 0, 0
    for piece in body:
        checksum = zlib.crc32(piece, checksum)
        length += len(piece)
    return [b"%010d %08x\n" % (length, checksum), *body, b"\n"], now


def _encoded(value: Any, long_items: frozenset[int]) -> list[bytes | memoryview]:
    """``value`` encoded: in one call when that is short (the usual record), else in slices
    (long texts, many messages) so that no call holds the GIL for long."""
    if long_items or (isinstance(value, list) and len(value) > SLICE_ITEMS):
        return list(encode_chunks(value, long_items))
    return [dumps(value)]


def long_items_of(values: list[Any]) -> frozenset[int]:
    """The ``id()`` of each message among ``values`` with a text longer than a slice
    (encoded in pieces, so no single call holds the GIL for long)."""
    return frozenset(id(value) for value in values if _text_length(value) > STRING_SLICE)


def _text_length(value: Any) -> int:
    message = value[0] if isinstance(value, list) and value else value
    if not isinstance(message, dict):
        return 0
    content = message.get("content")
    if isinstance(content, str):
        return len(content)
    if not isinstance(content, list):
        return 0
    total = 0
    for block in content:
        if isinstance(block, dict):
            total += sum(len(item) for item in block.values() if isinstance(item, str))
    return total


# -- reading -------------------------------------------------------------------------------


def parse_records(data: bytes) -> tuple[list[dict[str, Any]], int]:
    """The complete, intact records at the start of ``data``, and where they end."""
    records: list[dict[str, Any]] = []
    position = 0
    for record, end in _records(data):
        records.append(record)
        position = end
    return records, position


def _records(data: bytes) -> Iterator[tuple[dict[str, Any], int]]:
    for start, end in _frames(data):
        record = _decoded(data, start, end)
        if record is None:
            return
        yield record, end + 1


def _frames(data: bytes) -> Iterator[tuple[int, int]]:
    """Where each intact record's payload is in ``data`` (its checksum checked, not parsed)."""
    view = memoryview(data)
    position = 0
    while position < len(data):
        header = _HEADER.fullmatch(data, position, position + _HEADER_SIZE)
        if header is None:
            return
        start = position + _HEADER_SIZE
        end = start + int(header[1])
        if end > len(data) or data[end : end + 1] != b"\n":
            return
        if zlib.crc32(view[start:end]) != int(header[2], 16):
            return
        position = end + 1
        yield start, end


def _decoded(data: bytes, start: int, end: int) -> dict[str, Any] | None:
    try:
        record = decode(data[start:end])
    except SessionDecodeError:
        return None
    return record if isinstance(record, dict) else None


def replay(parts: dict[str, Any], records: list[dict[str, Any]], generation: int) -> int:
    """Apply the records of ``generation`` to a checkpoint's parts, in place; how many.

    A record that does not have the expected shape ends the replay (like a torn one).
    """
    applied = 0
    for record in records:
        if record.get("g") != generation:
            continue
        try:
            _apply(parts, record)
        except (KeyError, TypeError, ValueError, IndexError):
            break
        applied += 1
    return applied


def _apply(parts: dict[str, Any], record: dict[str, Any]) -> None:
    path = record.get("path")
    messages: list[Any] | None = None
    if path is not None:
        messages = _content_at(parts, path)
        at, add = record["at"], record["add"]
        if not isinstance(at, int) or not isinstance(add, list) or not 0 <= at <= len(messages):
            raise ValueError("a journal record does not fit the messages")
    new_parts = record["parts"]
    if not isinstance(new_parts, dict) or not all(isinstance(s, dict) for s in new_parts.values()):
        raise ValueError("a journal record's parts are not objects")
    if messages is not None:
        del messages[at:]
        messages.extend(add)
    parts.update(new_parts)
    for name in record.get("drop") or ():
        parts.pop(name, None)
    if path is not None and messages is not None:
        _container(parts, path)["content"] = messages


def _content_at(parts: dict[str, Any], path: list[str]) -> list[Any]:
    content = _container(parts, path).get("content", [])
    if not isinstance(content, list):
        raise ValueError("the saved messages are not a list")
    return content


def _container(parts: dict[str, Any], path: list[str]) -> dict[str, Any]:
    if not isinstance(path, list) or not path or not all(isinstance(p, str) for p in path):
        raise ValueError("a journal record's path is not a list of names")
    node: Any = parts
    for name in path:
        node = node.setdefault(name, {})
        if not isinstance(node, dict):
            raise ValueError(f"the part {name!r} is not an object")
    return node


def next_generation(journal: JournalWriter) -> int:
    """The generation of a checkpoint about to replace the file ``journal`` follows.

    0 (no ``"journal"`` part written) while the session never had a journal: there is
    no record such a file would have to outdate.
    """
    if journal.generation or journal.records or journal.path.exists():
        return journal.generation + 1
    return 0


def generation_of(parts: dict[str, Any]) -> int:
    """The checkpoint's generation (0 for a file written without a journal)."""
    state = parts.get(GENERATION_PART)
    value = state.get("generation") if isinstance(state, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


_GENERATION_TAIL = re.compile(rb'"journal"\s*:\s*\{\s*"generation"\s*:\s*(\d+)\s*\}\s*\}\s*$')
_RECORD_GENERATION = re.compile(rb'\{"g":(\d+)[,}]')


def journal_meta(path: Path) -> dict[str, Any] | None:
    """The metadata the journal of a session file gives it (the last in the journal),
    or ``None``: for the index, without parsing the file (its generation is at its end).

    Raises:
        OSError: A file cannot be read (a missing journal is ``None``).
    """
    try:
        data = journal_of(path).read_bytes()
    except FileNotFoundError:
        return None
    with open(path, "rb") as file:
        file.seek(max(os.fstat(file.fileno()).st_size - 128, 0))
        tail = _GENERATION_TAIL.search(file.read())
    generation = int(tail[1]) if tail else 0
    # The last record of the generation that has a meta: records are checked, not parsed,
    # and parsed from the last back (a journal holds up to megabytes of messages).
    for start, end in reversed(list(_frames(data))):
        found = _RECORD_GENERATION.match(data, start, end)
        if found is None or int(found[1]) != generation:
            continue
        record = _decoded(data, start, end)
        parts = record.get("parts") if record is not None else None
        meta = parts.get("meta") if isinstance(parts, dict) else None
        if isinstance(meta, dict):
            return meta
    return None


def read_with_journal(path: Path) -> SessionFile:
    """Read a session file and replay its journal on top (the ``"journal"`` part removed).

    Raises:
        Whatever :func:`read_session_file` raises; a damaged journal tail is dropped.
    """
    found = read_session_file(path)
    generation = generation_of(found.parts)
    found.parts.pop(GENERATION_PART, None)
    try:
        data = journal_of(path).read_bytes()
    except FileNotFoundError:
        return replace(found, generation=generation)
    records, _ = parse_records(data)
    if not replay(found.parts, records, generation):
        return replace(found, generation=generation)
    blob_refs = found.has_blob_refs or b".blobs" in data
    return replace(found, meta=found.parts["meta"], has_blob_refs=blob_refs, generation=generation)
