"""Validation faults, placed where the user can fix them.

``ContextConfigError.faults`` name each problem by a JSON path such as
``context_template[2].segments[0].value``. :func:`parse_fault` turns a path into the
module, segment and field it points at (for the form), and :func:`locate_line` finds the
line of that path in a JSON text (for the JSON tab) — the user's own text, formatted as
they like, not a regenerated one. No Qt here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from desktop_agent._i18n import translate
from desktop_agent.context import ContextConfigError

_MODULE_PATH = re.compile(
    r"^context_template\[(?P<module>\d+)\]"
    r"(?:\.(?P<field>\w+)(?:\[(?P<segment>\d+)\](?:\.(?P<segment_field>\w+))?)?)?"
)
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_LAST_STEP = re.compile(r"(?:\.[^.\[]+|\[\d+\])$")
JSON_SYNTAX_PATH = "(json)"


@dataclass(frozen=True)
class Fault:
    """One problem of the draft, located.

    Attributes:
        path: The JSON path, e.g. ``context_template[2].segments[0].value``; ``(json)``
            for JSON syntax errors, ``(root)`` for the whole document.
        message: The validator's message.
        module: The module's index, if the fault is inside one.
        field: The module's field (``module_name``, ``importance_func``, ``segments``…),
            or a top-level key when ``module`` is ``None``.
        segment: The segment's index, if the fault is inside one.
        line: The 1-based line in the JSON text, when known.
    """

    path: str
    message: str
    module: int | None = None
    field: str | None = None
    segment: int | None = None
    line: int | None = None

    def describe(self) -> str:
        """The fault as one line for a list: where, then what."""
        if self.line is None:
            return f"{self.path}: {self.message}"
        text = translate("Fault", "line {line}: {path}: {message}")
        return text.format(line=self.line, path=self.path, message=self.message)


def parse_fault(path: str, message: str) -> Fault:
    """Locate a ``(json_path, message)`` fault in the template's structure."""
    match = _MODULE_PATH.match(path)
    if match is None:
        top = path.split(".")[0].split("[")[0]
        return Fault(path, message, field=None if top.startswith("(") else top)
    segment = match["segment"]
    return Fault(
        path,
        message,
        module=int(match["module"]),
        field=match["field"],
        segment=int(segment) if segment is not None else None,
    )


def error_faults(error: ContextConfigError) -> list[Fault]:
    """The faults of an error, located in the structure."""
    return [parse_fault(path, message) for path, message in error.faults]


def syntax_fault(error: json.JSONDecodeError) -> Fault:
    """A JSON syntax error as a fault on its line."""
    message = translate("Fault", "invalid JSON at line {line}, column {column}: {error}").format(
        line=error.lineno, column=error.colno, error=error.msg
    )
    return Fault(JSON_SYNTAX_PATH, message, line=error.lineno)


def with_lines(faults: Iterable[Fault], text: str) -> list[Fault]:
    """``faults`` with the line of each path in the JSON ``text`` (valid JSON)."""
    try:
        positions = json_positions(text)
    except (ValueError, IndexError):
        return list(faults)
    return [_with_line(fault, positions, text) for fault in faults]


def _with_line(fault: Fault, positions: Mapping[str, int], text: str) -> Fault:
    if fault.line is not None:
        return fault
    offset = _nearest_position(fault.path, positions)
    if offset is None:
        return fault
    line = text.count("\n", 0, offset) + 1
    return Fault(fault.path, fault.message, fault.module, fault.field, fault.segment, line)


def _nearest_position(path: str, positions: Mapping[str, int]) -> int | None:
    """The position of ``path``, else of its closest ancestor that exists in the text."""
    current = "" if path.startswith("(") else path
    while True:
        if current in positions:
            return positions[current]
        if not current:
            return None
        current = _LAST_STEP.sub("", current)


def json_positions(text: str) -> dict[str, int]:
    """The character offset of every JSON path in ``text``.

    An object member's path points at its key (where an editor should put the mark); the
    root is ``""``. ``text`` must be valid JSON.
    """
    positions: dict[str, int] = {}
    _JsonWalker(text, positions).value(0, "")
    return positions


class _JsonWalker:
    """A small recursive walk over valid JSON text recording where each path starts."""

    def __init__(self, text: str, positions: dict[str, int]) -> None:
        self.text = text
        self.positions = positions
        self.decoder = json.JSONDecoder()

    def skip(self, offset: int) -> int:
        match = _WHITESPACE.match(self.text, offset)
        assert match is not None
        return match.end()

    def value(self, offset: int, path: str) -> int:
        offset = self.skip(offset)
        self.positions.setdefault(path, offset)
        char = self.text[offset]
        if char == "{":
            return self.members(offset + 1, path)
        if char == "[":
            return self.items(offset + 1, path)
        _, end = self.decoder.raw_decode(self.text, offset)
        return int(end)

    def members(self, offset: int, path: str) -> int:
        offset = self.skip(offset)
        if self.text[offset] == "}":
            return offset + 1
        while True:
            offset = self.skip(offset)
            key, after_key = self.decoder.raw_decode(self.text, offset)
            child = f"{path}.{key}" if path else key
            self.positions[child] = offset
            offset = self.skip(after_key) + 1  # past ':'
            offset = self.skip(self.value(offset, child))
            if self.text[offset] == "}":
                return offset + 1
            offset += 1  # past ','

    def items(self, offset: int, path: str) -> int:
        offset = self.skip(offset)
        if self.text[offset] == "]":
            return offset + 1
        index = 0
        while True:
            offset = self.skip(self.value(offset, f"{path}[{index}]"))
            if self.text[offset] == "]":
                return offset + 1
            offset += 1
            index += 1
