"""``ConversationVersions``: edit and resend, regenerate, switch versions, delete a turn.

Non-destructive: editing a user message or regenerating an answer makes a new version
beside the old one (see :class:`ConversationTree`); deleting a turn can be undone. After
every change the agent's memory holds exactly the path the window shows, the chat rows
from the changed turn on are replaced (never the ones before), the ``InputModule``'s
short-term memory is rebuilt from the path, and the session is saved (the conversation's
row events reach the autosaver). A running turn is stopped first: its partial answer stays
as a version of its own. No Qt here.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from desktop_agent.app._conversation import answer_ending
from desktop_agent.app._conversation_tree import (
    HINT,
    ConversationTree,
    DeletedTurn,
    Entry,
    VersionInfo,
    find,
    is_turn_start,
    turn_start,
)
from desktop_agent.message import Msg

if TYPE_CHECKING:
    from desktop_agent.app._chat_service import ChatService
    from desktop_agent.app._conversation import Conversation
    from desktop_agent.app._providers import Provider

_CONTINUABLE = frozenset({"cut_off", "length"})


class ConversationVersions:
    """The version controls of the chat service's conversation (``service.versions``).

    Args:
        service: The chat service (its agent state's memory is the active path).
        conversation: The chat rows the window shows.
    """

    def __init__(self, service: ChatService, conversation: Conversation) -> None:
        self._service = service
        self._conversation = conversation
        self._deleted: tuple[ConversationTree, DeletedTurn] | None = None
        self._listeners: list[Callable[[], None]] = []

    # -- reading -----------------------------------------------------------------------

    @property
    def tree(self) -> ConversationTree:
        """The active conversation's other versions."""
        return self._service.agent_state.versions

    def user_versions(self, msg_id: str) -> VersionInfo:
        """Which version the (shown) user message ``msg_id`` is, of how many."""
        return self.tree.user_versions(msg_id)

    def answer_versions(self, user_id: str) -> VersionInfo:
        """Which version of the answer to the (shown) user message ``user_id`` shows."""
        return self.tree.answer_versions(user_id)

    def turn_of(self, msg_id: str) -> str | None:
        """The id of the user message whose turn holds the message ``msg_id``."""
        content = self._content()
        index = find(content, msg_id)
        start = turn_start(content, index) if index is not None else None
        return content[start][0].id if start is not None else None

    @property
    def can_undo_delete(self) -> bool:
        """Whether a deleted turn can be put back (:meth:`undo_delete`)."""
        return self._deleted is not None and self._deleted[0] is self.tree

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` after each change of the active path made here."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    # -- changing ----------------------------------------------------------------------

    async def edit(self, user_id: str, text: str) -> asyncio.Task[None] | None:
        """Resend the user message ``user_id`` with ``text`` as a new version of it (its
        images and files are kept); the old version keeps everything after it.

        Returns:
            The new turn, or ``None`` if the message is not on the active path.

        Raises:
            RuntimeError: No provider is configured.
        """
        await self._service.stop()
        content = self._content()
        start = self._start_of(user_id)
        if start is None or content[start][0].id != user_id:
            return None
        old = content[start][0]
        edited = Msg(old.name, _edited_content(old, text), "user", metadata=dict(old.metadata))
        first = self._first_row(start)
        self.tree.add_user_version(content, start, (edited, []))
        self._shown(start, first)
        return self._service.answer_memory(save_first=True)

    async def regenerate(self, msg_id: str, model: str | None = None) -> asyncio.Task[None] | None:
        """Answer the user message of ``msg_id``'s turn again, as a new version of its
        answer (the old one keeps its continuation).

        Args:
            msg_id: Any message of the turn (its answer, or its user message).
            model: Another of the provider's models to write this answer with (the next
                turns use the configured one again).

        Returns:
            The new turn, or ``None`` if ``msg_id`` is not on the active path.

        Raises:
            RuntimeError: No provider is configured.
        """
        await self._service.stop()
        start = self._start_of(msg_id)
        if start is None:
            return None
        service, configured = self._service, self._service.provider
        borrowed = None
        if model and configured is not None and model != configured.model:
            borrowed = replace(configured, model=model)
            service.configure(service.settings, borrowed)
        first = self._first_row(start)
        self.tree.add_answer_version(self._content(), start)
        self._shown(start, first)
        try:
            task = service.answer_memory()
        except RuntimeError:
            self._give_back(borrowed, configured)
            raise
        if borrowed is not None:
            task.add_done_callback(lambda _task: self._give_back(borrowed, configured))
        return task

    def _give_back(self, borrowed: Provider | None, configured: Provider | None) -> None:
        """After an answer written with another model: the configured one again (unless
        the user configured something else meanwhile)."""
        if borrowed is not None and self._service.provider is borrowed:
            self._service.configure(self._service.settings, configured)

    async def switch(self, msg_id: str, delta: int, *, answer: bool = False) -> bool:
        """Show the version ``delta`` steps right (negative: left) of the user message of
        ``msg_id``'s turn (``answer``: of that turn's answer).

        Returns:
            Whether another version is shown now.
        """
        await self._service.stop()
        start = self._start_of(msg_id)
        if start is None:
            return False
        content = self._content()
        first = self._first_row(start)
        tree = self.tree
        switched = (
            tree.switch_answer(content, start, delta)
            if answer
            else tree.switch_user(content, start, delta)
        )
        if switched:
            self._shown(start, first)
        return switched

    async def delete(self, msg_id: str) -> bool:
        """Take the turn of ``msg_id`` (its user message and answer) off the active path;
        :meth:`undo_delete` puts it back.

        Returns:
            Whether a turn was deleted.
        """
        await self._service.stop()
        start = self._start_of(msg_id)
        if start is None:
            return False
        first = self._first_row(start)
        self._deleted = (self.tree, self.tree.delete_turn(self._content(), start))
        self._shown(start, first)
        return True

    async def undo_delete(self) -> bool:
        """Put the last deleted turn back where it was.

        Returns:
            Whether it was put back (it no longer fits if the turn before it is gone).
        """
        if not self.can_undo_delete:
            return False
        await self._service.stop()
        assert self._deleted is not None
        tree, deleted = self._deleted
        content = self._content()
        start = tree.undo_delete(content, deleted)
        if start is None:
            return False
        self._deleted = None
        after = start + len(deleted.entries)  # what was at ``start`` before
        first = self._conversation.row_of(content[after][0].id) if after < len(content) else None
        self._shown(start, len(self._conversation) if first is None else first)
        return True

    # -- internals ---------------------------------------------------------------------

    def _content(self) -> list[Entry]:
        memory: Any = self._service.agent_state.memory  # an InMemoryMemory: its entries
        content: list[Entry] = memory.content
        return content

    def _start_of(self, msg_id: str) -> int | None:
        content = self._content()
        index = find(content, msg_id)
        return turn_start(content, index) if index is not None else None

    def _first_row(self, start: int) -> int:
        """The chat row of ``content[start]`` (before it changes)."""
        row = self._conversation.row_of(self._content()[start][0].id)
        return len(self._conversation) if row is None else row

    def _shown(self, start: int, first_row: int) -> None:
        """``content[start:]`` changed: show it from ``first_row`` on, rebuild the input
        module's short-term memory, say what the last answer offers."""
        content = self._content()
        tail = [msg for msg, marks in content[start:] if HINT not in marks]
        entries = self._conversation.entries
        same = 0  # rows that show the same message still (e.g. the question of a new answer)
        while (
            same < len(tail)
            and first_row + same < len(entries)
            and entries[first_row + same].msg is tail[same]
        ):
            same += 1
        self._conversation.replace_from(first_row + same, tail[same:])
        _rebuild_short_term(self._service.input_module, content)
        self._service.path_changed(_continuable(content))
        for listener in tuple(self._listeners):
            listener()


def _edited_content(old: Msg, text: str) -> Any:
    """``old``'s content with its text replaced by ``text`` (other blocks kept)."""
    if isinstance(old.content, str):
        return text
    others = [b for b in old.content if not (isinstance(b, dict) and b.get("type") == "text")]
    return [{"type": "text", "text": text}, *others]


def _continuable(content: list[Entry]) -> str | None:
    """The id of the path's last answer when it was cut off (it offers Continue)."""
    if not content or content[-1][0].role != "assistant":
        return None
    last = content[-1][0]
    return last.id if answer_ending(last) in _CONTINUABLE else None


def _rebuild_short_term(input_module: Any, content: list[Entry]) -> None:
    """The short-term memory as the agent would have filled it along this path: each
    user message and each turn's final answer (text only), the latest ones that fit."""
    limit = input_module.config.short_term_max_utterances
    picked: deque[Msg] = deque()
    index = len(content) - 1
    while index >= 0 and len(picked) < limit:
        msg = content[index][0]
        is_user = is_turn_start(content[index])
        last_of_turn = index + 1 == len(content) or is_turn_start(content[index + 1])
        if is_user or (msg.role == "assistant" and last_of_turn):
            text = msg.get_text_content()
            if text:
                picked.appendleft(Msg(msg.name, text, msg.role, timestamp=msg.timestamp))
        index -= 1
    input_module.short_term_memory = deque(maxlen=limit)  # its token counts follow
    for msg in picked:
        input_module.add_to_short_term(msg)
