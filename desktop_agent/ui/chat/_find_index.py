"""The text of a conversation, case-folded and joined in chunks, for find-in-chat.

Reading 100,000 messages and case-folding them takes ~0.3 s, so it is done once, a few
milliseconds at a time (:meth:`FindIndex.build_some`), and kept: a search is then one
``str.find`` loop per chunk of rows (~10-20 ms for 100,000 messages), the rows found by
bisecting each chunk's row offsets. The index follows the conversation: any change at a row
drops the chunks from that row on (a streamed reply only touches the last chunk), and they
are read again before the next search. No Qt here.
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass, field

from desktop_agent.app import Conversation, ConversationEntry
from desktop_agent.app._conversation import ConversationEvent, Reset, content_text

CHUNK_ROWS = 512
_SEPARATOR = "\x00"  # between rows: a typed needle never holds it, so no match spans rows


def searchable_text(entry: ConversationEntry) -> str:
    """What find-in-chat looks through in a row: its message's text, thinking and tool
    output (as the sidebar's search does), or an error bubble's text."""
    msg = entry.msg
    return content_text(msg.content) if msg is not None else entry.error_text or ""


@dataclass
class _Chunk:
    first_row: int
    text: str = ""
    starts: list[int] = field(default_factory=list)  # each row's offset in ``text``


class FindIndex:
    """Case-folded row texts of a conversation, searched for the rows containing a needle."""

    def __init__(self, conversation: Conversation) -> None:
        """Index ``conversation`` (lazily: call :meth:`build_some` until :attr:`ready`)."""
        self._conversation = conversation
        self._chunks: list[_Chunk] = []
        self._unsubscribe = conversation.subscribe(self._on_event)

    def close(self) -> None:
        """Stop following the conversation and forget the text."""
        self._unsubscribe()
        self._chunks.clear()

    @property
    def _covered(self) -> int:
        """Rows indexed (from row 0 on)."""
        if not self._chunks:
            return 0
        last = self._chunks[-1]
        return last.first_row + len(last.starts)

    @property
    def ready(self) -> bool:
        """Whether every row is indexed."""
        return self._covered >= len(self._conversation)

    def build_some(self, budget_s: float = 0.008) -> bool:
        """Index rows for about ``budget_s`` seconds; whether every row is indexed now."""
        deadline = time.perf_counter() + budget_s
        entries = self._conversation.entries
        while not self.ready:
            if self._chunks and len(self._chunks[-1].starts) < CHUNK_ROWS:
                del self._chunks[-1]  # a partial chunk (rows were added): read it again
            first = self._covered
            texts = [
                searchable_text(entry).casefold() for entry in entries[first : first + CHUNK_ROWS]
            ]
            starts, offset = [], 0
            for text in texts:
                starts.append(offset)
                offset += len(text) + 1
            self._chunks.append(_Chunk(first, _SEPARATOR.join(texts), starts))
            if time.perf_counter() > deadline:
                break
        return self.ready

    def rows_with(self, needle: str) -> list[int]:
        """The rows whose text contains ``needle`` (case-insensitively), in order.

        Only the indexed rows are searched (see :attr:`ready`)."""
        folded = needle.casefold()
        if not folded:
            return []
        rows: list[int] = []
        for chunk in self._chunks:
            text, starts = chunk.text, chunk.starts
            at = text.find(folded)
            while at >= 0:
                index = bisect.bisect_right(starts, at) - 1
                rows.append(chunk.first_row + index)
                if index + 1 >= len(starts):
                    break
                at = text.find(folded, starts[index + 1])
        return rows

    def _on_event(self, event: ConversationEvent) -> None:
        row = 0 if isinstance(event, Reset) else event.index
        chunks = self._chunks
        while chunks and chunks[-1].first_row + len(chunks[-1].starts) > row:
            chunks.pop()  # the chunk holding ``row`` and those after it are read again
