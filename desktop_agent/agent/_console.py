"""Console streaming of printed messages, in time proportional to the new text only.

Callers print the same ``Msg`` again and again with cumulative content. AgentScope rebuilds
the whole text view (``"\\n".join(...)``) per chunk and prints the suffix beyond what was
already printed; that is quadratic in the reply length. :class:`ConsoleStream` produces the
same output by remembering only how many characters of the view were printed and slicing
the new part out of the block it falls in.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from desktop_agent.message import Msg

_DUMPED_BLOCK_TYPES = ("tool_use", "tool_result")


@dataclass
class ConsoleStream:
    """What was printed so far for one message id."""

    printed: int = 0
    """Characters of the message's text view already printed."""
    last_char: str = ""
    """The last character printed, to know whether a newline is still owed."""

    @property
    def ends_with_newline(self) -> bool:
        """Whether the printed text ends with a newline."""
        return self.last_char == "\n"


def _text_parts(msg: Msg, block: dict[str, Any]) -> tuple[str, str] | None:
    block_type = block.get("type")
    if block_type == "text":
        return f"{msg.name}: ", block.get("text") or ""
    if block_type == "thinking":
        return f"{msg.name}(thinking): ", block.get("thinking") or ""
    return None


def _write(text: str) -> None:
    print(text, end="")


def stream_to_console(msg: Msg, last: bool, state: ConsoleStream | None) -> ConsoleStream | None:
    """Print what is new in ``msg`` since ``state`` and return the updated state.

    Text and thinking blocks stream; ``tool_use``/``tool_result`` blocks are dumped as
    indented JSON once ``last`` is true; media blocks are skipped.

    Returns:
        The state to keep for ``msg.id``, or ``None`` when no text was printed yet.
    """
    offset = 0
    first = True
    for block in msg.get_content_blocks():
        parts = _text_parts(msg, block)
        if parts is None:
            if last and block.get("type") in _DUMPED_BLOCK_TYPES:
                _dump_block(msg, block, state)
            continue
        head = parts[0] if first else "\n" + parts[0]
        body = parts[1]
        first = False
        end = offset + len(head) + len(body)
        printed = state.printed if state else 0
        if end > printed:
            state = _print_new_part(head, body, printed - offset, end, state)
        offset = end
    return state


def _print_new_part(
    head: str, body: str, skip: int, end: int, state: ConsoleStream | None
) -> ConsoleStream:
    skip = max(skip, 0)
    new = head[skip:] + body if skip < len(head) else body[skip - len(head) :]
    _write(new)
    state = state or ConsoleStream()
    state.printed = end
    state.last_char = new[-1]
    return state


def _dump_block(msg: Msg, block: dict[str, Any], state: ConsoleStream | None) -> None:
    dumped = json.dumps(block, indent=4, ensure_ascii=False)
    if state is None or state.printed == 0:
        print(f"{msg.name}: {dumped}")
    elif not state.ends_with_newline:
        print(f"\n{dumped}")
    else:
        print(dumped)


def finish_console_stream(state: ConsoleStream | None) -> None:
    """End a message's stream: owe the console a newline if the text did not end with one."""
    if state is not None and state.printed and not state.ends_with_newline:
        print()


def validate_speech(speech: Any) -> None:
    """Check each audio block's source is base64 or url.

    Raises:
        ValueError: A source of another type.
    """
    blocks: Iterable[Any] = speech if isinstance(speech, list) else [speech]
    for block in blocks:
        source = block.get("source") or {}
        if source.get("type") not in ("base64", "url"):
            raise ValueError(f"Unsupported audio source: {source.get('type')!r}")
