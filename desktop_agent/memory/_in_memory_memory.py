"""``InMemoryMemory``: the default memory, a list of ``(Msg, marks)`` pairs.

Messages are deep-copied on the way in (AgentScope 1.0.12+), so later changes to the
caller's ``Msg`` never reach the memory; ``get_memory`` hands out the stored objects.
Loading a state builds the complete new list before replacing the old one, so a bad
state raises and leaves the memory as it was. Saving and loading 10,000 messages is on
the session's critical path, which is why the (de)serialisation loops are flat.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from desktop_agent.memory._memory_base import MemoryBase
from desktop_agent.message import Msg

_Entry = tuple[Msg, list[str]]


class InMemoryMemory(MemoryBase):
    """Messages and their marks, kept in a Python list (``content``)."""

    def __init__(self) -> None:
        """Start empty; ``content`` is registered as state."""
        super().__init__()
        self.content: list[_Entry] = []
        self.register_state("content", custom_to_json=_content_to_json)

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True) -> None:
        """Restore the summary and the content from :meth:`state_dict` output.

        Entries are ``[msg_dict, marks]`` pairs; a plain message dict (the pre-1.0.12
        format) is loaded with no marks. The summary defaults to ``""``.

        Args:
            state_dict: ``{"_compressed_summary": str, "content": [...]}``.
            strict: Require the ``content`` key.

        Raises:
            TypeError: ``state_dict`` is not a dict.
            KeyError: ``content`` is missing (with ``strict``), or a message dict lacks
                ``name``, ``content`` or ``role``.
            ValueError: The summary, the content or an entry has the wrong shape.
        """
        if not isinstance(state_dict, dict):
            raise TypeError(
                f"{type(self).__name__}.load_state_dict expects a dict, "
                f"got {type(state_dict).__name__}."
            )
        if strict and "content" not in state_dict:
            raise KeyError(
                "Key 'content' not found in state_dict. Ensure that the state_dict "
                "contains all required keys."
            )
        summary = state_dict.get("_compressed_summary", "")
        if not isinstance(summary, str):
            raise ValueError(
                f"The compressed summary must be a string, got {type(summary).__name__}."
            )
        content = _content_from_json(state_dict.get("content", []))
        self._compressed_summary = summary
        self.content = content

    async def add(
        self,
        memories: Msg | list[Msg] | None,
        marks: str | list[str] | None = None,
        allow_duplicates: bool = False,
        **kwargs: Any,
    ) -> None:
        """Store deep copies of ``memories``, each with its own copy of ``marks``.

        Args:
            memories: A message, a list of messages, or ``None`` (nothing to add).
            marks: ``None`` (no marks), one mark, or a list of marks.
            allow_duplicates: Also store messages whose id is already stored; otherwise
                they are skipped (duplicates within ``memories`` are not checked).
            **kwargs: Accepted for interface compatibility; unused.

        Raises:
            TypeError: ``memories`` holds something other than ``Msg``, or ``marks``
                is not ``None``, a string or a list of strings.
        """
        if memories is None:
            return
        messages = _as_message_list(memories)
        mark_list = _as_mark_list(marks)
        stored = set() if allow_duplicates else {msg.id for msg, _ in self.content}
        for msg in messages:
            if msg.id not in stored:
                self.content.append((copy.deepcopy(msg), list(mark_list)))

    async def delete(self, msg_ids: list[str], **kwargs: Any) -> int:
        """Delete the messages with these ids; unknown ids are ignored.

        Returns:
            How many messages were deleted.
        """
        ids = set(msg_ids)
        return self._keep_where(lambda msg, _marks: msg.id not in ids)

    async def delete_by_mark(self, mark: str | list[str], **kwargs: Any) -> int:
        """Delete every message carrying any of ``mark``.

        Returns:
            How many messages were deleted.

        Raises:
            TypeError: ``mark`` is not a string or a list of strings.
        """
        doomed = set(_as_mark_list(mark, allow_none=False))
        return self._keep_where(lambda _msg, marks: doomed.isdisjoint(marks))

    async def size(self) -> int:
        """The number of stored messages."""
        return len(self.content)

    async def clear(self) -> None:
        """Delete every message (the compressed summary stays)."""
        self.content.clear()

    async def get_memory(
        self,
        mark: str | None = None,
        exclude_mark: str | None = None,
        prepend_summary: bool = True,
        **kwargs: Any,
    ) -> list[Msg]:
        """The stored messages (not copies) carrying ``mark`` and not ``exclude_mark``.

        Args:
            mark: Keep only messages with this mark; ``None`` keeps all.
            exclude_mark: Drop messages with this mark; ``None`` drops none.
            prepend_summary: Put a new ``Msg("user", summary, "user")`` first when the
                compressed summary is not empty.
            **kwargs: Accepted for interface compatibility; unused.

        Returns:
            A new list.

        Raises:
            TypeError: ``mark`` or ``exclude_mark`` is neither a string nor ``None``.
        """
        _check_optional_mark("mark", mark)
        _check_optional_mark("exclude_mark", exclude_mark)
        messages = [
            msg
            for msg, marks in self.content
            if (mark is None or mark in marks)
            and (exclude_mark is None or exclude_mark not in marks)
        ]
        if prepend_summary and self._compressed_summary:
            messages.insert(0, Msg("user", self._compressed_summary, "user"))
        return messages

    async def update_messages_mark(
        self,
        new_mark: str | None,
        old_mark: str | None = None,
        msg_ids: list[str] | None = None,
    ) -> int:
        """Replace ``old_mark`` with ``new_mark`` on the selected messages.

        A message is selected when its id is in ``msg_ids`` (if given) and it carries
        ``old_mark`` (if given). On each, ``old_mark`` is removed and ``new_mark``
        appended unless already present; ``new_mark=None`` only removes ``old_mark``.

        Returns:
            How many messages gained ``new_mark`` or lost ``old_mark``.

        Raises:
            TypeError: A mark is neither a string nor ``None``.
        """
        _check_optional_mark("new_mark", new_mark)
        _check_optional_mark("old_mark", old_mark)
        ids = None if msg_ids is None else set(msg_ids)
        changed = 0
        for msg, marks in self.content:
            if ids is not None and msg.id not in ids:
                continue
            if old_mark is not None and old_mark not in marks:
                continue
            changed += _replace_mark(marks, new_mark, old_mark)
        return changed

    def _keep_where(self, keep: Callable[[Msg, list[str]], bool]) -> int:
        kept = [(msg, marks) for msg, marks in self.content if keep(msg, marks)]
        removed = len(self.content) - len(kept)
        self.content[:] = kept
        return removed


def _replace_mark(marks: list[str], new_mark: str | None, old_mark: str | None) -> bool:
    changed = False
    if old_mark is not None and old_mark in marks:
        marks[:] = [mark for mark in marks if mark != old_mark]
        changed = True
    if new_mark is not None and new_mark not in marks:
        marks.append(new_mark)
        changed = True
    return changed


def _as_message_list(memories: Msg | Sequence[Msg]) -> Sequence[Msg]:
    if isinstance(memories, Msg):
        return [memories]
    if isinstance(memories, (list, tuple)) and all(isinstance(m, Msg) for m in memories):
        return memories
    raise TypeError(
        f"The memories must be a Msg, a list of Msg or None, got {_describe(memories)}."
    )


def _as_mark_list(marks: str | list[str] | None, allow_none: bool = True) -> list[str]:
    if marks is None and allow_none:
        return []
    if isinstance(marks, str):
        return [marks]
    if isinstance(marks, list) and all(isinstance(mark, str) for mark in marks):
        return marks
    expected = "None, a string or a list of strings" if allow_none else "a string or a list"
    raise TypeError(f"The mark must be {expected}, got {_describe(marks)}.")


def _check_optional_mark(name: str, mark: object) -> None:
    if mark is not None and not isinstance(mark, str):
        raise TypeError(f"The {name} must be a string or None, got {type(mark).__name__}.")


def _describe(value: object) -> str:
    if isinstance(value, (list, tuple)):
        kinds = sorted({type(item).__name__ for item in value})
        return f"a {type(value).__name__} of {', '.join(kinds)}"
    return type(value).__name__


def _content_to_json(content: Iterable[_Entry]) -> list[list[Any]]:
    return [[msg.to_dict(), marks] for msg, marks in content]


def _content_from_json(items: object) -> list[_Entry]:
    if not isinstance(items, list):
        raise ValueError(f"The memory content must be a list, got {type(items).__name__}.")
    from_dict = Msg.from_dict
    entries: list[_Entry] = []
    append = entries.append
    index = 0
    try:
        # One flat loop: this runs once per message when a session is opened.
        for index, item in enumerate(items):
            if type(item) is list and len(item) == 2:
                msg_dict, marks = item
                if type(msg_dict) is dict and type(marks) is list and _all_str(marks):
                    append((from_dict(msg_dict), marks.copy()))
                    continue
            if type(item) is dict:  # the pre-1.0.12 format: a plain message dict
                append((from_dict(item), []))
                continue
            msg_dict, marks = _split_entry(index, item)
            append((from_dict(msg_dict), marks.copy()))
    except (KeyError, AssertionError) as exc:
        exc.add_note(f"while loading memory entry {index}")
        raise
    return entries


def _all_str(marks: list[Any]) -> bool:
    return not marks or all(type(mark) is str for mark in marks)


def _split_entry(index: int, item: object) -> tuple[dict[str, Any], list[str]]:
    if (
        isinstance(item, (list, tuple))
        and len(item) == 2
        and isinstance(item[0], dict)
        and isinstance(item[1], list)
        and all(type(mark) is str for mark in item[1])
    ):
        return item[0], item[1]
    raise ValueError(
        f"Memory entry {index} must be [message dict, list of marks] or a message dict, "
        f"got {_describe(item)}."
    )
