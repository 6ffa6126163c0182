"""Tool-call arguments: from the model's JSON text to the ``input`` dict of a tool use.

A complete argument string is parsed with ``json.loads`` and, if the model got it wrong
(truncated, single quotes, trailing commas…), repaired with ``json_repair`` as AgentScope
does. While a call is still streaming, :class:`StreamedToolCall` keeps a cheap
incremental parse instead (see :mod:`._partial_json`), so that each chunk costs time in
proportion to the chunk, not to everything received so far.
"""

from __future__ import annotations

import json
from typing import Any

from desktop_agent.model._partial_json import PartialJSONObject

# Above this size, ``json_repair`` (pure Python) is only re-run once the text has grown
# by a quarter since its last run, which keeps the total repair work linear.
_REPAIR_EVERY_CHUNK_BELOW = 2048
# Above this size, the (C-speed, but whole-text) parse of the completed prefix only runs
# once the text has grown by 1/16 since the last one: per-chunk cost stays flat.
_PARSE_EVERY_CHUNK_BELOW = 8192


def parse_tool_arguments(text: str | None) -> dict[str, Any]:
    """The arguments as a dict: parsed, else repaired, else ``{}``."""
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        value = _repair(text)
    return value if isinstance(value, dict) else {}


def _repair(text: str) -> Any:
    import json_repair  # only broken arguments need it

    try:
        return json_repair.loads(text)
    except Exception:  # json_repair gives up on some inputs; "no arguments" then.
        return {}


def _dumped_len(value: Any) -> int:
    try:
        return len(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        return 0


class StreamedToolCall:
    """One tool call of a streamed answer: id, name and the arguments received so far.

    Attributes:
        id: The call id from the first delta of this call.
        name: The tool name.
        raw: The argument text received so far (becomes ``raw_input``).
        input: The best parse of ``raw`` (see :meth:`refresh` and :meth:`finish`).
    """

    __slots__ = ("_parsed_len", "_parser", "_repaired_len", "final", "id", "input", "name", "raw")

    def __init__(self, call_id: str, name: str, arguments: str) -> None:
        self.id = call_id
        self.name = name
        self.raw = arguments
        self.input: dict[str, Any] = {}
        self.final = False
        self._parser = PartialJSONObject()
        self._parsed_len = -1
        self._repaired_len = 0

    def append(self, arguments: str) -> None:
        """Add an argument delta."""
        self.raw += arguments
        self.final = False

    def refresh(self) -> None:
        """Update ``input`` from the (possibly incomplete) arguments so far.

        Past 8 KB, ``input`` is refreshed each time the text grew by 1/16 (it may lag
        ``raw`` by that much until :meth:`finish`).
        """
        raw = self.raw
        size = len(raw)
        if size == self._parsed_len:
            return
        if size >= _PARSE_EVERY_CHUNK_BELOW and size - self._parsed_len < size // 16:
            return
        self._parsed_len = size
        completion = self._parser.complete(raw)
        if completion is not None:
            try:
                value = json.loads(completion)
            except ValueError:
                value = None
            if isinstance(value, dict):
                self.input = value
                return
        self._refresh_by_repair(raw)

    def _refresh_by_repair(self, raw: str) -> None:
        if len(raw) >= _REPAIR_EVERY_CHUNK_BELOW and len(raw) < self._repaired_len * 1.25:
            return
        self._repaired_len = len(raw)
        value = _repair(raw)
        # As AgentScope: a repair that loses content compared to the last parse is ignored.
        if isinstance(value, dict) and _dumped_len(value) >= _dumped_len(self.input):
            self.input = value

    def finish(self) -> bool:
        """Parse the complete arguments exactly; whether ``input`` changed."""
        if self.final:
            return False
        self.final = True
        value = parse_tool_arguments(self.raw)
        if value == self.input:
            return False
        self.input = value
        return True
