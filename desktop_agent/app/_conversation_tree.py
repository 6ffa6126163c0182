"""``ConversationTree``: the versions of a conversation, beside the agent's memory.

A conversation is a tree of turns. A *turn* is a user message and its answer: every
message after it (assistant messages, tool calls and their results) up to the next user
message. Editing a user message makes a sibling of it (the old one, with everything after
it, stays as another version); regenerating makes a sibling answer under the same user
message. Each answer has its own continuation (the turns after it).

The **active path** is the agent's memory itself, untouched in shape, so a session file
still holds an ordinary agent state (``JSONSession`` reads the conversation on screen).
This object keeps only the other versions, as *forks* keyed by the id of the user message
at the fork's position on the active path:

- ``Fork.users``: that position's user-message versions (``None`` marks the active one);
- ``Fork.answers``: the versions of that user message's answer (``None``: the active one).

An inactive version is a subtree (:class:`UserNode` / :class:`AnswerNode`) holding its
messages as memory entries ``(msg, marks)``. Switching a version *packs* the active path
from the fork on into the tree, changes the fork's choice and *unpacks* the chosen
version back into the memory: the cost is the length of that tail, never of the history
before it, and nothing is copied but the list slots of the tail. No Qt here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from desktop_agent.message import Msg
from desktop_agent.module import StateModule

Entry = tuple[Msg, list[str]]
"""A memory entry: a message and its marks (as ``InMemoryMemory.content`` holds them)."""

HINT = "hint"
T = TypeVar("T")


@dataclass(eq=False, slots=True)
class AnswerNode:
    """An answer (its messages, maybe none yet) and the versions of the turn after it."""

    entries: list[Entry]
    next: list[UserNode] = field(default_factory=list)
    active: int = 0


@dataclass(eq=False, slots=True)
class UserNode:
    """A user message and the versions of its answer."""

    entry: Entry
    answers: list[AnswerNode] = field(default_factory=list)
    active: int = 0


@dataclass(eq=False, slots=True)
class Fork:
    """The other versions at a position of the active path (``None``: the active one)."""

    users: list[UserNode | None] = field(default_factory=list)
    answers: list[AnswerNode | None] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class VersionInfo:
    """Which version a message is: ``index`` (0-based) of ``count``."""

    index: int
    count: int


@dataclass(slots=True)
class DeletedTurn:
    """A turn taken off the active path, to put back (Undo)."""

    after: str | None
    """The id of the message before it (``None``: it was first)."""
    entries: list[Entry]
    fork: Fork | None


def is_turn_start(entry: Entry) -> bool:
    """Whether a memory entry starts a turn: a user message that is no hint and carries
    no tool result."""
    msg, marks = entry
    if msg.role != "user" or HINT in marks:
        return False
    content = msg.content
    if isinstance(content, list):
        return not any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
    return True


def find(content: Sequence[Entry], msg_id: str) -> int | None:
    """The position of ``msg_id`` in ``content``, searched from the end (recent first)."""
    for index in range(len(content) - 1, -1, -1):
        if content[index][0].id == msg_id:
            return index
    return None


def turn_start(content: Sequence[Entry], index: int) -> int | None:
    """The position of the user message whose turn holds ``content[index]``."""
    while index >= 0:
        if is_turn_start(content[index]):
            return index
        index -= 1
    return None


def turn_end(content: Sequence[Entry], start: int) -> int:
    """The position after the turn starting at ``start``."""
    end = start + 1
    while end < len(content) and not is_turn_start(content[end]):
        end += 1
    return end


class ConversationTree(StateModule):
    """The inactive versions of a conversation (see the module docstring).

    Saved as its own part of the session (``"versions"``), beside the agent's state; a
    session without it is a single path.
    """

    def __init__(self) -> None:
        """Start with a single path (no forks)."""
        super().__init__()
        self.forks: dict[str, Fork] = {}
        # The saved form of each stored version: a stored version never changes while it
        # is stored (showing it unpacks it; packing the path again makes new nodes), so an
        # autosave (about once a second while a reply streams) encodes only new ones.
        self._saved: dict[int, tuple[UserNode | AnswerNode, list[dict[str, Any]]]] = {}
        self.register_state("forks", custom_to_json=self._forks_to_json)

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True) -> None:
        """Load the forks saved by :meth:`state_dict`.

        Raises:
            ValueError: The state is not a dict with a ``forks`` dict.
        """
        forks = state_dict.get("forks") if isinstance(state_dict, dict) else None
        if not isinstance(forks, dict):
            raise ValueError("The versions state must be a dict with a 'forks' dict.")
        self.forks = {str(key): _fork_from_json(value) for key, value in forks.items()}

    # -- reading ---------------------------------------------------------------------

    def user_versions(self, user_id: str) -> VersionInfo:
        """Which version of its position the user message ``user_id`` (active) is."""
        fork = self.forks.get(user_id)
        if fork is None or not fork.users:
            return VersionInfo(0, 1)
        return VersionInfo(fork.users.index(None), len(fork.users))

    def answer_versions(self, user_id: str) -> VersionInfo:
        """Which version of the answer to the (active) user message ``user_id`` shows."""
        fork = self.forks.get(user_id)
        if fork is None or not fork.answers:
            return VersionInfo(0, 1)
        return VersionInfo(fork.answers.index(None), len(fork.answers))

    # -- changing the active path ----------------------------------------------------

    def switch_user(self, content: list[Entry], start: int, delta: int) -> bool:
        """Show another version of the user message at ``content[start]``: ``delta`` steps
        to the right (negative: left). ``content`` (the memory) changes from ``start`` on.

        Returns:
            Whether anything changed (there is a version in that direction).
        """
        info = self.user_versions(content[start][0].id)
        target = info.index + delta
        if not 0 <= target < info.count:
            return False
        users, _active = self._pack(content, start)
        content[start:] = self._unpack(users, target)
        return True

    def switch_answer(self, content: list[Entry], start: int, delta: int) -> bool:
        """Show another version of the answer to the user message at ``content[start]``.

        Returns:
            Whether anything changed.
        """
        info = self.answer_versions(content[start][0].id)
        target = info.index + delta
        if not 0 <= target < info.count:
            return False
        users, active = self._pack(content, start)
        users[active].active = target
        content[start:] = self._unpack(users, active)
        return True

    def add_user_version(self, content: list[Entry], start: int, entry: Entry) -> None:
        """Make ``entry`` (an edited user message) the active sibling of ``content[start]``:
        the memory ends with it, unanswered; the old version keeps everything after it."""
        users, _active = self._pack(content, start)
        users.append(UserNode(entry, [AnswerNode([])]))
        content[start:] = self._unpack(users, len(users) - 1)

    def add_answer_version(self, content: list[Entry], start: int) -> None:
        """Give the user message at ``content[start]`` a new, empty answer version: the
        memory ends with that user message; the old answer keeps its continuation."""
        users, active = self._pack(content, start)
        user = users[active]
        user.answers.append(AnswerNode([]))
        user.active = len(user.answers) - 1
        content[start:] = self._unpack(users, active)

    def delete_turn(self, content: list[Entry], start: int) -> DeletedTurn:
        """Take the turn at ``content[start]`` off the active path (the turns after it now
        follow the one before it); what :meth:`undo_delete` needs to put it back."""
        end = turn_end(content, start)
        entries = content[start:end]
        del content[start:end]
        fork = self.forks.pop(entries[0][0].id, None)
        after = content[start - 1][0].id if start > 0 else None
        return DeletedTurn(after, entries, fork)

    def undo_delete(self, content: list[Entry], deleted: DeletedTurn) -> int | None:
        """Put a deleted turn back where it was, if the message before it is still there.

        Returns:
            Its position, or ``None`` if it no longer fits.
        """
        start = 0
        if deleted.after is not None:
            found = find(content, deleted.after)
            if found is None:
                return None
            start = found + 1
        content[start:start] = deleted.entries
        if deleted.fork is not None:
            self.forks[deleted.entries[0][0].id] = deleted.fork
        return start

    # -- internals -------------------------------------------------------------------

    def _forks_to_json(self, forks: dict[str, Fork]) -> dict[str, Any]:
        previous, saved = self._saved, {}

        def encoded(node: UserNode | AnswerNode | None) -> list[dict[str, Any]] | None:
            if node is None:
                return None
            known = previous.get(id(node))
            if known is None or known[0] is not node:
                known = (node, _tree_to_json(node))
            saved[id(node)] = known
            return known[1]

        result = {
            key: {
                "users": [encoded(node) for node in fork.users],
                "answers": [encoded(node) for node in fork.answers],
            }
            for key, fork in forks.items()
        }
        self._saved = saved
        return result

    def _pack(self, content: Sequence[Entry], start: int) -> tuple[list[UserNode], int]:
        """The versions at position ``start`` (a turn start) with the active path from
        there on packed in, and the index of the active one. Forks of the tail leave
        :attr:`forks` (they are inside the returned subtree now)."""
        turns: list[tuple[Entry, list[Entry]]] = []
        for index in range(start, len(content)):
            entry = content[index]
            if is_turn_start(entry) or not turns:
                turns.append((entry, []))
            else:
                turns[-1][1].append(entry)
        users: list[UserNode] = []
        active = 0
        for user_entry, answer_entries in reversed(turns):
            fork = self.forks.pop(user_entry[0].id, None)
            answer = AnswerNode(answer_entries, users, active)
            answers, chosen = _filled(fork.answers if fork else [], answer)
            user = UserNode(user_entry, answers, chosen)
            users, active = _filled(fork.users if fork else [], user)
        return users, active

    def _unpack(self, users: list[UserNode], active: int) -> list[Entry]:
        """The entries of the active path through ``users`` (from ``users[active]``); the
        forks along it join :attr:`forks`."""
        out: list[Entry] = []
        while users:
            user = users[active]
            fork = Fork(
                [None if node is user else node for node in users] if len(users) > 1 else [],
                [],
            )
            out.append(user.entry)
            if not user.answers:
                user.answers.append(AnswerNode([]))
            answer = user.answers[user.active]
            if len(user.answers) > 1:
                fork.answers = [None if node is answer else node for node in user.answers]
            if fork.users or fork.answers:
                self.forks[user.entry[0].id] = fork
            out.extend(answer.entries)
            users, active = answer.next, answer.active
        return out


def _filled(siblings: Sequence[T | None], node: T) -> tuple[list[T], int]:
    """``siblings`` with ``node`` in the active (``None``) slot, and that slot's index."""
    if not siblings:
        return [node], 0
    filled: list[T] = []
    index = 0
    for position, sibling in enumerate(siblings):
        if sibling is None:
            index = position
            filled.append(node)
        else:
            filled.append(sibling)
    return filled, index


# -- saving ------------------------------------------------------------------------


def _entry_to_json(entry: Entry) -> list[Any]:
    return [entry[0].to_dict(), list(entry[1])]


def _entry_from_json(data: Any) -> Entry:
    if not isinstance(data, list) or len(data) != 2 or not isinstance(data[1], list):
        raise ValueError(f"A saved version entry must be [msg, marks], got {data!r:.80}.")
    return Msg.from_dict(data[0]), [str(mark) for mark in data[1]]


def _tree_to_json(root: UserNode | AnswerNode) -> list[dict[str, Any]]:
    """A subtree as a flat list of nodes, each naming its parent's index (breadth first,
    so siblings keep their order). Flat, not nested: a branch can be thousands of turns
    deep, deeper than JSON encoders and the session scanner recurse."""
    nodes: list[dict[str, Any]] = []
    queue: deque[tuple[UserNode | AnswerNode, int]] = deque([(root, -1)])
    while queue:
        node, parent = queue.popleft()
        index = len(nodes)
        if isinstance(node, UserNode):
            nodes.append(
                {"user": _entry_to_json(node.entry), "active": node.active, "parent": parent}
            )
            queue.extend((answer, index) for answer in node.answers)
        else:
            entries = [_entry_to_json(entry) for entry in node.entries]
            nodes.append({"answer": entries, "active": node.active, "parent": parent})
            queue.extend((user, index) for user in node.next)
    return nodes


def _tree_from_json(data: Any) -> UserNode | AnswerNode:
    """A subtree from :func:`_tree_to_json`'s list.

    Raises:
        ValueError: It is not such a list (empty, a parent after its child, a user
            message under a user message…).
    """
    if not isinstance(data, list) or not data:
        raise ValueError("A saved version must be a non-empty list of nodes.")
    built: list[UserNode | AnswerNode] = []
    for item in data:
        node = _node_from_json(item)
        parent = item.get("parent", -1)
        if built and not (isinstance(parent, int) and 0 <= parent < len(built)):
            raise ValueError(f"A saved version node has a bad parent {parent!r}.")
        if built:
            above = built[parent]
            if isinstance(above, UserNode) and isinstance(node, AnswerNode):
                above.answers.append(node)
            elif isinstance(above, AnswerNode) and isinstance(node, UserNode):
                above.next.append(node)
            else:
                raise ValueError("Saved version nodes must alternate user and answer.")
        built.append(node)
    return built[0]


def _node_from_json(item: Any) -> UserNode | AnswerNode:
    if not isinstance(item, dict):
        raise ValueError(f"A saved version node must be a dict, got {type(item).__name__}.")
    active = int(item.get("active", 0))
    if "user" in item:
        return UserNode(_entry_from_json(item["user"]), [], active)
    entries = [_entry_from_json(entry) for entry in _field(item, "answer")]
    return AnswerNode(entries, [], active)


def _field(data: Any, name: str) -> Any:
    if not isinstance(data, dict) or name not in data:
        raise ValueError(f"A saved version lacks {name!r}.")
    return data[name]


def _fork_from_json(data: Any) -> Fork:
    if not isinstance(data, dict):
        raise ValueError(f"A saved fork must be a dict, got {type(data).__name__}.")
    users = [None if item is None else _tree_from_json(item) for item in data.get("users", [])]
    answers = [None if item is None else _tree_from_json(item) for item in data.get("answers", [])]
    if not all(isinstance(node, UserNode | None) for node in users) or not all(
        isinstance(node, AnswerNode | None) for node in answers
    ):
        raise ValueError("A saved fork mixes user messages and answers.")
    return Fork(users, answers)  # type: ignore[arg-type]
