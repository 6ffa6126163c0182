"""Reading a saved session back for the switcher: off the loop, and what to show.

- :func:`load_off_loop` loads a session into a new :class:`AgentState` with the module
  loading in a worker thread (the library does it on the loop, for live objects).
- :func:`restored_messages` is what the chat shows: the memory's messages, and a reply
  that was still streaming when the app stopped, kept as an interrupted reply;
  :func:`tail_start` says which of them are shown first, :func:`built_conversation`
  builds their rows.
- :func:`read_last_session` / :func:`write_last_session`: the small state file that
  remembers the last active session (written atomically).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_agent.app._agent_state import AgentState
from desktop_agent.app._conversation import Conversation
from desktop_agent.message import Msg
from desktop_agent.module import StateModule

if TYPE_CHECKING:
    from desktop_agent.app.library import LoadedSession, SessionLibrary

RECENT = 64
"""How far back in the memory a just-finished message is looked for."""


class _HeldState(StateModule):
    """Takes a saved state from the library as is, to load it elsewhere."""

    def __init__(self) -> None:
        super().__init__()
        self.state: dict[str, Any] | None = None

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True) -> None:
        """Keep ``state_dict`` (O(1) on the loop)."""
        self.state = state_dict


async def load_off_loop(
    library: SessionLibrary, session_id: str, state: AgentState
) -> LoadedSession:
    """``library.load(session_id, agent=state)``, with the module loading in a thread.

    The library parses in a worker thread but loads modules on the loop (they are live
    objects in general); ``state`` is new and shared with nothing yet, so its loading —
    10,000 messages take ~100 ms — runs in a thread too. If that fails, the library loads
    it again on the loop, so that it records the damage and raises as usual.
    """
    # The session layer loads after first paint.
    from desktop_agent.session._json_codec import gc_paused

    held = _HeldState()
    # The parsed state (~100,000 objects for 10,000 messages) must not meet the cyclic
    # collector on the loop between the library's read and our load: paused throughout,
    # and freed (by reference counting) in the worker thread.
    with gc_paused():
        loaded = await library.load(
            session_id, agent=held, versions=state.versions, chat=state.setup
        )
        parsed = [held.state] if held.state is not None else []
        held.state = None
        try:
            await asyncio.to_thread(_load_and_free, state, parsed)
        except Exception:
            parsed.clear()
            await library.close(session_id)
            return await library.load(
                session_id, agent=state, versions=state.versions, chat=state.setup
            )
    return loaded


def _load_and_free(state: AgentState, parsed: list[dict[str, Any]]) -> None:
    """Load ``parsed`` (taken out of its box) into ``state``; it is freed here."""
    if parsed:
        state.load_state_dict(parsed.pop())


TAIL_ROWS = 200
"""How many of an opened session's last messages are shown before the others: a
100,000-message session's rows take ~0.3 s to build, its last ones ~1 ms."""
_TAIL_SEARCH = 2_000


def tail_start(messages: list[Msg], rows: int = TAIL_ROWS) -> int:
    """Where the rows shown first begin: about ``rows`` from the end, at the start of a
    turn (a user message), so that every shown answer's question is shown too (editing
    or regenerating finds its turn's rows); 0 when the session is short or no turn starts
    within reach."""
    if len(messages) <= rows:
        return 0
    start = len(messages) - rows
    for index in range(start, max(0, start - _TAIL_SEARCH), -1):
        if messages[index].role == "user":
            return index
    return 0


def built_conversation(messages: list[Msg]) -> Conversation:
    """The chat rows of ``messages``, built where nobody observes them, for
    :meth:`Conversation.adopt` (~3 µs a message: an opened session's last rows)."""
    built = Conversation()
    built.reset(messages)
    return built


_responsive: list[float] = []  # the switch interval before the outermost block


@contextlib.contextmanager
def responsive_threads(interval: float = 0.001) -> Iterator[None]:
    """Let the loop take the GIL back from a busy worker thread within ``interval``
    seconds, not Python's default 5 ms, for the block (restored after the last of
    overlapping blocks ends, whatever their order).

    While a session loads in worker threads, every Qt call the loop makes releases the
    GIL and waits for it again: at 5 ms a wait, painting a few rows became a 100-200 ms
    stall."""
    _responsive.append(sys.getswitchinterval())
    sys.setswitchinterval(min(_responsive[-1], interval))
    try:
        yield
    finally:
        first = _responsive[0]
        _responsive.pop()
        if not _responsive:
            sys.setswitchinterval(first)


def keep_out_of_collections() -> None:
    """Move every object alive now out of the cyclic collector's reach (``gc.freeze``).

    Called, with the collector paused, right after a session was loaded: its ~10 objects
    a message are long-lived, and the first collection after the pause would otherwise
    scan them all while holding the GIL (~160 ms for 100,000 messages, a GUI stall), and
    every full collection after it again. Reference counting still frees them when the
    session is closed; only reference cycles among the objects alive at this moment
    are never collected (a few, from the previous session's live objects)."""
    gc.freeze()


def in_memory(memory: Any, msg_id: str) -> bool:
    """Whether a message with ``msg_id`` is among the memory's latest entries."""
    content = getattr(memory, "content", None)
    if not isinstance(content, list):
        return False
    return any(entry[0].id == msg_id for entry in content[-RECENT:])


async def restored_messages(state: AgentState, unfinished: Msg | None) -> list[Msg]:
    """The messages to show for a loaded state; an unfinished reply joins the memory,
    as an interrupted one (its text only: tool calls without results cannot be sent)."""
    memory = state.memory
    if unfinished is not None and not in_memory(memory, unfinished.id):
        kept = _interrupted(unfinished)
        if kept is not None:
            await memory.add(kept)
    messages: list[Msg] = await memory.get_memory(exclude_mark="hint", prepend_summary=False)
    return messages


def _interrupted(msg: Msg) -> Msg | None:
    content = msg.content
    if isinstance(content, list):
        content = [b for b in content if isinstance(b, dict) and b.get("type") in _KEPT_BLOCKS]
    if not content:
        return None
    copy = Msg(msg.name, content, msg.role, {**msg.metadata, "_is_interrupted": True})
    copy.id, copy.timestamp = msg.id, msg.timestamp
    return copy


_KEPT_BLOCKS = frozenset({"text", "thinking"})


def read_last_session(path: Path) -> str | None:
    """The session id remembered in the state file, or ``None``."""
    with contextlib.suppress(OSError, ValueError):
        data = json.loads(path.read_bytes())
        last = data.get("last_session") if isinstance(data, dict) else None
        if isinstance(last, str) and last:
            return last
    return None


def write_last_session(path: Path, session_id: str | None) -> None:
    """Remember ``session_id`` in the state file, atomically.

    Raises:
        OSError: The file could not be written.
    """
    # The session layer loads after first paint.
    from desktop_agent.session._atomic_write import atomic_write_bytes

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, json.dumps({"last_session": session_id}).encode())
