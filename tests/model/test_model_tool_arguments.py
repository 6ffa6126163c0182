"""Parsing tool-call arguments, complete and while they stream in."""

from __future__ import annotations

import json

import pytest

from desktop_agent.model._partial_json import PartialJSONObject
from desktop_agent.model._tool_arguments import StreamedToolCall, parse_tool_arguments

DOCUMENTS = [
    {"location": "Beijing", "unit": "celsius"},
    {"a": [1, 2.5, -3e2, True, False, None, {"b": 'x"y\\z\u00e9\n'}], "c": {}, "d": []},
    {"path": "/tmp/a.txt", "content": 'line1\nline2 "quoted" \\ back \u4e2d\u6587 \U0001f600'},
    {"n": 0, "empty": "", "nested": {"deep": {"deeper": [[], [{}]]}}},
]


def _texts(document: dict) -> list[str]:
    return [
        json.dumps(document),
        json.dumps(document, ensure_ascii=False),
        json.dumps(document, indent=2),
    ]


@pytest.mark.parametrize("document", DOCUMENTS)
@pytest.mark.parametrize("step", [1, 3, 7])
def test_every_prefix_completes_to_valid_json(document: dict, step: int) -> None:
    for text in _texts(document):
        parser = PartialJSONObject()
        for end in range(step, len(text) + step, step):
            prefix = text[:end]
            completion = parser.complete(prefix)
            assert completion is not None, prefix
            assert isinstance(json.loads(completion), dict), prefix
            # Incremental and from-scratch scans agree.
            assert PartialJSONObject().complete(prefix) == completion
        assert json.loads(completion) == document


@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        ('{"a": "b', {"a": "b"}),
        ('{"a": ', {"a": ""}),
        ('{"a": 1, "b', {"a": 1}),
        ('{"a": 1, "b":', {"a": 1, "b": ""}),
        ('{"a": 1,', {"a": 1}),
        ('{"a": [1,', {"a": [1]}),
        ('{"a": tr', {"a": True}),
        ('{"a": 1.', {"a": 1}),
        ('{"a": -', {"a": ""}),
        ('{"a": "x\\', {"a": "x"}),
        ('{"a": "x\\u00', {"a": "x"}),
        ('{"a": "x\\u00e9', {"a": "xé"}),
        ('  {"a": {"b": [', {"a": {"b": []}}),
    ],
)
def test_partial_values(prefix: str, expected: dict) -> None:
    assert json.loads(PartialJSONObject().complete(prefix)) == expected


@pytest.mark.parametrize("text", ["", "   ", "[1, 2", "'a'", "{'a': 1}", '{"a" 1}'])
def test_what_cannot_be_completed(text: str) -> None:
    assert PartialJSONObject().complete(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ("", {}),
        (None, {}),
        ('{"a": 1', {"a": 1}),
        ("{'a': 'b'}", {"a": "b"}),
        ('{"a": 1,}', {"a": 1}),
        ("[1, 2]", {}),
        ("not json", {}),
    ],
)
def test_parse_tool_arguments(text: str | None, expected: dict) -> None:
    assert parse_tool_arguments(text) == expected


def test_streamed_call_falls_back_to_repair_and_never_loses_content() -> None:
    call = StreamedToolCall("id", "f", "")
    for piece in ["{'city'", ": 'Par", "is'", "}"]:
        call.append(piece)
        call.refresh()
    assert call.input == {"city": "Paris"}
    assert call.raw == "{'city': 'Paris'}"


def test_streamed_call_finish_parses_exactly_once() -> None:
    call = StreamedToolCall("id", "f", '{"a": [1, 2')
    call.refresh()
    assert call.input == {"a": [1, 2]}
    assert call.finish() is False  # the repaired final parse is the same
    call.append(", 3]}")
    assert call.finish() is True
    assert call.input == {"a": [1, 2, 3]}
    assert call.finish() is False


def test_large_arguments_are_refreshed_less_often_but_finish_exactly() -> None:
    text = json.dumps({"content": "x" * 20_000})
    call = StreamedToolCall("id", "f", "")
    lengths = set()
    for start in range(0, len(text), 10):
        call.append(text[start : start + 10])
        call.refresh()
        lengths.add(len(call.input.get("content", "")))
    # Every chunk below 8 KB, then once per 1/16 of growth.
    assert 5 < len([n for n in lengths if n > 8200]) < 30
    call.finish()
    assert call.input == {"content": "x" * 20_000}
