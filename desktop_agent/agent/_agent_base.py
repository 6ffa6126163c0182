"""``AgentBase``: hooks, printing, the message queue, subscribers and interruption.

Two deliberate differences from AgentScope 1.0 live here:

- **Only our own interruption becomes ``handle_interrupt``.** ``__call__`` runs ``reply`` in
  a child task (``_reply_task``); :meth:`AgentBase.interrupt` records the request on a token
  for that turn and cancels only the child. ``__call__`` turns the child's cancellation into
  ``handle_interrupt`` when the token says it was ours and the caller's task is not itself
  being cancelled. Any other cancellation (app shutdown, an outer ``wait_for`` timeout, a
  cancelled parent task) cancels the child too and propagates as ``CancelledError``. The
  caller's task is never cancelled by ``interrupt``, so it is never left "cancelling".
- **Printing is cheap per chunk.** ``set_msg_queue_enabled(..., copy=False)`` puts the
  ``Msg`` itself on the queue (by reference: consumers must treat it as read-only and
  expect its content to keep growing until ``last``) and yields to the event loop every few
  milliseconds rather than after every chunk. With console output disabled and a
  by-reference queue, ``print`` costs the same for the first and the 20,000th chunk (a few
  microseconds); console streaming itself prints only the new characters.
"""

from __future__ import annotations

import asyncio
import os
import warnings
from collections import OrderedDict
from collections.abc import Sequence
from copy import deepcopy
from typing import Any, ClassVar

import shortuuid

from desktop_agent._logging import logger
from desktop_agent._utils._pacing import give_turn, turn_due
from desktop_agent.agent._agent_meta import HookFunc, _AgentMeta
from desktop_agent.agent._console import (
    ConsoleStream,
    finish_console_stream,
    stream_to_console,
    validate_speech,
)
from desktop_agent.message import AudioBlock, Msg
from desktop_agent.module import StateModule

_CONSOLE_ENV_VARS = ("AGENTSCOPE_DISABLE_CONSOLE_OUTPUT", "DESKTOP_AGENT_DISABLE_CONSOLE_OUTPUT")

MsgQueueItem = tuple[Msg, bool, "AudioBlock | list[AudioBlock] | None"]
"""What ``print`` puts on the message queue: ``(msg, last, speech)``."""


def _console_disabled_by_env() -> bool:
    return any(os.getenv(name, "false").lower() == "true" for name in _CONSOLE_ENV_VARS)


class _InterruptRequest:
    """Marks one turn as interrupted by :meth:`AgentBase.interrupt`."""

    __slots__ = ("requested",)

    def __init__(self) -> None:
        self.requested = False


def _strip_thinking(msg: Msg) -> Msg:
    if not isinstance(msg.content, list) or not any(
        block.get("type") == "thinking" for block in msg.content
    ):
        return msg
    stripped = Msg(
        msg.name,
        [block for block in msg.content if block.get("type") != "thinking"],
        msg.role,
        metadata=msg.metadata,
        timestamp=msg.timestamp,
        invocation_id=msg.invocation_id,
    )
    stripped.id = msg.id
    return stripped


class AgentBase(StateModule, metaclass=_AgentMeta):
    """The base of all agents: ``await agent(msg)`` runs one turn (``reply``)."""

    supported_hook_types: ClassVar[list[str]] = [
        "pre_reply",
        "post_reply",
        "pre_print",
        "post_print",
        "pre_observe",
        "post_observe",
    ]

    # Created per class by the metaclass; declared for type checkers.
    _class_pre_reply_hooks: ClassVar[OrderedDict[str, HookFunc]]
    _class_post_reply_hooks: ClassVar[OrderedDict[str, HookFunc]]
    _class_pre_print_hooks: ClassVar[OrderedDict[str, HookFunc]]
    _class_post_print_hooks: ClassVar[OrderedDict[str, HookFunc]]
    _class_pre_observe_hooks: ClassVar[OrderedDict[str, HookFunc]]
    _class_post_observe_hooks: ClassVar[OrderedDict[str, HookFunc]]

    def __init__(self) -> None:
        super().__init__()
        self.id: str = shortuuid.uuid()
        self._reply_task: asyncio.Task[Any] | None = None
        self._reply_id: str | None = None
        self._interrupt_request: _InterruptRequest | None = None
        self._instance_pre_reply_hooks: OrderedDict[str, HookFunc] = OrderedDict()
        self._instance_post_reply_hooks: OrderedDict[str, HookFunc] = OrderedDict()
        self._instance_pre_print_hooks: OrderedDict[str, HookFunc] = OrderedDict()
        self._instance_post_print_hooks: OrderedDict[str, HookFunc] = OrderedDict()
        self._instance_pre_observe_hooks: OrderedDict[str, HookFunc] = OrderedDict()
        self._instance_post_observe_hooks: OrderedDict[str, HookFunc] = OrderedDict()
        self._stream_prefix: dict[str, ConsoleStream] = {}
        self._subscribers: dict[str, list[AgentBase]] = {}
        self._disable_console_output: bool = _console_disabled_by_env()
        self._disable_msg_queue: bool = True
        self._msg_queue_copy: bool = True
        self.msg_queue: asyncio.Queue[Any] | None = None

    # ------------------------------------------------------------------ the turn

    async def observe(self, msg: Msg | list[Msg] | None) -> None:
        """Receive a message without replying."""
        raise NotImplementedError(
            f"The observe function is not implemented in {type(self).__name__} class."
        )

    async def reply(self, *args: Any, **kwargs: Any) -> Msg:
        """Produce the agent's reply."""
        raise NotImplementedError(
            f"The reply function is not implemented in {type(self).__name__} class."
        )

    async def handle_interrupt(self, *args: Any, **kwargs: Any) -> Msg:
        """The reply to give when the user interrupts the turn."""
        raise NotImplementedError(
            f"The handle_interrupt function is not implemented in {type(self).__name__} class."
        )

    async def __call__(self, *args: Any, **kwargs: Any) -> Msg:
        """Run one turn: ``reply``, or ``handle_interrupt`` if :meth:`interrupt` stopped it.

        ``reply`` runs in a child task, ``_reply_task`` (AgentScope uses the caller's task),
        so that :meth:`interrupt` never cancels the caller. The reply goes to the
        subscribers (thinking blocks stripped) before it is returned.

        Raises:
            asyncio.CancelledError: The turn was cancelled by anything but :meth:`interrupt`.
        """
        self._reply_id = shortuuid.uuid()
        caller = asyncio.current_task()
        baseline = caller.cancelling() if caller is not None else 0
        request = _InterruptRequest()
        reply_task = asyncio.create_task(
            self.reply(*args, **kwargs), name=f"{self._label()}.reply[{self._reply_id}]"
        )
        self._reply_task, self._interrupt_request = reply_task, request
        reply_msg: Msg | None = None
        try:
            try:
                reply_msg = await reply_task
            except asyncio.CancelledError:
                caller_cancelled = caller is not None and caller.cancelling() > baseline
                if caller_cancelled or not request.requested:
                    raise
                reply_msg = await self.handle_interrupt(*args, **kwargs)
        finally:
            if reply_msg:
                await self._broadcast_to_subscribers(reply_msg)
            if self._reply_task is reply_task:
                self._reply_task = self._interrupt_request = None
        return reply_msg

    async def interrupt(self, msg: Any = None) -> None:
        """Interrupt the running turn; it ends with ``handle_interrupt``'s reply.

        Call it from another task (e.g. a Stop button's handler). It returns at once; the
        turn ends as soon as the reply task has processed the cancellation.

        Args:
            msg: Passed to ``Task.cancel`` as the cancellation message.
        """
        task, request = self._reply_task, self._interrupt_request
        if task is None or task.done() or request is None:
            return
        request.requested = True
        task.cancel(msg)

    def _label(self) -> str:
        return str(getattr(self, "name", type(self).__name__))

    # ------------------------------------------------------------------ printing

    async def print(
        self,
        msg: Msg,
        last: bool = True,
        speech: AudioBlock | list[AudioBlock] | None = None,
    ) -> None:
        """Show a message: put it on the msg queue and stream it to the console.

        Streaming callers print the same ``Msg`` repeatedly with cumulative content and
        ``last=False``, then once with ``last=True``.

        Args:
            msg: The message.
            last: Whether this is the message's final state.
            speech: Audio to play along (accepted and validated; not played).

        Raises:
            ValueError: An audio block's source is neither base64 nor url.
        """
        if not self._disable_msg_queue:
            await self._put_on_msg_queue(msg, last, speech)
        if self._disable_console_output:
            return
        prefixes = self._stream_prefix
        state = stream_to_console(msg, last, prefixes.get(msg.id))
        if state is not None:
            prefixes[msg.id] = state
        if speech is not None:
            validate_speech(speech)
        if last and msg.id in prefixes:
            finish_console_stream(prefixes.pop(msg.id))

    async def _put_on_msg_queue(
        self, msg: Msg, last: bool, speech: AudioBlock | list[AudioBlock] | None
    ) -> None:
        queue = self.msg_queue
        assert queue is not None, "The message queue is enabled but no queue is set."
        if self._msg_queue_copy:
            await queue.put((deepcopy(msg), last, speech))
            await asyncio.sleep(0)
            return
        if queue.full():
            await queue.put((msg, last, speech))
        else:
            queue.put_nowait((msg, last, speech))
        # By reference the consumer always sees the latest state, so it need not run after
        # every chunk: yielding to the loop every few ms (and after a last print) is enough
        # and saves a loop iteration per chunk.
        # The clock is shared with the model's stream reader and the queue's consumer: one
        # turn of the loop per interval for the three of them.
        if last or turn_due():
            await give_turn()

    def set_console_output_enabled(self, enabled: bool) -> None:
        """Turn printing to the console on or off."""
        self._disable_console_output = not enabled

    def disable_console_output(self) -> None:
        """Turn printing to the console off.

        Deprecated: use ``set_console_output_enabled(False)``.
        """
        warnings.warn(
            "The function `disable_console_output` is deprecated, use "
            "`set_console_output_enabled(False)` instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        self.set_console_output_enabled(False)

    def set_msg_queue_enabled(
        self,
        enabled: bool,
        queue: asyncio.Queue[Any] | None = None,
        *,
        copy: bool = True,
    ) -> None:
        """Send every printed message to a queue as ``(msg, last, speech)``.

        Args:
            enabled: Whether printed messages go to the queue.
            queue: The queue to use; when enabling without one, an existing queue is kept,
                else an ``asyncio.Queue(maxsize=100)`` is created.
            copy: Put a deep copy of each printed message and yield to the event loop
                after each one (AgentScope's behaviour, the default). ``False`` puts the
                ``Msg`` object itself: no per-chunk copy, and the consumer sees the same
                object grow until ``last`` is true, so it must not mutate it; ``print``
                then yields to the loop only when the stream path's shared clock
                (``desktop_agent._utils._pacing``) says a turn is due and after a
                ``last`` print, so the consumer gets batches of items.
        """
        if enabled:
            if queue is not None:
                self.msg_queue = queue
            elif self.msg_queue is None:
                self.msg_queue = asyncio.Queue(maxsize=100)
        else:
            self.msg_queue = None
        self._msg_queue_copy = copy
        self._disable_msg_queue = not enabled

    # ------------------------------------------------------------------ subscribers

    async def _broadcast_to_subscribers(self, msg: Msg | list[Msg]) -> None:
        stripped = (
            [_strip_thinking(m) for m in msg] if isinstance(msg, list) else _strip_thinking(msg)
        )
        for subscribers in list(self._subscribers.values()):
            for subscriber in subscribers:
                await subscriber.observe(stripped)

    def reset_subscribers(self, msghub_name: str, subscribers: Sequence[AgentBase]) -> None:
        """Set the agents that observe this agent's replies inside the named MsgHub."""
        self._subscribers[msghub_name] = [agent for agent in subscribers if agent is not self]

    def remove_subscribers(self, msghub_name: str) -> None:
        """Forget the subscribers of the named MsgHub."""
        if msghub_name not in self._subscribers:
            logger.warning("MsgHub named '%s' not found", msghub_name)
            return
        self._subscribers.pop(msghub_name)

    # ------------------------------------------------------------------ hooks

    def register_instance_hook(self, hook_type: str, hook_name: str, hook: HookFunc) -> None:
        """Register a hook for this agent only; a hook of the same name is replaced.

        Raises:
            AttributeError: ``hook_type`` is unknown for this agent.
        """
        hooks: OrderedDict[str, HookFunc] = getattr(self, f"_instance_{hook_type}_hooks")
        hooks[hook_name] = hook

    def remove_instance_hook(self, hook_type: str, hook_name: str) -> None:
        """Remove an instance hook.

        Raises:
            ValueError: No such hook.
        """
        hooks: OrderedDict[str, HookFunc] = getattr(self, f"_instance_{hook_type}_hooks")
        if hook_name not in hooks:
            raise ValueError(
                f"Hook '{hook_name}' not found in '{hook_type}' hooks of "
                f"{type(self).__name__} instance."
            )
        del hooks[hook_name]

    def clear_instance_hooks(self, hook_type: str | None = None) -> None:
        """Remove all instance hooks, or those of one type.

        Raises:
            AssertionError: ``hook_type`` is not supported.
            ValueError: The hook containers are missing (``super().__init__()`` not called).
        """
        if hook_type is not None:
            assert hook_type in self.supported_hook_types, f"Invalid hook type: {hook_type}"
        for name in [hook_type] if hook_type else self.supported_hook_types:
            hooks = getattr(self, f"_instance_{name}_hooks", None)
            if hooks is None:
                raise ValueError(
                    "Call super().__init__() in the constructor to initialize the "
                    f"instance-level hooks for {type(self).__name__}."
                )
            hooks.clear()

    @classmethod
    def _own_class_hooks(cls, hook_type: str) -> OrderedDict[str, HookFunc]:
        assert hook_type in cls.supported_hook_types, f"Invalid hook type: {hook_type}"
        hooks: OrderedDict[str, HookFunc] = cls.__dict__[f"_class_{hook_type}_hooks"]
        return hooks

    @classmethod
    def register_class_hook(cls, hook_type: str, hook_name: str, hook: HookFunc) -> None:
        """Register a hook for every instance of this class and of its subclasses.

        The hook belongs to ``cls`` only: other classes (including its base classes and
        sibling classes) do not see it. See ``_agent_meta`` for the calling order.

        Raises:
            AssertionError: ``hook_type`` is not supported.
        """
        cls._own_class_hooks(hook_type)[hook_name] = hook

    @classmethod
    def remove_class_hook(cls, hook_type: str, hook_name: str) -> None:
        """Remove a hook registered on this class.

        Raises:
            AssertionError: ``hook_type`` is not supported.
            ValueError: No such hook on this class.
        """
        hooks = cls._own_class_hooks(hook_type)
        if hook_name not in hooks:
            raise ValueError(
                f"Hook '{hook_name}' not found in '{hook_type}' hooks of {cls.__name__} class."
            )
        del hooks[hook_name]

    @classmethod
    def clear_class_hooks(cls, hook_type: str | None = None) -> None:
        """Remove the hooks registered on this class (all types, or one).

        Hooks registered on other classes, including base classes, are left alone.

        Raises:
            AssertionError: ``hook_type`` is not supported.
        """
        for name in [hook_type] if hook_type is not None else cls.supported_hook_types:
            cls._own_class_hooks(name).clear()
