"""JSON encoding and decoding of session states: orjson when it is exact, stdlib otherwise.

orjson is several times faster than ``json`` on sessions (SPEC §7), but it refuses some
data the stdlib accepts (lone surrogates, non-string keys, integers beyond 64 bits,
nesting deeper than 255, ``NaN`` tokens when reading) and silently reads integers
beyond 64 bits as floats. Refusals fall back to the stdlib with AgentScope's file
format (``ensure_ascii=False``, UTF-8 with ``surrogatepass``); text that may hold such
an integer (a run of 19 or more digits) is read with the stdlib directly. One difference
remains: orjson writes ``NaN`` and infinities as ``null`` (standard JSON) where the
stdlib writes the non-standard ``NaN``/``Infinity`` tokens.

Decoding allocates a container per JSON object and array, which makes CPython's cyclic
garbage collector scan the whole heap repeatedly on a big session; the collector is
paused meanwhile (what Mercurial's ``util.nogc`` does for the same reason).
"""

from __future__ import annotations

import contextlib
import gc
import json
from collections.abc import Iterator
from typing import Any

import orjson

# datetime and dataclass instances are not JSON for the stdlib (nor for AgentScope);
# without these options orjson would quietly turn them into strings and dicts.
_ORJSON_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS

# 2**64 has 20 digits and -(2**63) - 1 has 19: shorter integers fit orjson exactly.
_DIGIT_RUN = b"1" * 19
_DIGITS_AS_ONES = bytes(0x31 if 0x30 <= byte <= 0x39 else 0x30 for byte in range(256))


def encode_json(data: Any) -> bytes:
    """Encode ``data`` as UTF-8 JSON bytes.

    Raises:
        TypeError: ``data`` holds something JSON cannot represent.
        ValueError: ``data`` holds a reference cycle.
    """
    try:
        return orjson.dumps(data, option=_ORJSON_OPTIONS)
    except orjson.JSONEncodeError:
        pass  # leave the except block, so a stdlib error is not chained to orjson's
    return json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")


def decode_json(data: bytes) -> Any:
    """Decode UTF-8 JSON bytes exactly as ``json.loads`` would.

    Raises:
        UnicodeDecodeError: ``data`` is not UTF-8 (lone surrogates allowed).
        json.JSONDecodeError: ``data`` is not JSON.
        RecursionError: ``data`` nests too deeply for the stdlib decoder.
    """
    if _DIGIT_RUN not in data.translate(_DIGITS_AS_ONES):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(data.decode("utf-8", "surrogatepass"))


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block (reference counting goes on).

    A no-op when the collector is already off, so the application's choice is kept.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
