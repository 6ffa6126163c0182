"""``SessionMemory``: an ``InMemoryMemory`` that is cheap to save again and again.

The autosaver calls ``state_dict()`` on the event loop (it touches live objects) about
once a second while a reply streams. For a 10,000-message memory, building every
message's dict anew takes ~9 ms of the GUI thread's frame budget, although all but the
last message or two are the same as at the previous save: a memory stores its own
copies and only appends, deletes or re-marks them. So each entry's saved form is kept
and reused while the entry (the same ``(msg, marks)`` tuple, with the same content and
metadata objects) is still at the same position. The file content is unchanged. (A
stored message's other fields are never reassigned.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg

_Entry = tuple[Msg, list[str]]


class SessionMemory(InMemoryMemory):
    """An ``InMemoryMemory`` whose ``state_dict()`` reuses unchanged messages' dicts."""

    def __init__(self) -> None:
        """Start empty."""
        super().__init__()
        self._saved: list[tuple[_Entry, list[Any]]] = []
        self.register_state("content", custom_to_json=self._content_to_json)

    def _content_to_json(self, content: Sequence[_Entry]) -> list[list[Any]]:
        previous = self._saved
        known = len(previous)
        saved: list[tuple[_Entry, list[Any]]] = []
        append = saved.append
        # One flat loop: it runs over every message at every autosave.
        for index, entry in enumerate(content):
            if index < known:
                old = previous[index]
                if old[0] is entry:
                    old_dict = old[1][0]
                    msg = entry[0]
                    if old_dict["content"] is msg.content and old_dict["metadata"] is msg.metadata:
                        append(old)
                        continue
            append((entry, [entry[0].to_dict(), entry[1]]))
        self._saved = saved
        return [item[1] for item in saved]
