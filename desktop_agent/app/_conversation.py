"""The conversation shown in the chat pane, as a plain observable list of rows.

The chat service feeds it every printed ``Msg`` *by reference*: a streaming reply is the same
object printed thousands of times with cumulative content. So :meth:`Conversation.upsert` is
O(1) in the reply's length — an id → row lookup, a revision bump and one event — and never
copies content; views read the live ``Msg`` when they repaint. No Qt here: the Qt item model
in ``desktop_agent.ui.chat`` is a thin adapter over these events.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from desktop_agent.message import Msg

INTERRUPTED_TOOL_TEXT = "The tool call has been interrupted by the user."
"""The output AgentScope gives a tool call cut short by the user."""


class EntryKind(StrEnum):
    """What a row of the conversation holds."""

    MESSAGE = "message"
    ERROR = "error"


class ToolStatus(StrEnum):
    """The state of a tool call, derived from its result."""

    RUNNING = "running"
    WAITING = "waiting"
    """The user is being asked whether the call may run."""
    DONE = "done"
    ERROR = "error"
    DENIED = "denied"
    """The user (or the default policy) did not allow it."""
    NOT_RUN = "not_run"
    """It was never run (its arguments were cut off, or the turn failed first)."""
    INTERRUPTED = "interrupted"


@dataclass(eq=False, slots=True)
class ConversationEntry:
    """One row: a message (possibly still streaming) or an error bubble.

    Attributes:
        kind: Message or error.
        msg: The live message (``None`` for errors); read it, never mutate it.
        streaming: Whether more chunks of this message are expected.
        error_text: The error shown to the user (errors only).
        retryable: Whether the error bubble offers Retry.
        revision: Bumped on every change, so views can cache renders per revision.
        actions: What the message offers under it, e.g. ``("retry", "continue")`` for
            an answer that was cut off (only the latest answer offers anything).
    """

    kind: EntryKind
    msg: Msg | None
    streaming: bool = False
    error_text: str | None = None
    retryable: bool = False
    revision: int = 0
    actions: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """A stable identity for caches: the message id, or a unique id for an error."""
        if self.msg is not None:
            return self.msg.id
        return f"error:{id(self)}"


@dataclass(frozen=True)
class Inserted:
    """``count`` rows were inserted from ``index`` on (one, except when the older rows of
    a long session are put in front of its last ones: see :meth:`Conversation.prepend`)."""

    index: int
    count: int = 1


@dataclass(frozen=True)
class Changed:
    """The row at ``index`` changed (new content, or streaming state)."""

    index: int


@dataclass(frozen=True)
class Removed:
    """The row at ``index`` was removed."""

    index: int


@dataclass(frozen=True)
class Reset:
    """Every row was replaced."""


ConversationEvent = Inserted | Changed | Removed | Reset
Listener = Callable[[ConversationEvent], None]


def tool_output_text(output: Any) -> str:
    """The text of a tool result's ``output``: the string, or its text blocks joined."""
    if isinstance(output, str):
        return output
    if not isinstance(output, list):
        return ""
    return "\n".join(
        str(block.get("text", ""))
        for block in output
        if isinstance(block, dict) and block.get("type") == "text"
    )


def content_text(content: Any) -> str:
    """The searchable text of a message content: text, thinking and tool output (what the
    sidebar's search, find-in-chat and opening a search hit all look through)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    texts: list[str] = []
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" or kind == "thinking":
            value = block.get(kind)
            if isinstance(value, str):
                texts.append(value)
        elif kind == "tool_result":
            texts.append(content_text(block.get("output")))
    return "\n".join(text for text in texts if text)


def answer_ending(msg: Msg) -> str | None:
    """How an assistant answer ended, when that needs saying under it.

    ``"interrupted"`` (the user pressed Stop), ``"cut_off"`` (the stream ended without a
    finish reason), ``"length"`` (the token limit), ``"content_filter"``,
    ``"thinking_only"`` (finished, but with thoughts and no answer), or ``None``.
    """
    metadata = msg.metadata or {}
    if metadata.get("_is_interrupted"):
        return "interrupted"
    if "finish_reason" not in metadata:
        return None
    reason = metadata["finish_reason"]
    if reason is None:
        return "cut_off"
    if reason in ("length", "content_filter"):
        return str(reason)
    content = msg.content if isinstance(msg.content, list) else []
    kinds = {b.get("type") for b in content if isinstance(b, dict)}
    return "thinking_only" if kinds == {"thinking"} else None


_ERROR_LABEL = re.compile(r"[A-Za-z]*Error\b")
_NOT_RUN_PREFIX = "The tool call was not executed"


def output_status(text: str) -> ToolStatus:
    """The status a finished tool result's text says: denied, not run, error or done."""
    stripped = text.lstrip()
    if stripped.startswith("PermissionDenied"):
        return ToolStatus.DENIED
    if stripped.startswith(_NOT_RUN_PREFIX):
        return ToolStatus.NOT_RUN
    if _ERROR_LABEL.match(stripped):
        return ToolStatus.ERROR
    return ToolStatus.DONE


def is_interrupted_output(text: str) -> bool:
    """Whether a tool result's text says the user interrupted the call."""
    stripped = text.strip()
    return stripped == INTERRUPTED_TOOL_TEXT or stripped.endswith(
        f"<system-info>{INTERRUPTED_TOOL_TEXT}</system-info>"
    )


_TOOL_KINDS = frozenset({"tool_use", "tool_result"})


def _has_tool_block(content: list[Any]) -> bool:
    return any(isinstance(b, dict) and b.get("type") in _TOOL_KINDS for b in content)


class Conversation:
    """The rows of the chat pane, with change events for views.

    Rows are appended in arrival order. Messages are identified by ``msg.id``; tool results
    are indexed by tool-call id so a tool-use card can show the status of its call.
    """

    def __init__(self) -> None:
        """Create an empty conversation."""
        self._entries: list[ConversationEntry] = []
        self._rows: dict[str, int] = {}
        self._listeners: list[Listener] = []
        self._streaming: set[str] = set()
        self._tool_use_msg: dict[str, str] = {}
        self._tool_results: dict[str, tuple[dict[str, Any], str]] = {}
        self._turn_active = False
        self._offering: str | None = None
        self._tool_names: dict[str, str] = {}
        self._waiting_call: str | None = None
        self.generation = 0
        """Bumped whenever every row is replaced (:meth:`reset`, :meth:`adopt`)."""
        self.older_pending = False
        """Whether these are a long session's last rows, its older ones to come."""

    # -- observation -------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event from now on.

        Returns:
            A function that unsubscribes the listener.
        """
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def _emit(self, event: ConversationEvent) -> None:
        for listener in tuple(self._listeners):
            listener(event)

    # -- reading -----------------------------------------------------------------------

    @property
    def entries(self) -> Sequence[ConversationEntry]:
        """The rows, in display order (a read-only view; do not mutate)."""
        return self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, index: int) -> ConversationEntry:
        return self._entries[index]

    def row_of(self, msg_id: str) -> int | None:
        """The row of the message with ``msg_id``, if present."""
        return self._rows.get(msg_id)

    @property
    def turn_active(self) -> bool:
        """Whether a turn is running: set by any upsert, cleared by :meth:`finish_streaming`."""
        return self._turn_active

    def tool_result(self, call_id: str) -> dict[str, Any] | None:
        """The latest ``ToolResultBlock`` for the tool call ``call_id``, if any."""
        found = self._tool_results.get(call_id)
        return found[0] if found else None

    def tool_status(self, call_id: str) -> ToolStatus:
        """The status of tool call ``call_id``, derived from its result.

        No result: waiting while the user is asked about it, running while the turn is
        active, otherwise interrupted. A result still streaming: running. Otherwise
        interrupted, denied, not run, error (text starting "Error", "…Error") or done.
        """
        found = self._tool_results.get(call_id)
        if found is None:
            if call_id == self._waiting_call:
                return ToolStatus.WAITING
            return ToolStatus.RUNNING if self._turn_active else ToolStatus.INTERRUPTED
        block, msg_id = found
        text = tool_output_text(block.get("output"))
        if is_interrupted_output(text):
            return ToolStatus.INTERRUPTED
        if msg_id in self._streaming:
            return ToolStatus.RUNNING
        return output_status(text)

    def set_waiting(self, tool_name: str | None) -> None:
        """Mark the first unanswered call of ``tool_name`` as waiting for permission
        (``None``: nothing waits any more); its row is refreshed."""
        previous = self._waiting_call
        self._waiting_call = None
        if tool_name is not None:
            self._waiting_call = next(
                (
                    call_id
                    for call_id, name in self._tool_names.items()
                    if name == tool_name and call_id not in self._tool_results
                ),
                None,
            )
        for call_id in {previous, self._waiting_call} - {None}:
            msg_id = self._tool_use_msg.get(str(call_id))
            row = self._rows.get(msg_id) if msg_id is not None else None
            if row is not None:
                self._entries[row].revision += 1
                self._emit(Changed(row))

    # -- writing -----------------------------------------------------------------------

    def reset(self, msgs: Iterable[Msg]) -> None:
        """Replace every row with ``msgs`` (finished messages), e.g. to open a session."""
        self._entries = []
        self._rows = {}
        self._streaming = set()
        self._tool_use_msg = {}
        self._tool_results = {}
        self._tool_names = {}
        self._waiting_call = None
        self._offering = None
        self._turn_active = False
        self.generation += 1
        self.older_pending = False
        self._add_finished(msgs)
        self._emit(Reset())

    def extend_unobserved(self, msgs: Iterable[Msg]) -> None:
        """Append rows for ``msgs`` (finished messages) to a conversation nobody observes
        yet, with no event: rows built a slice at a time for :meth:`prepend`.

        Raises:
            ValueError: Somebody observes this conversation.
        """
        if self._listeners:
            raise ValueError("extend_unobserved() on an observed conversation")
        self._add_finished(msgs)

    def _add_finished(self, msgs: Iterable[Msg]) -> None:
        entries, rows = self._entries, self._rows
        message, new_entry, index_tools = EntryKind.MESSAGE, ConversationEntry, self._index_tools
        for msg in msgs:  # ~2 µs a message: opening a long session is this loop
            msg_id = msg.id
            row = rows.get(msg_id)
            if row is None:
                rows[msg_id] = len(entries)
                entries.append(new_entry(message, msg))
            else:
                entries[row].msg = msg
            content = msg.content
            if type(content) is list and _has_tool_block(content):
                index_tools(msg)

    def adopt(self, built: Conversation, *, older_pending: bool = False) -> None:
        """Show the rows of ``built`` (a conversation nobody observes, filled by
        :meth:`reset`, e.g. in a worker thread): O(1), one ``Reset`` event; ``built`` is
        left empty. ``older_pending``: these are a long session's last rows, its older
        ones follow (:meth:`prepend`)."""
        if built._listeners:
            raise ValueError("adopt() takes the rows of a conversation nobody observes")
        self._entries, built._entries = built._entries, []
        self._rows, built._rows = built._rows, {}
        self._tool_use_msg, built._tool_use_msg = built._tool_use_msg, {}
        self._tool_results, built._tool_results = built._tool_results, {}
        self._tool_names, built._tool_names = built._tool_names, {}
        self._streaming, self._waiting_call, self._offering = set(), None, None
        self._turn_active = False
        self.generation += 1
        self.older_pending = older_pending
        self._emit(Reset())

    def prepend(self, built: Conversation) -> None:
        """Put the rows of ``built`` (finished messages nobody observes, filled by
        :meth:`extend_unobserved`) in front of these rows: one ``Inserted`` event for all
        of them; ``built`` is left empty. Cost: the rows already here, not those put in
        front — a 100,000-message session shows its last rows first so.

        A message of ``built`` shown here already (a session holding one id twice) keeps
        its row here and is not put in front again.

        Raises:
            ValueError: ``built`` is observed.
        """
        if built._listeners:
            raise ValueError("prepend() takes the rows of a conversation nobody observes")
        self.older_pending = False
        rows = built._rows
        if any(msg_id in rows for msg_id in self._rows):
            kept = [
                e.msg for e in built._entries if e.msg is not None and e.msg.id not in self._rows
            ]
            built.reset([])
            built._add_finished(kept)
            rows = built._rows
        count = len(built._entries)
        if not count:
            return
        for msg_id, row in self._rows.items():
            rows[msg_id] = row + count
        built._entries.extend(self._entries)
        self._entries, built._entries = built._entries, []
        self._rows, built._rows = rows, {}
        built._tool_use_msg.update(self._tool_use_msg)  # a later row's record wins
        built._tool_names.update(self._tool_names)
        built._tool_results.update(self._tool_results)
        self._tool_use_msg, built._tool_use_msg = built._tool_use_msg, {}
        self._tool_names, built._tool_names = built._tool_names, {}
        self._tool_results, built._tool_results = built._tool_results, {}
        self._emit(Inserted(0, count))

    def upsert(self, msg: Msg, last: bool) -> int:
        """Show ``msg``: insert a new row, or mark its existing row changed.

        Args:
            msg: The message, by reference; later chunks may be the same object.
            last: Whether this is the message's final chunk.

        Returns:
            The row index of the message.
        """
        self._turn_active = True
        if last:
            self._streaming.discard(msg.id)
        else:
            self._streaming.add(msg.id)
        touched = self._index_tools(msg)
        row = self._rows.get(msg.id)
        if row is None:
            row = len(self._entries)
            self._rows[msg.id] = row
            self._entries.append(ConversationEntry(EntryKind.MESSAGE, msg, streaming=not last))
            self._emit(Inserted(row))
        else:
            entry = self._entries[row]
            entry.msg = msg
            entry.streaming = not last
            entry.revision += 1
            self._emit(Changed(row))
        self._touch_tool_use_rows(touched, row)
        return row

    def add_error(self, text: str, retryable: bool) -> int:
        """Append an error bubble.

        Returns:
            Its row index.
        """
        row = len(self._entries)
        self._entries.append(
            ConversationEntry(EntryKind.ERROR, None, error_text=text, retryable=retryable)
        )
        self._emit(Inserted(row))
        return row

    def set_actions(self, msg_id: str, actions: Sequence[str]) -> None:
        """Offer ``actions`` under the message ``msg_id`` (and nothing under any other);
        its row is refreshed either way (its metadata may say how it ended)."""
        self.clear_actions()
        row = self._rows.get(msg_id)
        if row is None:
            return
        entry = self._entries[row]
        entry.actions = tuple(actions)
        self._offering = msg_id if actions else None
        entry.revision += 1
        self._emit(Changed(row))

    def clear_actions(self) -> None:
        """Withdraw the offered actions (a new turn starts)."""
        offering, self._offering = self._offering, None
        row = self._rows.get(offering) if offering is not None else None
        if row is not None and self._entries[row].actions:
            entry = self._entries[row]
            entry.actions = ()
            entry.revision += 1
            self._emit(Changed(row))

    def remove_errors(self) -> None:
        """Remove every error bubble (e.g. before a retry)."""
        rows = [i for i, e in enumerate(self._entries) if e.kind is EntryKind.ERROR]
        if not rows:
            return
        for row in reversed(rows):
            del self._entries[row]
            self._reindex_from(row)
            self._emit(Removed(row))

    def replace_from(self, row: int, msgs: Iterable[Msg]) -> None:
        """Replace the rows from ``row`` on with ``msgs`` (finished messages), e.g. when
        another version of a message is shown; the rows before are untouched. Cost: the
        rows replaced, never the ones before."""
        while len(self._entries) > row:
            entry = self._entries.pop()
            if entry.msg is not None:
                self._rows.pop(entry.msg.id, None)
                self._streaming.discard(entry.msg.id)
                if self._offering == entry.msg.id:
                    self._offering = None
                self._forget_tools(entry.msg)
            self._emit(Removed(len(self._entries)))
        for msg in msgs:
            self._rows[msg.id] = len(self._entries)
            self._entries.append(ConversationEntry(EntryKind.MESSAGE, msg))
            self._index_tools(msg)
            self._emit(Inserted(len(self._entries) - 1))

    def finish_streaming(self) -> None:
        """Mark every streaming row done: the turn ended or was stopped."""
        self._turn_active = False
        changed = {row for msg_id in self._streaming if (row := self._rows.get(msg_id)) is not None}
        self._streaming.clear()
        for call_id, msg_id in self._tool_use_msg.items():
            if call_id not in self._tool_results and (row := self._rows.get(msg_id)) is not None:
                changed.add(row)
        for row in sorted(changed):
            entry = self._entries[row]
            entry.streaming = False
            entry.revision += 1
            self._emit(Changed(row))

    # -- internals ---------------------------------------------------------------------

    def _index_tools(self, msg: Msg) -> list[str]:
        """Record the tool calls and results in ``msg``; return call ids whose result it has.

        Cost is the number of blocks, never their length.
        """
        content = msg.content
        if not isinstance(content, list):
            return []
        touched: list[str] = []
        for block in content:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "tool_use" and "id" in block:
                self._tool_use_msg[block["id"]] = msg.id
                self._tool_names[block["id"]] = str(block.get("name", ""))
            elif kind == "tool_result" and "id" in block:
                self._tool_results[block["id"]] = (block, msg.id)
                touched.append(block["id"])
        return touched

    def _forget_tools(self, msg: Msg) -> None:
        """Drop what :meth:`_index_tools` recorded for ``msg`` (its row is gone)."""
        content = msg.content
        if not isinstance(content, list):
            return
        for block in content:
            call_id = block.get("id") if isinstance(block, dict) else None
            if call_id is None:
                continue
            if self._tool_use_msg.get(call_id) == msg.id:
                del self._tool_use_msg[call_id]
                self._tool_names.pop(call_id, None)
            found = self._tool_results.get(call_id)
            if found is not None and found[1] == msg.id:
                del self._tool_results[call_id]

    def _touch_tool_use_rows(self, call_ids: list[str], own_row: int) -> None:
        for call_id in call_ids:
            msg_id = self._tool_use_msg.get(call_id)
            row = self._rows.get(msg_id) if msg_id is not None else None
            if row is not None and row != own_row:
                self._entries[row].revision += 1
                self._emit(Changed(row))

    def _reindex_from(self, start: int) -> None:
        for row in range(start, len(self._entries)):
            msg = self._entries[row].msg
            if msg is not None:
                self._rows[msg.id] = row
