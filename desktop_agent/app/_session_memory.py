"""``SessionMemory``: an ``InMemoryMemory`` that is cheap to save again and again.

The autosaver calls ``state_dict()`` on the event loop (it touches live objects) about
once a second while a reply streams. For a 10,000-message memory, building every
message's dict anew takes ~9 ms of the GUI thread's frame budget, although all but the
last message or two are the same as at the previous save: a memory stores its own
copies and only appends, deletes or re-marks them. So each entry's saved form is kept
and reused while the entry (the same ``(msg, marks)`` tuple, with the same content and
metadata objects) is still at the same position. The file content is unchanged. (A
stored message's other fields are never reassigned.)

It also knows what changed since the last save, for the session journal (see
``desktop_agent.app.library._journal``): its ``content`` is a list that records the
first position any change touched, and the last few entries are compared with what was
saved (a finished reply's metadata or content is reassigned in place). So an autosave
writes the messages from that position on, at a cost that does not grow with the chat.

A checkpoint (the whole file) takes only a copy of the entry list on the loop
(:meth:`SessionMemory.content_snapshot`); the saved form is made in the worker thread that
writes it (:meth:`SessionMemory.saved_content`).
"""

from __future__ import annotations

import contextlib
import time
import weakref
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, SupportsIndex

from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg

_Entry = tuple[Msg, list[str]]
_TAIL = 32  # entries compared with their saved form at each journal save
_SLICE = 256  # entries made into their saved form between two chances for the loop to run


class SessionMemory(InMemoryMemory):
    """An ``InMemoryMemory`` whose ``state_dict()`` reuses unchanged messages' dicts and
    which tells the session journal what changed since the last save."""

    def __init__(self) -> None:
        """Start empty."""
        super().__init__()
        self._saved: list[tuple[_Entry, list[Any]]] = []
        self._tail: list[tuple[int, _Entry, Any, Any, list[str]]] = []
        self._omit = False
        self._omitted: list[Any] = []
        self._ids: set[str] = set()
        self._ids_of: tuple[TrackedList, int] | None = None  # (the list, its change count)
        # Not the bound method itself: it would make the memory a reference cycle, freed
        # only by the cyclic collector — never, once a loaded session is kept out of its
        # reach (gc.freeze, see _session_restore.keep_out_of_collections).
        to_json = weakref.WeakMethod(self._content_to_json)
        self.register_state("content", custom_to_json=lambda content: _call(to_json, content))

    def __setattr__(self, key: str, value: Any) -> None:
        if key == "content" and not isinstance(value, TrackedList):
            value = TrackedList(value)  # a new list (a load): all of it counts as changed
        super().__setattr__(key, value)

    # -- the journal's view (see desktop_agent.app.library._journal) -----------------------

    @property
    def omitted_marker(self) -> list[Any]:
        """The object standing for the content inside :meth:`without_content`."""
        return self._omitted

    @contextlib.contextmanager
    def without_content(self) -> Iterator[object]:
        """While active, ``state_dict()`` holds :attr:`omitted_marker` as its content."""
        self._omit = True
        try:
            yield self._omitted
        finally:
            self._omit = False

    def take_changes(self) -> tuple[int, list[list[Any]]]:
        """The first position that changed since the last save and the saved form of
        the entries from there on; from now on they count as saved."""
        content = self._tracked
        start = self._first_unsaved(content)
        self.mark_saved()
        return start, [[msg.to_dict(), list(marks)] for msg, marks in content[start:]]

    def content_snapshot(self) -> list[_Entry]:
        """The entries as they are now (the list is copied, not the messages): for
        :meth:`saved_content` to turn into their saved form later, in a worker thread."""
        return self._tracked[:]

    def saved_content(self, entries: list[_Entry]) -> list[list[Any]]:
        """The saved form of ``entries`` (a :meth:`content_snapshot`), as ``state_dict()``
        gives it, made in a worker thread: it lets the event loop take the GIL between
        slices. A stored message's content and metadata are reassigned, never changed in
        place, so a message reassigned since the snapshot is saved as it is now (and, if it
        is among the last entries, journaled again: see :meth:`take_changes`)."""
        return self._saved_form(entries, _SLICE)

    def unsaved_from(self, index: int) -> None:
        """A save failed: the entries from ``index`` on count as changed again."""
        content = self._tracked
        content.low = min(content.low, index)

    def mark_saved(self) -> None:
        """Everything in memory now counts as saved (just loaded, or saved whole)."""
        content = self._tracked
        end = len(content)
        content.low = end
        self._tail = [
            (index, entry, entry[0].content, entry[0].metadata, list(entry[1]))
            for index, entry in enumerate(content[max(end - _TAIL, 0) :], max(end - _TAIL, 0))
        ]

    @property
    def _tracked(self) -> TrackedList:
        content = self.content
        assert isinstance(content, TrackedList)  # see __setattr__
        return content

    def _first_unsaved(self, content: TrackedList) -> int:
        low = min(content.low, len(content))
        for index, entry, body, metadata, marks in self._tail:
            if index >= low:
                break
            current = content[index]
            if (
                current is not entry
                or current[0].content is not body
                or current[0].metadata is not metadata
                or current[1] != marks
            ):
                return index
        return low

    async def add(
        self,
        memories: Msg | list[Msg] | None,
        marks: str | list[str] | None = None,
        allow_duplicates: bool = False,
        **kwargs: Any,
    ) -> None:
        """As ``InMemoryMemory``'s, without collecting every stored id on each call.

        The ids are kept in a set that stays valid while only this method changes the list
        (a reply finishing in a 100,000-message chat: ~26 ms per add before, ~0 now).
        """
        if allow_duplicates or not isinstance(memories, Msg | list):
            await super().add(memories, marks, allow_duplicates, **kwargs)
            return
        content = self._tracked
        if (
            self._ids_of is None
            or self._ids_of[0] is not content
            or self._ids_of[1] != content.changes
        ):
            self._ids = {msg.id for msg, _ in content}
        items = [memories] if isinstance(memories, Msg) else memories
        fresh = [m for m in items if not isinstance(m, Msg) or m.id not in self._ids]
        await super().add(fresh, marks, allow_duplicates=True, **kwargs)
        self._ids.update(m.id for m in fresh)
        self._ids_of = (content, content.changes)

    async def update_messages_mark(
        self,
        new_mark: str | None,
        old_mark: str | None = None,
        msg_ids: list[str] | None = None,
    ) -> int:
        """As ``InMemoryMemory``'s; the first re-marked message counts as changed."""
        changed = await super().update_messages_mark(new_mark, old_mark, msg_ids)
        if changed:
            ids = set(msg_ids) if msg_ids is not None else None
            first = next(
                (i for i, (msg, _) in enumerate(self.content) if ids is None or msg.id in ids), 0
            )
            self.unsaved_from(first)
        return changed

    def _content_to_json(self, content: Sequence[_Entry]) -> list[list[Any]]:
        if self._omit:
            return self._omitted
        return self._saved_form(content, max(len(content), 1))

    def _saved_form(self, content: Sequence[_Entry], step: int) -> list[list[Any]]:
        """The saved form of ``content``; ``step`` entries at a time, letting another
        thread take the GIL between steps."""
        previous = self._saved
        known = len(previous)
        saved: list[tuple[_Entry, list[Any]]] = []
        result: list[list[Any]] = []
        append, give = saved.append, result.append
        for start in range(0, len(content), step):
            if start:
                time.sleep(0)  # the GIL goes to a thread waiting for it (the event loop)
            # One flat loop: it runs over every message at every checkpoint.
            for index in range(start, min(start + step, len(content))):
                entry = content[index]
                if index < known:
                    old = previous[index]
                    if old[0] is entry:
                        old_dict = old[1][0]
                        msg = entry[0]
                        if (
                            old_dict["content"] is msg.content
                            and old_dict["metadata"] is msg.metadata
                        ):
                            append(old)
                            give(old[1])
                            continue
                item = [entry[0].to_dict(), entry[1]]
                append((entry, item))
                give(item)
        self._saved = saved
        return result


def _call(method: weakref.WeakMethod[Any], content: Any) -> Any:
    bound = method()
    if bound is None:
        raise ReferenceError("the memory is gone")
    return bound(content)


class TrackedList(list[_Entry]):
    """A list that records the lowest position any change touched (``low``)."""

    low = 0  # a copy made without __init__ (pickle) counts as changed throughout
    changes = 0  # every change counts one (SessionMemory's id index is valid while equal)

    def __init__(self, items: Iterable[_Entry] = ()) -> None:
        """Hold ``items``; none counts as changed until ``low`` is set."""
        super().__init__(items)
        self.low = 0

    def _touch(self, index: int) -> None:
        self.changes += 1
        if index < self.low:
            self.low = max(index, 0)

    def append(self, item: _Entry) -> None:
        self._touch(len(self))
        super().append(item)

    def extend(self, items: Iterable[_Entry]) -> None:
        self._touch(len(self))
        super().extend(items)

    def __iadd__(self, items: Iterable[_Entry]) -> TrackedList:  # type: ignore[override,misc]
        self._touch(len(self))
        super().__iadd__(items)
        return self

    def insert(self, index: SupportsIndex, item: _Entry) -> None:
        self._touch(range(len(self))[slice(index, None)].start)  # where list.insert puts it
        super().insert(index, item)

    def pop(self, index: SupportsIndex = -1) -> _Entry:
        if self:
            self._touch(range(len(self))[index])
        return super().pop(index)

    def remove(self, item: _Entry) -> None:
        self._touch(self.index(item))
        super().remove(item)

    def clear(self) -> None:
        self._touch(0)
        super().clear()

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self._touch(0)
        super().sort(*args, **kwargs)

    def reverse(self) -> None:
        self._touch(0)
        super().reverse()

    def __setitem__(self, key: Any, value: Any) -> None:
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            if step == 1:
                value = list(value)
                same, limit = 0, min(max(stop - start, 0), len(value))
                while same < limit and _same(self[start + same], value[same]):
                    same += 1  # a delete rewrites the list: only what differs changed
                self._touch(start + same)
            else:
                self._touch(min(start, stop + 1))
        else:
            self._touch(range(len(self))[key])
        super().__setitem__(key, value)

    def __delitem__(self, key: Any) -> None:
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            self._touch(start if step > 0 else stop + 1)
        else:
            self._touch(range(len(self))[key])
        super().__delitem__(key)

    def __imul__(self, count: SupportsIndex) -> TrackedList:
        self._touch(0)
        super().__imul__(count)
        return self


def _same(old: _Entry, new: _Entry) -> bool:
    """Whether an entry is the same message with the same marks (a delete rebuilds the
    entries' tuples around the same objects)."""
    return old is new or (old[0] is new[0] and old[1] is new[1])
