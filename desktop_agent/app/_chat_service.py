"""``ChatService``: runs the agent's turns for one conversation, without Qt.

The window talks to this object only: ``send`` a message, ``stop`` a turn, ``retry`` a
failed one, start a ``new_conversation``. Each turn is a named task the service keeps a
strong reference to. The agent prints into an ``asyncio.Queue`` *by reference* (the same
``Msg`` object, with cumulative content, again and again while it streams); a consumer task
hands each one to ``Conversation.upsert`` (O(1)) and yields to the event loop at least
every ~8 ms so the GUI keeps painting however fast the server streams.

The agent core (and with it the ``openai`` SDK, ~0.75 s to import) is imported only when
the first turn needs it — after the window's first paint.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_agent._logging import logger
from desktop_agent._utils._pacing import give_turn, turn_due
from desktop_agent.app._agent_factory import AgentParts, build_agent_parts
from desktop_agent.app._agent_state import AgentState
from desktop_agent.app._attachments import embed_attachments
from desktop_agent.app._errors import describe_error
from desktop_agent.app._providers import Provider
from desktop_agent.app._settings import Settings
from desktop_agent.app._tool_selection import ToolSelection
from desktop_agent.app._turn_events import (
    TurnEvent,
    TurnFailed,
    TurnFinished,
    TurnInterrupted,
    TurnStarted,
)
from desktop_agent.app._turn_stats import TurnStats, stamp_answer
from desktop_agent.message import ContentBlock, Msg

if TYPE_CHECKING:
    from desktop_agent.app._conversation import Conversation
    from desktop_agent.app._mcp_servers import McpServers
    from desktop_agent.app._versions import ConversationVersions
    from desktop_agent.context import ContextConfig, InputModule
    from desktop_agent.tool import AskPermission

TurnListener = Callable[[TurnEvent], None]

STOP_GRACE = 0.25
SHUTDOWN_GRACE = 2.0
USER_NAME = "User"


class ChatService:
    """Owns the agent of the active conversation and runs one turn at a time.

    Args:
        conversation: The chat the UI shows; the service upserts every printed message.
        settings: Temperature, system prompt.
        provider: The endpoint, or ``None`` while none is configured (sending is refused).
        ask_permission: Async callback the desktop tools use to ask the user
            (``"allow_once"`` | ``"allow_always"`` | ``"deny"``); ``None`` denies everything.
        mcp_servers: The shared MCP servers whose enabled tools each agent gets.
    """

    def __init__(
        self,
        conversation: Conversation,
        settings: Settings,
        provider: Provider | None = None,
        *,
        ask_permission: AskPermission | None = None,
        mcp_servers: McpServers | None = None,
    ) -> None:
        self._conversation = conversation
        self._settings = settings
        self._provider = provider
        self._ask_permission = ask_permission
        self._mcp_servers = mcp_servers
        self._listeners: list[TurnListener] = []
        self._permission_listeners: list[Callable[[], None]] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing: set[asyncio.Task[None]] = set()
        self._turn: asyncio.Task[None] | None = None
        self._parts: AgentParts | None = None
        self._memory: Any = None
        self._permissions: Any = None
        self._retry_point: tuple[Msg | None, int] | None = None
        self._can_continue = False
        self._turn_counter = 0
        self._stale = False
        self._agent_state: AgentState | None = None
        self._session_saver: Callable[[], Awaitable[None]] | None = None
        self._request_saver: Callable[[], Awaitable[None]] | None = None
        self._unsaved_message = False
        self._media_folders: list[Path] = []
        self._legacy_paths = False
        self._answering_memory = False  # the turn answers the memory as is (no new message)
        self._save_first = False
        self._versions: ConversationVersions | None = None
        self._tools: ToolSelection | None = None

    # -- state -------------------------------------------------------------------------

    @property
    def provider(self) -> Provider | None:
        """The endpoint turns go to."""
        return self._provider

    @property
    def settings(self) -> Settings:
        """The settings turns use."""
        return self._settings

    @property
    def busy(self) -> bool:
        """Whether a turn is running."""
        return self._turn is not None and not self._turn.done()

    @property
    def can_retry(self) -> bool:
        """Whether the last turn failed and :meth:`retry` would re-run it."""
        return self._retry_point is not None and not self.busy

    @property
    def can_continue(self) -> bool:
        """Whether the last answer was cut off (or stopped at the token limit) and
        :meth:`continue_answer` would ask the model to go on with it."""
        return self._can_continue and not self.busy

    @property
    def turn_stats(self) -> TurnStats | None:
        """The running (or last) turn's times and tokens, live (``None`` before a turn)."""
        return self._parts.usage.stats.snapshot() if self._parts is not None else None

    @property
    def memory(self) -> Any:
        """The agent's memory (``None`` until the first turn builds the agent)."""
        return self._memory

    @property
    def agent_state(self) -> AgentState:
        """What a session saves of the agent: memory, tool groups, name, system prompt and
        input module. It exists before the agent is built (created on first use)."""
        if self._agent_state is None:
            self._agent_state = AgentState(self._settings.system_prompt, memory=self._memory)
            self._memory = self._agent_state.memory
        return self._agent_state

    @property
    def input_module(self) -> InputModule:
        """The active conversation's ``InputModule`` (the template the prompt is built from).

        It is another object after :meth:`use_state` (a session was opened) or
        :meth:`new_conversation`.
        """
        return self.agent_state.input_module

    async def apply_template(self, config: ContextConfig | Mapping[str, Any]) -> None:
        """Use ``config`` as the context template from the next turn on, and save it.

        Raises:
            ContextConfigError: The config is invalid; the current one stays in use.
        """
        self.input_module.load_config(config)
        if self._session_saver is not None:
            await self._session_saver()

    def set_session_saver(self, saver: Callable[[], Awaitable[None]] | None) -> None:
        """Call ``saver`` (e.g. the session's autosave flush) after the state changes
        outside a turn, such as :meth:`apply_template`."""
        self._session_saver = saver

    def set_request_saver(self, saver: Callable[[], Awaitable[None]] | None) -> None:
        """Await ``saver`` (e.g. a durable session save) once per turn, after the user's
        message is in memory and before the request leaves: a kill then loses nothing
        that was sent."""
        self._request_saver = saver

    def set_media_folder(self, folder: Path | None, *, legacy_paths: bool = False) -> None:
        """The folder of the active session's images and audio (its blob folder): the only
        local files the model is sent — and, if ``legacy_paths`` (a session saved before
        attachments were copied), the files its user messages name by absolute path."""
        self._media_folders[:] = [folder] if folder is not None else []
        self._legacy_paths = legacy_paths
        self._apply_legacy_paths()

    def _apply_legacy_paths(self) -> None:
        policy = getattr(getattr(self._parts, "agent", None), "formatter", None)
        policy = getattr(policy, "media_policy", None)
        if policy is not None:
            policy.legacy_user_paths = self._legacy_paths

    async def use_state(self, state: AgentState) -> None:
        """Continue another conversation's agent state (a session being opened).

        A running turn is stopped first; the agent is rebuilt around ``state`` on the next
        turn. The caller shows the conversation's messages.
        """
        await self.stop()
        self._retry_point = None
        self._can_continue = False
        self._permissions = None
        self._notify_permissions()
        self._drop_agent()
        self._agent_state = state
        self._memory = state.memory

    @property
    def allowed_tools(self) -> list[str]:
        """The tools the user allowed for the rest of this chat ("Always allow"), sorted."""
        return sorted(self._permissions.always_allowed) if self._permissions else []

    def revoke_tool(self, tool_name: str | None = None) -> None:
        """Ask again before ``tool_name`` runs (every tool when ``None``)."""
        if self._permissions is not None:
            self._permissions.forget(tool_name)
        self._notify_permissions()

    def subscribe_permissions(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` whenever :attr:`allowed_tools` may have changed."""
        self._permission_listeners.append(listener)
        listeners = self._permission_listeners
        return lambda: listeners.remove(listener) if listener in listeners else None

    def _notify_permissions(self) -> None:
        for listener in list(self._permission_listeners):
            try:
                listener()
            except Exception:
                logger.exception("A permission listener failed")

    async def _ask(self, request: Any) -> Any:
        """The user's answer, with the tool card saying "waiting for permission" meanwhile."""
        assert self._ask_permission is not None
        self._conversation.set_waiting(request.tool_name)
        try:
            decision = await self._ask_permission(request)
        finally:
            self._conversation.set_waiting(None)
        if decision == "allow_always":  # recorded by the policy once this returns
            asyncio.get_running_loop().call_soon(self._notify_permissions)
        return decision

    def subscribe(self, listener: TurnListener) -> Callable[[], None]:
        """Call ``listener`` with every turn event; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    @property
    def tool_selection(self) -> ToolSelection | None:
        """The tools switched off for this chat (``None``: every tool is on)."""
        return self._tools

    def set_tool_selection(self, tools: ToolSelection | None) -> None:
        """Give the chat's agent only the tools ``tools`` keeps, from the next turn on."""
        if tools == self._tools:
            return
        self._tools = tools
        self._stale = True
        if not self.busy:
            self._drop_agent()

    def configure(self, settings: Settings, provider: Provider | None) -> None:
        """Use new settings/provider from the next turn on; the memory is kept."""
        if self._agent_state is not None and settings.system_prompt != self._settings.system_prompt:
            self._agent_state.sys_prompt = settings.system_prompt
        self._settings = settings
        self._provider = provider
        self._stale = True
        if not self.busy:
            self._drop_agent()

    # -- turns -------------------------------------------------------------------------

    def send(self, content: str | Sequence[ContentBlock]) -> asyncio.Task[None]:
        """Start a turn for a new user message.

        Args:
            content: Text, or blocks (text, image, audio).

        Raises:
            RuntimeError: No provider is configured, or a turn is already running.
        """
        self._check_can_start()
        msg = Msg(USER_NAME, content if isinstance(content, str) else list(content), "user")
        self._conversation.remove_errors()
        self._conversation.upsert(msg, True)
        return self._start(msg, retry=False)

    def retry(self) -> asyncio.Task[None] | None:
        """Re-run the failed turn's user message; ``None`` when there is nothing to retry.

        The memory goes back to how it was before the failed turn, so the user message is
        not stored twice and a half-written answer is not sent back to the model; the chat
        keeps everything it showed.
        """
        if self._retry_point is None or self.busy:
            return None
        self._check_can_start()
        self._conversation.remove_errors()
        msg = self._retry_point[0]
        continuation = msg is None and not self._answering_memory
        return self._start(msg, retry=True, continuation=continuation)

    def continue_answer(self) -> asyncio.Task[None] | None:
        """Ask the model to go on from where its last answer stopped (cut off, or at the
        token limit); the same answer grows. ``None`` when there is nothing to continue.

        Raises:
            RuntimeError: No provider is configured.
        """
        if not self.can_continue:
            return None
        self._check_can_start()
        self._conversation.remove_errors()
        return self._start(None, retry=False, continuation=True)

    # -- versions (the logic is in ConversationVersions) --------------------------------

    @property
    def versions(self) -> ConversationVersions:
        """Edit and resend, regenerate, switch versions, delete turns (non-destructive)."""
        if self._versions is None:
            # Loaded on first edit/regenerate/switch.
            from desktop_agent.app._versions import ConversationVersions

            self._versions = ConversationVersions(self, self._conversation)
        return self._versions

    def answer_memory(self, *, save_first: bool = False) -> asyncio.Task[None]:
        """Start a turn that answers the memory as it is (it ends with the user's message:
        an edited message to resend, or a user message whose answer is regenerated).

        Args:
            save_first: Save the session (durably) before the request leaves, as for a
                message just sent (an edited message is one).

        Raises:
            RuntimeError: No provider is configured, or a turn is already running.
        """
        self._check_can_start()
        self._conversation.remove_errors()
        self._retry_point = None
        task = self._start(None, retry=False)
        self._answering_memory = True
        self._save_first = save_first  # read when the turn's task runs
        return task

    def path_changed(self, continuable: str | None = None) -> None:
        """The memory holds another path now (a version was shown, a turn deleted): the
        last turn's Retry no longer applies; ``continuable``: the id of a last answer that
        was cut off, which offers Continue."""
        self._retry_point = None
        self._can_continue = continuable is not None
        self._conversation.clear_actions()
        if continuable is not None:
            self._conversation.set_actions(continuable, ("continue",))

    async def stop(self) -> None:
        """Interrupt the running turn; the service is idle when this returns.

        The agent turns its own interruption into its "interrupted" reply (the partial
        answer and the fake tool results stay in memory). If the turn does not end within
        a short grace period it is cancelled outright.
        """
        turn = self._turn
        if turn is None or turn.done():
            return
        if self._parts is not None:
            await self._parts.agent.interrupt()
        done, _ = await asyncio.wait({turn}, timeout=STOP_GRACE)
        if not done:
            logger.warning("The turn did not end on interrupt; cancelling it.")
            turn.cancel()
            await asyncio.wait({turn}, timeout=STOP_GRACE)

    async def new_conversation(self) -> None:
        """Stop any turn and start over with an empty chat and an empty memory."""
        await self.stop()
        self._retry_point = None
        self._memory = None
        self._can_continue = False
        self._permissions = None
        self._notify_permissions()
        self._drop_agent()
        self._agent_state = None
        self._conversation.reset([])

    async def aclose(self) -> None:
        """Cancel running work and close the model client (call before the loop ends)."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=SHUTDOWN_GRACE)
        self._drop_agent()
        if self._closing:
            await asyncio.wait(set(self._closing), timeout=SHUTDOWN_GRACE)

    # -- internals ---------------------------------------------------------------------

    def _check_can_start(self) -> None:
        if self._provider is None:
            raise RuntimeError("No model provider is configured.")
        if self.busy:
            raise RuntimeError("A turn is already running.")

    def _start(
        self, msg: Msg | None, *, retry: bool, continuation: bool = False
    ) -> asyncio.Task[None]:
        self._turn_counter += 1
        self._answering_memory = retry and self._answering_memory
        self._save_first = False
        self._can_continue = False
        self._conversation.clear_actions()
        turn = self._run_turn(msg, retry, continuation)
        task = self._spawn(turn, f"chat-turn-{self._turn_counter}")
        self._turn = task
        return task

    def _spawn(self, coro: Any, name: str) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _run_turn(self, msg: Msg | None, retry: bool, continuation: bool) -> None:
        self._publish(TurnStarted(retry=retry, continuation=continuation))
        queue: asyncio.Queue[tuple[Msg, bool, Any]] = asyncio.Queue()
        consumer = self._spawn(self._consume(queue), f"chat-printer-{self._turn_counter}")
        ending: TurnEvent | None = None
        memory_size: int | None = None
        try:
            parts = await self._ensure_agent(queue)
            memory_size = await (self._rewind_memory() if retry else self._memory_size())
            self._retry_point = None
            parts.usage.reset()
            if msg is not None:
                await embed_attachments(msg)  # the files, not paths to them
            self._unsaved_message = (msg is not None or self._save_first) and not continuation
            if continuation:
                reply = await parts.agent(None, continue_answer=True)
            else:
                reply = await parts.agent(msg)
            ending = self._ending_for(reply, parts, msg, memory_size)
        except asyncio.CancelledError:
            ending = TurnInterrupted()
            raise
        except Exception as exc:  # every failure becomes a readable chat entry
            ending = self._failure(exc, msg, memory_size)
        finally:
            self._drain(queue)
            consumer.cancel()
            self._conversation.finish_streaming()
            if ending is not None:
                self._publish(ending)

    def _ending_for(
        self, reply: Msg | None, parts: AgentParts, msg: Msg | None, memory_size: int
    ) -> TurnEvent:
        if reply is not None:
            stamp_answer(reply, parts.usage.stats)  # model, times, tokens, steps (issue 17)
        metadata = getattr(reply, "metadata", None) or {}
        if metadata.get("_is_interrupted"):
            return TurnInterrupted(parts.usage.total)
        reason = metadata.get("finish_reason", "stop")
        actions: tuple[str, ...] = ()
        if reason is None:  # the stream ended without saying why: the answer is cut off
            self._retry_point = (msg, memory_size)
            actions = ("retry", "continue")
        elif reason == "length":
            actions = ("continue",)
        self._can_continue = bool(actions)
        if reply is not None:
            self._conversation.set_actions(reply.id, actions)
        return TurnFinished(parts.usage.total, reason)

    def _failure(self, exc: Exception, msg: Msg | None, memory_size: int | None) -> TurnFailed:
        text, retryable = describe_error(exc, secret=self._secret())
        logger.warning("Turn failed: %s", text)
        if memory_size is not None:
            self._retry_point = (msg, memory_size)
        # Retry is offered for every error: after fixing a key or starting a server, re-running
        # the turn is exactly what the user wants, even when the same request would fail.
        self._conversation.add_error(text, memory_size is not None)
        return TurnFailed(text, retryable)

    async def _consume(self, queue: asyncio.Queue[tuple[Msg, bool, Any]]) -> None:
        while True:
            msg, last, _speech = await queue.get()
            self._conversation.upsert(msg, last)
            if turn_due():  # the clock the agent and the model share
                await give_turn()

    def _drain(self, queue: asyncio.Queue[tuple[Msg, bool, Any]]) -> None:
        while not queue.empty():
            msg, last, _speech = queue.get_nowait()
            self._conversation.upsert(msg, last)

    async def _ensure_agent(self, queue: asyncio.Queue[tuple[Msg, bool, Any]]) -> AgentParts:
        if self._stale:
            self._drop_agent()
        if self._parts is None:
            assert self._provider is not None
            self._parts = await build_agent_parts(
                self._provider,
                self._settings,
                memory=self._memory,
                permissions=self._permissions,
                ask=self._ask if self._ask_permission is not None else None,
                state=self.agent_state,
                media_folders=self._media_folders,
                mcp_servers=self._mcp_servers,
                tools=self._tools,
            )
            self._parts.agent.register_instance_hook(
                "pre_reasoning", "save-sent-message", self._save_sent_message
            )
            self._apply_legacy_paths()
            self._memory = self._parts.agent.memory
            self._permissions = self._parts.permissions
        self._parts.agent.set_msg_queue_enabled(True, queue, copy=False)
        return self._parts

    async def _save_sent_message(self, _agent: Any, _kwargs: dict[str, Any]) -> None:
        """Before the turn's first request: the user's message is in memory; save it."""
        if self._unsaved_message and self._request_saver is not None:
            self._unsaved_message = False
            await self._request_saver()

    async def _memory_size(self) -> int:
        return int(await self._memory.size())

    async def _rewind_memory(self) -> int:
        """Drop what the failed turn stored; the turn re-adds ``msg`` itself."""
        assert self._retry_point is not None
        size = self._retry_point[1]
        stored = await self._memory.get_memory(prepend_summary=False)
        if len(stored) > size:
            await self._memory.delete([msg.id for msg in stored[size:]])
        return size

    def _publish(self, event: TurnEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                logger.exception("A turn listener failed on %s", type(event).__name__)

    def _secret(self) -> str:
        return self._provider.api_key.get_secret_value() if self._provider else ""

    def _drop_agent(self) -> asyncio.Task[None] | None:
        """Forget the agent (not the memory); its model client closes in the background."""
        parts, self._parts = self._parts, None
        self._stale = False
        if self._agent_state is not None:
            self._agent_state.detach()
        if parts is None:
            return None
        # Not in self._tasks: shutting down cancels those, and a model whose client is not
        # closed leaves its sockets to the garbage collector.
        task = asyncio.get_running_loop().create_task(parts.aclose(), name="chat-model-close")
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        return task
