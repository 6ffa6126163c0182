"""The session file encoding: plain JSON, sliced so that no orjson call runs long."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

from desktop_agent.app.library._codec import (
    SLICE_ITEMS,
    SessionDecodeError,
    decode,
    decode_parts,
    encode_session,
    meta_from_prefix,
)


def state(count: int) -> dict[str, Any]:
    messages = [
        [{"id": str(n), "content": f"line {n}\n[\n],\n", "role": "user", "name": "u"}, []]
        for n in range(count)
    ]
    return {
        "meta": {"title": "t", "schema_version": 1},
        "agent": {
            "memory": {"_compressed_summary": "", "content": messages},
            "input_module": {"short_term_memory": [{"n": n} for n in range(3 * SLICE_ITEMS)]},
            "name": "Friday",
        },
    }


@pytest.mark.parametrize("count", [0, 1, SLICE_ITEMS, SLICE_ITEMS + 1, 5 * SLICE_ITEMS + 7])
def test_sliced_files_are_plain_json_and_decode_back(count: int) -> None:
    data = encode_session(state(count))
    assert orjson.loads(data) == json.loads(data) == state(count)
    assert decode(data) == state(count)
    assert data.startswith(b'{"meta":{') and meta_from_prefix(data[:100]) is not None


def test_files_from_other_writers_decode_whole() -> None:
    value = state(3 * SLICE_ITEMS)
    for data in (
        json.dumps(value, indent=2).encode(),
        json.dumps(value).encode(),
        b"[\n1,\n2\n]",
        b'{"a": [\n1,\n2\n], "b": "x"}',
    ):
        assert decode(data) == json.loads(data)


def test_a_damaged_sliced_file_is_reported() -> None:
    data = encode_session(state(3 * SLICE_ITEMS))
    lines = data.split(b"\n")
    for broken in (
        data[: len(data) // 2],
        b"\n".join([*lines[:2], lines[2][:-10], *lines[3:]]),
        b"\n".join(lines[:-1]),
        data.replace(b'"line 5', b'"line 5\xff'),
    ):
        with pytest.raises(SessionDecodeError):
            decode_parts(broken)
