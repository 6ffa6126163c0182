"""Session bytes: orjson in slices, meta first, and reading the meta from a prefix.

orjson holds the GIL for a whole call, so a worker thread encoding or decoding a
10,000-message memory in one call stalls the event loop for that long (~10 ms to encode,
~50 ms to decode). Long lists are therefore encoded a few hundred items at a time and
spliced with a newline after ``[``, after each slice's last comma and before ``]``.
Newlines are JSON whitespace and orjson never writes one (it escapes them in strings),
so the file stays plain ``{name: state_dict, ...}`` (what ``JSONSession`` and any JSON
reader load), and decoding can split it at those newlines and parse one slice at a time.
A file whose lines do not parse that way (written by another tool) is parsed whole.
Strings longer than ``STRING_SLICE`` characters (a 20 MB reply) are encoded a slice at a
time too — one JSON string, written in escaped pieces — and the pieces are written to the
file one after the other, never joined: one call on 20 MB holds the GIL for ~35 ms, a join
~30 ms more.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Iterator, Mapping
from typing import Any

from desktop_agent._i18n import translate
from desktop_agent.session._json_codec import decode_json, encode_json, gc_paused

SLICE_ITEMS = 256
STRING_SLICE = 1 << 20
_DECODER = json.JSONDecoder()
_MAX_SPLIT_DEPTH = 4
_META_HEAD = re.compile(rb'\s*\{\s*"meta"\s*:\s*')


def yield_gil() -> None:
    """Let a thread waiting for the GIL (the event loop) run now, not after the 5 ms
    switch interval: called between slices of long work in worker threads."""
    time.sleep(0)


class SessionDecodeError(ValueError):
    """The bytes are not a JSON object of module states (the message says why)."""


def dumps(value: Any) -> bytes:
    """JSON bytes for ``value`` (as ``JSONSession`` encodes it).

    Raises:
        TypeError: ``value`` holds something JSON cannot represent.
    """
    return encode_json(value)


def encode(value: Any) -> bytes:
    """JSON bytes for ``value``, splitting long lists (and the dicts above them)."""
    return b"".join(encode_chunks(value))  # the one copy of the whole file


def encode_chunks(
    value: Any, long_items: frozenset[int] = frozenset()
) -> Iterator[bytes | memoryview]:
    """:func:`encode`'s bytes as the pieces they are made in, to write one by one.

    Everything is encoded now except the slices of long strings, which are encoded as
    they are written: a 20 MB answer never exists a second time, encoded, in memory.

    Args:
        value: What to encode.
        long_items: The ``id()`` of each list item known to hold a long string (a message
            with a 20 MB answer): they are encoded piece by piece, not in one call.
    """
    pieces: list[Piece] = []
    _encode_into(value, 0, pieces, long_items)
    return _materialized(pieces)


class _StringSlice:
    """A slice of a long string, JSON-escaped when it is written."""

    __slots__ = ("start", "value")

    def __init__(self, value: str, start: int) -> None:
        self.value, self.start = value, start

    def encode(self) -> memoryview:
        yield_gil()
        return memoryview(dumps(self.value[self.start : self.start + STRING_SLICE]))[1:-1]


Piece = bytes | memoryview | _StringSlice


def _materialized(pieces: list[Piece]) -> Iterator[bytes | memoryview]:
    for piece in pieces:
        yield piece.encode() if isinstance(piece, _StringSlice) else piece


def _encode_long_string(value: str, out: list[Piece]) -> None:
    out.append(b'"')
    out.extend(_StringSlice(value, start) for start in range(0, len(value), STRING_SLICE))
    out.append(b'"')


def _encode_into(
    value: Any,
    depth: int,
    out: list[Piece],
    long_items: frozenset[int] = frozenset(),
    lines: bool = True,
) -> None:
    """Encode ``value``; ``lines``: long lists may be split over lines (not inside an item
    of a split list, which must stay on its line)."""
    if long_items and id(value) in long_items:
        _encode_into(value, 0, out, frozenset(), lines=False)
        return
    if isinstance(value, str) and len(value) > STRING_SLICE:
        _encode_long_string(value, out)
        return
    if isinstance(value, list) and len(value) <= SLICE_ITEMS and depth < _MAX_SPLIT_DEPTH:
        out.append(b"[")
        for number, item in enumerate(value):
            if number:
                out.append(b",")
            _encode_into(item, depth + 1, out, long_items, lines)
        out.append(b"]")
        return
    if isinstance(value, list) and len(value) > SLICE_ITEMS and lines:
        snapshot = list(value)
        out.append(b"[\n")
        for start in range(0, len(snapshot), SLICE_ITEMS):
            if start:
                out.append(b",\n")
                yield_gil()
            _encode_slice(snapshot[start : start + SLICE_ITEMS], out, long_items)
        out.append(b"\n]")
        return
    if isinstance(value, dict) and depth < _MAX_SPLIT_DEPTH:
        items = list(value.items())
        if all(isinstance(key, str) for key, _ in items):
            out.append(b"{")
            for number, (key, item) in enumerate(items):
                out.append(b"," + dumps(key) + b":" if number else dumps(key) + b":")
                _encode_into(item, depth + 1, out, long_items, lines)
            out.append(b"}")
            return
    out.append(dumps(value))


def _encode_slice(items: list[Any], out: list[Piece], long_items: frozenset[int]) -> None:
    """One line of a split list: its items, comma-separated, without brackets."""
    if not long_items or not any(id(item) in long_items for item in items):
        out.append(memoryview(dumps(items))[1:-1])
        return
    for number, item in enumerate(items):
        if number:
            out.append(b",")
        if id(item) in long_items:
            _encode_into(item, 0, out, frozenset(), lines=False)
        else:
            out.append(dumps(item))


def encode_session(parts: Mapping[str, Any]) -> bytes:
    """The file's bytes: ``{"meta": ..., <module>: ..., ...}`` in the order given."""
    return encode(dict(parts))


def encode_session_chunks(
    parts: Mapping[str, Any], long_items: frozenset[int] = frozenset()
) -> Iterator[bytes | memoryview]:
    """:func:`encode_session` as pieces, to write without joining them (see
    :func:`encode_chunks` for ``long_items``)."""
    return encode_chunks(dict(parts), long_items)


def decode(data: bytes) -> Any:
    """Parse JSON bytes as ``JSONSession`` does (orjson when exact, else stdlib).

    Raises:
        SessionDecodeError: Not UTF-8 JSON; the message says why and where.
    """
    if not data or data.isspace():
        raise SessionDecodeError(translate("SessionLibrary", "the file is empty"))
    try:
        with gc_paused():
            if b"[\n" in data:
                found = _decode_slices(data)
                if found is not _NOT_SLICED:
                    return found
            return decode_json(data)
    except UnicodeDecodeError as exc:
        raise SessionDecodeError(
            translate("SessionLibrary", "it is not UTF-8 text ({error})").format(error=exc.reason)
        ) from None
    except ValueError as exc:  # json.JSONDecodeError
        raise SessionDecodeError(
            translate("SessionLibrary", "it is not valid JSON ({error})").format(error=exc)
        ) from None
    except RecursionError:
        raise SessionDecodeError(
            translate("SessionLibrary", "its JSON nests too deeply to be read")
        ) from None


_NOT_SLICED = object()


class _Lines:
    """``data.split(b"\\n")`` made lazily: one call splitting 40 MB holds the GIL for
    ~30-200 ms (a GUI stall); each line here is copied out when it is read."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._starts = [0]
        at = data.find(b"\n")
        while at >= 0:
            self._starts.append(at + 1)
            at = data.find(b"\n", at + 1)
        self._starts.append(len(data) + 1)

    def __len__(self) -> int:
        return len(self._starts) - 1

    def __getitem__(self, index: int) -> bytes:
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._data[self._starts[index] : self._starts[index + 1] - 1]


def _decode_slices(data: bytes) -> Any:
    """Parse a file written by :func:`encode` slice by slice; ``_NOT_SLICED`` if it is not."""
    lines = _Lines(data)
    marker = f"\x00{secrets.token_hex(8)}:"
    skeleton, index = bytearray(), 0
    arrays: list[list[Any]] = []
    while True:
        head = lines[index]
        if index:
            if not head.startswith(b"]"):
                return _NOT_SLICED
            head = head[1:]
        if index == len(lines) - 1:
            skeleton += head
            break
        if not head.endswith(b"["):
            return _NOT_SLICED
        skeleton += head[:-1] + dumps(f"{marker}{len(arrays)}")
        items, index = _decode_items(lines, index + 1)
        if items is None:
            return _NOT_SLICED
        arrays.append(items)
    try:
        return _fill(decode_json(bytes(skeleton)), marker, arrays)
    except ValueError:
        return _NOT_SLICED


def _decode_items(lines: _Lines, index: int) -> tuple[list[Any] | None, int]:
    items: list[Any] = []
    while index < len(lines) and not lines[index].startswith(b"]"):
        line = lines[index]
        try:
            items.extend(decode_json(b"[" + (line[:-1] if line.endswith(b",") else line) + b"]"))
        except ValueError:
            return None, index
        index += 1
        yield_gil()
    return (items if index < len(lines) else None), index


def _fill(value: Any, marker: str, arrays: list[list[Any]]) -> Any:
    if isinstance(value, str) and value.startswith(marker):
        return arrays[int(value[len(marker) :])]
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list, str)):
                value[key] = _fill(item, marker, arrays)
    elif isinstance(value, list):
        for position, item in enumerate(value):
            if isinstance(item, (dict, list, str)):
                value[position] = _fill(item, marker, arrays)
    return value


def decode_parts(data: bytes) -> dict[str, Any]:
    """Parse a session file: a JSON object whose values are objects.

    Raises:
        SessionDecodeError: Not JSON, or not of the shape ``{name: {...}, ...}``.
    """
    parts = decode(data)
    if not isinstance(parts, dict):
        raise SessionDecodeError(
            translate(
                "SessionLibrary", "it holds a JSON {kind}, not an object of saved parts"
            ).format(kind=type(parts).__name__)
        )
    for name, state in parts.items():
        if not isinstance(state, dict):
            raise SessionDecodeError(
                translate("SessionLibrary", "its part {name} is a {kind}, not an object").format(
                    name=repr(name), kind=type(state).__name__
                )
            )
    return parts


def meta_from_prefix(head: bytes) -> tuple[Any, int] | None:
    """The ``"meta"`` value at the start of a session file, and the byte where it ends.

    Returns ``None`` when the file does not start with ``{"meta":`` or the value does not
    end inside ``head`` (read more, or parse the whole file).
    """
    match = _META_HEAD.match(head)
    if match is None:
        return None
    text = head[match.end() :].decode("utf-8", "ignore")
    try:
        value, end = _DECODER.raw_decode(text)
    except ValueError:
        return None
    return value, match.end() + len(text[:end].encode("utf-8"))


def ends_like_object(tail: bytes) -> bool:
    """Whether the last bytes close a JSON object (a cheap truncation check)."""
    return tail.rstrip().endswith(b"}")
