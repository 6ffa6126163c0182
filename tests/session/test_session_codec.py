"""The session JSON codec: orjson speed without giving up what ``json`` can represent."""

from __future__ import annotations

import dataclasses
import gc
import json
import math
from collections import OrderedDict
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

from desktop_agent.session._json_codec import decode_json, encode_json, gc_paused

ROUND_TRIPS = [
    {"plain": "text", "n": [1, 2.5, True, None], "nested": {"k": {"deep": []}}},
    {"unicode": "你好 — café 😀", "escapes": 'quote " backslash \\ tab \t nul \x00'},
    {"lone surrogate": "\ud800 and \udfff"},
    {"big": 2**70, "negative big": -(2**63) - 1, "u64 max": 2**64 - 1, "i64 min": -(2**63)},
    {"digits in text": "1234567890123456789012345"},
    OrderedDict(b=1, a=2),
]


@pytest.mark.parametrize("data", ROUND_TRIPS)
def test_round_trip_is_exact(data: Any) -> None:
    decoded = decode_json(encode_json(data))
    assert decoded == data
    assert list(decoded) == list(data)


def test_big_integers_stay_integers() -> None:
    decoded = decode_json(encode_json({"a": 123456789012345678901234567890}))
    assert decoded["a"] == 123456789012345678901234567890 and type(decoded["a"]) is int


def test_output_matches_agentscope_files_when_orjson_refuses() -> None:
    data = {"s": "\ud800", 1: "key"}
    expected = json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")
    assert encode_json(data) == expected
    assert b"\xed\xa0\x80" in encode_json(data)  # written with surrogatepass
    assert decode_json(encode_json(data)) == {"s": "\ud800", "1": "key"}


def test_deep_nesting_falls_back_to_the_stdlib() -> None:
    data: list[Any] = []
    tip = data
    for _ in range(300):  # beyond orjson's limit of 255
        tip.append([])
        tip = tip[0]
    assert decode_json(encode_json(data)) == data


def test_output_is_compact_utf8_json() -> None:
    assert encode_json({"a": [1, "é"]}) == '{"a":[1,"é"]}'.encode()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (b'{"x": NaN}', "nan"),
        (b'{"x": Infinity}', math.inf),
        (b'{"x": -Infinity}', -math.inf),
        (b'{"x": 1e400}', math.inf),
        (b'{"x": "\\ud800"}', "\ud800"),
    ],
)
def test_decodes_what_the_stdlib_accepts(text: bytes, expected: Any) -> None:
    value = decode_json(text)["x"]
    if expected == "nan":
        assert math.isnan(value)
    else:
        assert value == expected


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (object(), TypeError),
        (datetime(2025, 1, 1), TypeError),  # as json.dumps: not silently a string
        ({1, 2}, TypeError),
    ],
)
def test_encoding_what_json_cannot_represent_raises(value: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        encode_json({"v": value})


def test_dataclasses_are_refused_like_json_does() -> None:
    @dataclasses.dataclass
    class Point:
        x: int

    with pytest.raises(TypeError):
        encode_json({"p": Point(1)})


def test_cycles_raise_value_error() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError):
        encode_json(loop)


@pytest.mark.parametrize("text", [b"", b"{", b'{"a": 1', b"[1,]", b"nul", b'{"a":1}x'])
def test_invalid_json_raises_json_decode_error(text: bytes) -> None:
    with pytest.raises(json.JSONDecodeError):
        decode_json(text)


def test_invalid_utf8_raises_unicode_decode_error() -> None:
    with pytest.raises(UnicodeDecodeError):
        decode_json(b'{"a": "\xff\xfe"}')


@pytest.fixture
def gc_enabled() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.enable()
    yield
    if not was_enabled:
        gc.disable()


@pytest.mark.usefixtures("gc_enabled")
def test_gc_paused_pauses_and_restores_the_collector() -> None:
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), gc_paused():
        raise RuntimeError
    assert gc.isenabled()


@pytest.mark.usefixtures("gc_enabled")
def test_gc_paused_keeps_a_collector_the_application_turned_off() -> None:
    gc.disable()
    with gc_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
