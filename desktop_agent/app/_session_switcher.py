"""``SessionSwitcher``: which saved session the chat is, and keeping it saved.

It joins the chat service to the session library, without Qt:

- a new chat becomes a session when its first message is sent (so pressing "New chat"
  again and again leaves no empty sessions behind), titled from that message;
- the active session autosaves through an ``Autosaver``: each streamed chunk counts as a
  change (with the streaming reply passed as ``unfinished_reply``, since the agent adds a
  reply to its memory only when it is finished), each finished message and each turn's
  end as an urgent one; the message the user sent is saved (fsynced) before the request
  leaves, so a kill while waiting for a slow model loses nothing;
- opening a session loads it into a fresh :class:`AgentState` first: if that fails (a
  damaged file), the current chat is untouched; if it works, the current session is
  saved and closed and the chat service continues the loaded state; the chat shows the
  last ~200 messages at once and puts the older ones in front of them right after (a
  100,000-message session's rows take ~0.3 s to build, its last ones ~1 ms);
- the last active session is remembered in ``<data root>/state.json`` (written
  atomically) so the app reopens it on start.

The library (and the agent state's parts) are imported in a worker thread on
:meth:`start`, after the window's first paint.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_agent._i18n import QT_TRANSLATE_NOOP, translate
from desktop_agent._logging import logger
from desktop_agent._utils._pacing import give_turn, turn_due
from desktop_agent.app._agent_state import AgentState
from desktop_agent.app._attachments import legacy_sessions
from desktop_agent.app._conversation import (
    Changed,
    Conversation,
    ConversationEvent,
    Inserted,
    Removed,
)
from desktop_agent.app._session_restore import (
    built_conversation,
    in_memory,
    keep_out_of_collections,
    load_off_loop,
    read_last_session,
    responsive_threads,
    restored_messages,
    tail_start,
    write_last_session,
)
from desktop_agent.app._turn_events import TurnEvent, TurnStarted
from desktop_agent.message import Msg

if TYPE_CHECKING:
    from desktop_agent.app._chat_service import ChatService
    from desktop_agent.app.library import (
        Autosaver,
        LoadedSession,
        SessionChange,
        SessionError,
        SessionLibrary,
        SessionSummary,
    )

STATE_FILE = "state.json"
_PAINT_FIRST_S = 0.03
"""How long an opened long session's last rows have the window to themselves (to paint)
before its older rows are built."""
_OLDER_SLICE = 250
"""Older rows built between two looks at the clock (~1 ms)."""
INTERRUPTED_NOTE = QT_TRANSLATE_NOOP(
    "SessionSwitcher",
    "This reply was cut short: the app closed while it was being written. "
    "What had arrived is kept above.",
)


@dataclass(frozen=True)
class ActiveSessionChanged:
    """The chat now shows another session.

    Attributes:
        session_id: The session, or ``None`` for a new chat not saved yet.
        summary: Its row when it was opened, if known.
        read_only: Another window has it open for writing, or the data folder cannot be
            written: nothing is saved here.
        model: The model it talked to when last saved (``""`` if unknown).
        read_only_reason: Why it is read-only, a sentence for the user.
    """

    session_id: str | None
    summary: SessionSummary | None = None
    read_only: bool = False
    model: str = ""
    read_only_reason: str = ""


@dataclass(frozen=True)
class AutosaveFailed:
    """Saving the active session failed; the conversation is kept in memory."""

    error: SessionError


@dataclass(frozen=True)
class AutosaveRecovered:
    """A save worked again after failures."""

    session_id: str


SwitcherEvent = ActiveSessionChanged | AutosaveFailed | AutosaveRecovered
"""What :class:`SessionSwitcher` listeners receive, besides the library's ``SessionChange``."""


class SessionSwitcher:
    """Opens, creates and autosaves the session the chat service works on.

    Args:
        service: The chat service (its agent state is what a session saves).
        conversation: The chat pane's rows (restored sessions are shown there).
        root: The data root (default: the library's, ``$DESKTOP_AGENT_HOME`` or the
            platform's).
        autosave_interval: Longest time a streamed change stays unsaved.
    """

    def __init__(
        self,
        service: ChatService,
        conversation: Conversation,
        *,
        root: Path | None = None,
        autosave_interval: float = 1.0,
    ) -> None:
        self.service = service
        self.conversation = conversation
        self.library: SessionLibrary | None = None
        self.active_id: str | None = None
        self.read_only = False
        self._root = root
        self._interval = autosave_interval
        self._autosaver: Autosaver | None = None
        self._listeners: list[Callable[[SwitcherEvent | SessionChange], None]] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._starting: asyncio.Task[SessionLibrary] | None = None
        self._creating: asyncio.Task[None] | None = None
        self._active_state: AgentState | None = None
        self._switching = asyncio.Lock()
        self._legacy: frozenset[str] = frozenset()
        self._streamed: Msg | None = None
        self._save_failed = False
        service.subscribe(self._on_turn_event)
        conversation.subscribe(self._on_conversation_event)
        service.set_session_saver(self.save_now)
        service.set_request_saver(self.save_sent_message)

    # -- events ----------------------------------------------------------------------

    def add_listener(
        self, listener: Callable[[SwitcherEvent | SessionChange], None]
    ) -> Callable[[], None]:
        """Call ``listener`` with each switcher event and each library change."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _publish(self, event: SwitcherEvent | SessionChange) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                logger.exception("A session listener failed on %s", event)

    # -- start / stop ----------------------------------------------------------------

    async def start(self) -> list[SessionSummary]:
        """Import and open the library (in a worker thread); the sessions, newest first."""
        library = await self._library()
        return await library.list()

    async def _library(self) -> SessionLibrary:
        if self.library is not None:
            return self.library
        if self._starting is None:
            self._starting = self._spawn(self._open_library(), "session-library-start")
        return await asyncio.shield(self._starting)

    async def _open_library(self) -> SessionLibrary:
        module = await asyncio.to_thread(importlib.import_module, "desktop_agent.app.library")
        for name in ("desktop_agent.memory", "desktop_agent.context"):
            await asyncio.to_thread(importlib.import_module, name)
        library: SessionLibrary = module.SessionLibrary(self._root)
        library.add_listener(self._publish)
        self._legacy = await asyncio.to_thread(legacy_sessions, library.root, library.sessions_dir)
        self.library = library
        return library

    async def reopen_last(self) -> LoadedSession | None:
        """Open the session that was active when the app last ran, if the chat is still
        empty and idle; ``None`` if there is none or it cannot be opened."""
        library = await self._library()
        last = await asyncio.to_thread(read_last_session, library.root / STATE_FILE)
        if last is None or not self.fresh:
            return None
        try:
            return await self.open(last)
        except Exception as exc:  # missing, damaged: the sidebar shows it; start empty
            logger.info("Not reopening the last session %s: %s", last, exc)
            return None

    @property
    def fresh(self) -> bool:
        """Whether the chat is a new chat, still empty and idle (nothing to lose)."""
        return (
            self.active_id is None
            and self._creating is None
            and len(self.conversation) == 0
            and not self.service.busy
        )

    async def aclose(self) -> None:
        """Save what is pending and close every session (the loop must still run)."""
        pending = [task for task in self._tasks if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=5.0)
        for task in self._tasks:
            task.cancel()
        autosaver, self._autosaver = self._autosaver, None
        try:
            if autosaver is not None:
                await autosaver.aclose()
        except Exception:  # shutting down: a broken save must not stop the rest
            logger.exception("The last save of session %s failed", self.active_id)
        if self.library is not None:
            await self.library.close_all()

    # -- switching -------------------------------------------------------------------

    async def open(self, session_id: str) -> LoadedSession | None:
        """Show a saved session: its conversation, agent memory, tool groups, template.

        Returns:
            What was loaded; ``None`` if it is the active session already.

        Raises:
            RuntimeError: A turn is running (stop it first).
            SessionError: It could not be loaded (e.g. damaged); the chat is unchanged.
        """
        library = await self._library()
        await self._settled()
        async with self._switching:
            if session_id == self.active_id:
                return None
            if self.service.busy:
                raise RuntimeError("A reply is being written: stop it before switching.")
            # The session layer loads after first paint.
            from desktop_agent.session._json_codec import gc_paused

            state = AgentState(self.service.settings.system_prompt)
            # Parsed and loaded off the loop, with no collection of the whole session
            # meanwhile; then kept out of every later collection.
            with gc_paused(), responsive_threads():
                loaded = await load_off_loop(library, session_id, state)
                messages = await restored_messages(state, loaded.unfinished_reply)
                split = tail_start(messages)
                rows = built_conversation(messages[split:])  # ~1 ms: the rest comes next
                older = messages[:split]
                del messages
                keep_out_of_collections()
            await asyncio.sleep(0)  # let the window paint between loading and showing
            await self._close_active()
            await self.service.use_state(state)
            self.conversation.adopt(rows, older_pending=bool(older))
            if loaded.unfinished_reply is not None:
                self.conversation.add_error(translate("SessionSwitcher", INTERRUPTED_NOTE), False)
            self._activate(session_id, loaded.summary, loaded.read_only, loaded.read_only_reason)
        if older:  # not holding the switch: a new chat or another session may come first
            await self._show_older(older)
        return loaded

    async def _show_older(self, older: list[Msg]) -> None:
        """Put the rows of ``older`` (the messages before those shown) in front, built on
        the loop in slices paced by the clock streams share, once the window has painted
        the last rows (built in a worker thread, they took the GIL from the painting:
        100-150 ms stalls). The chat works meanwhile (a message sent is added after the
        rows shown); a chat replaced meanwhile (new chat) does not get them."""
        from desktop_agent.session._json_codec import gc_paused  # loads after first paint

        generation = self.conversation.generation
        await asyncio.sleep(_PAINT_FIRST_S)
        built = Conversation()
        with gc_paused():  # ~10 objects a row: kept out of collections, as the messages are
            for start in range(0, len(older), _OLDER_SLICE):
                built.extend_unobserved(older[start : start + _OLDER_SLICE])
                if turn_due():  # the clock streams share: the window's frames come first
                    await give_turn()
                    if self.conversation.generation != generation:
                        return
            if self.conversation.generation == generation:
                self.conversation.prepend(built)
            keep_out_of_collections()

    async def new_chat(self) -> None:
        """Save and close the active session and start an empty chat (a session from its
        first message on). A running turn is stopped."""
        await self._settled()
        async with self._switching:
            await self.service.stop()
            await self._close_active()
            await self.service.new_conversation()
            self._activate(None, None, False)

    async def _settled(self) -> None:
        """Wait until a session being created for the current chat exists."""
        creating = self._creating
        if creating is not None:
            await asyncio.wait({creating})

    async def _close_active(self) -> None:
        autosaver, self._autosaver = self._autosaver, None
        session_id = self.active_id
        self._streamed = None
        if autosaver is not None:
            await autosaver.aclose()
        if session_id is not None and self.library is not None:
            await self.library.close(session_id)
        self.active_id = self._active_state = None

    def _activate(
        self, session_id: str | None, summary: Any, read_only: bool, reason: str = ""
    ) -> None:
        self.active_id, self.read_only, self._save_failed = session_id, read_only, False
        library = self.library
        blobs = library.blobs_dir(session_id) if library and session_id else None
        self.service.set_media_folder(blobs, legacy_paths=session_id in self._legacy)
        self._active_state = self.service.agent_state if session_id is not None else None
        if session_id is not None and not read_only:
            self._autosaver = self._new_autosaver(session_id)
        if self.library is not None:
            self._spawn(self._remember(session_id), "session-remember-last")
        model = summary.model if summary is not None else ""
        self._publish(ActiveSessionChanged(session_id, summary, read_only, model, reason))

    def _new_autosaver(self, session_id: str) -> Autosaver:
        from desktop_agent.app.library import Autosaver  # the library loads after first paint

        assert self.library is not None
        return Autosaver(
            self.library,
            session_id,
            {
                "agent": self.service.agent_state,
                "versions": self.service.agent_state.versions,
                "chat": self.service.agent_state.setup,  # provider, assistant, parameters
            },
            interval=self._interval,
            on_error=self._on_save_error,
            on_saved=self._on_saved,
        )

    async def _remember(self, session_id: str | None) -> None:
        assert self.library is not None
        path = self.library.root / STATE_FILE
        try:
            await asyncio.to_thread(write_last_session, path, session_id)
        except OSError as exc:  # a read-only data folder: the save warning says it already
            logger.warning("Could not remember the last session in %s: %s", path, exc)

    # -- managing sessions -----------------------------------------------------------

    async def delete(self, session_id: str) -> bool:
        """Move a session to the trash; if it is the active one, start an empty chat.

        Returns:
            Whether it was the active session.

        Raises:
            SessionError: It could not be moved (it stays where it was).
        """
        library = await self._library()
        await self._settled()
        async with self._switching:
            active = session_id == self.active_id
            if active:
                await self.service.stop()
                autosaver, self._autosaver = self._autosaver, None
                if autosaver is not None:
                    await autosaver.aclose()
            try:
                await library.delete(session_id)
            except BaseException:
                if active and not self.read_only:
                    self._autosaver = self._new_autosaver(session_id)
                raise
            if active:
                self.active_id = None
                await self.service.new_conversation()
                self._activate(None, None, False)
            return active

    async def restore(self, session_id: str) -> SessionSummary:
        """Bring a deleted session back from the trash.

        Raises:
            SessionError: It is not in the trash, or could not be moved back.
        """
        return await (await self._library()).restore(session_id)

    async def rename(self, session_id: str, title: str) -> SessionSummary:
        """Give a session the user's title.

        Raises:
            ValueError: The title is empty.
            SessionError: It could not be renamed.
        """
        return await (await self._library()).rename(session_id, title)

    async def search(self, query: str, limit: int | None = 200) -> list[SessionSummary]:
        """Sessions whose title or text contains ``query``, newest first, with snippets."""
        return await (await self._library()).search(query, limit=limit)

    async def list_sessions(self) -> list[SessionSummary]:
        """Every session, newest first (from the index)."""
        return await (await self._library()).list()

    async def list_trash(self) -> list[SessionSummary]:
        """The deleted sessions, newest first."""
        return await (await self._library()).list_trash()

    async def trashed_messages(self, session_id: str) -> list[Msg]:
        """The messages of a deleted session, to show it read-only in the Trash.

        Raises:
            SessionError: It cannot be read (or is no longer in the trash).
        """
        parts = await (await self._library()).read_trashed(session_id)
        state = AgentState(self.service.settings.system_prompt)
        if "agent" in parts:
            await asyncio.to_thread(state.load_state_dict, parts["agent"])
        return await restored_messages(state, None)

    async def empty_trash(self) -> int:
        """Delete the trash for good; how many sessions it held."""
        return await (await self._library()).empty_trash()

    async def save_now(self) -> None:
        """Save the active session now, its whole file (e.g. after its template changed);
        no-op for a chat not saved yet (it is saved with its first message)."""
        autosaver = self._autosaver
        if autosaver is not None:
            autosaver.message_finished()
            await autosaver.checkpoint()

    async def checkpoint(self) -> None:
        """The app is idle (e.g. its window is no longer active): rewrite the active
        session's file now if its journal holds changes; not while a reply streams."""
        autosaver = self._autosaver
        if autosaver is not None and not self.service.busy:
            await autosaver.checkpoint()

    async def save_sent_message(self) -> None:
        """Make the message just sent durable before its request leaves: wait until a new
        chat's session exists, then save it (appended to its journal and fsynced, or
        failed and reported)."""
        await self._settled()
        autosaver = self._autosaver
        if autosaver is not None:
            autosaver.message_finished()
            await autosaver.flush()

    # -- autosave --------------------------------------------------------------------

    def _on_turn_event(self, event: TurnEvent) -> None:
        if not _loop_running():  # Qt delivering a late event after the loop ended
            return
        if isinstance(event, TurnStarted):
            self._turn_started()
        else:
            self._turn_ended()

    def _turn_started(self) -> None:
        if self._creating is not None:
            return
        state = self.service.agent_state
        if self.active_id is None or self._active_state is not state:
            self._creating = self._spawn(self._create_session(state), "session-create")
            return
        provider, library = self.service.provider, self.library
        if provider is not None and library is not None and library.is_open(self.active_id):
            library.meta(self.active_id).model = provider.model

    async def _create_session(self, state: AgentState) -> None:
        """Make the chat showing ``state`` a saved session (its first turn started)."""
        # The library loads after first paint.
        from desktop_agent.app.library import SessionSaveError

        try:
            library = await self._library()
            async with self._switching:
                if state is not self.service.agent_state:  # the user moved on meanwhile
                    return
                if self.active_id is not None:  # the chat was restarted behind our back
                    await self._close_active()
                provider = self.service.provider
                failure: SessionSaveError | None = None
                try:
                    session_id = await library.create(model=provider.model if provider else "")
                except SessionSaveError as exc:  # open in memory all the same; saves retry
                    session_id, failure = exc.session_id, exc
                self._activate(session_id, None, False)
                if failure is not None:
                    self._on_save_error(failure)
                if self._autosaver is not None:
                    self._autosaver.message_finished()
        finally:
            self._creating = None

    def _turn_ended(self) -> None:
        streamed, self._streamed = self._streamed, None
        autosaver = self._autosaver
        if autosaver is None:
            return
        autosaver.message_finished()
        if streamed is not None and not in_memory(self.service.memory, streamed.id):
            # Cut short before the agent stored it (the app is closing): keep it aside.
            autosaver.changed(unfinished_reply=streamed)

    def _on_conversation_event(self, event: ConversationEvent) -> None:
        if isinstance(event, Removed) and self._autosaver is not None and _loop_running():
            self._autosaver.message_finished()  # a turn deleted, another version shown
            return
        if not isinstance(event, Inserted | Changed) or not _loop_running():
            return
        if isinstance(event, Inserted) and event.count > 1:
            return  # older rows of an opened session put in front: nothing new to save
        entry = self.conversation[event.index]
        msg = entry.msg
        if msg is None:
            return
        if entry.streaming:
            self._streamed = msg
        autosaver = self._autosaver
        if autosaver is None:
            return
        if entry.streaming:
            autosaver.changed(unfinished_reply=msg)
        else:
            autosaver.message_finished()

    def _on_save_error(self, error: SessionError) -> None:
        self._save_failed = True
        self._publish(AutosaveFailed(error))

    def _on_saved(self, summary: SessionSummary) -> None:
        if self._save_failed:
            self._save_failed = False
            self._publish(AutosaveRecovered(summary.session_id))

    def _spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            coro.close()  # not "never awaited": it never started
            raise
        task = loop.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.error("Task %s failed", task.get_name(), exc_info=task.exception())


def _loop_running() -> bool:
    """Whether an event loop runs (Qt may deliver events after it stopped, in tests)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
