"""Asking the user before a tool touches their files or runs programs. Default: deny.

The guard is part of the registered tool function itself (a wrapper with the tool's own
signature and docstring), so it holds however the toolkit runs the tool: directly, through
middlewares, with preset kwargs or in the background. The UI supplies the question as an
async callback (``AskPermission``); without one, every guarded call is denied. An
"allow_always" answer lasts as long as its ``ToolPermissions`` object — one chat session —
and is never shared with another.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from desktop_agent._logging import logger
from desktop_agent.tool._exceptions import ToolError, ToolPermissionDenied

PermissionDecision = Literal["allow_once", "allow_always", "deny"]
"""The user's answer; anything else counts as ``"deny"``."""


@dataclass(frozen=True)
class PermissionRequest:
    """What the user is asked to allow.

    Attributes:
        tool_name: The tool's registered name, e.g. ``"execute_shell_command"``.
        arguments: Every argument the tool will get (defaults filled in).
        summary: One human sentence (plus the code or command, if any) for the dialog.
    """

    tool_name: str
    arguments: dict[str, Any] = field(hash=False)
    summary: str


AskPermission = Callable[[PermissionRequest], Awaitable[PermissionDecision]]
"""The UI's question: ``await ask(request)`` shows a dialog and returns the decision."""


class ToolPermissions:
    """One session's permission policy: ask the user, remember "allow_always" per tool."""

    def __init__(self, ask: AskPermission | None = None) -> None:
        """Create the policy.

        Args:
            ask: Shows the question to the user; ``None`` denies every guarded call. It may
                be set (or replaced) later through the ``ask`` attribute.
        """
        self.ask = ask
        self._always_allowed: set[str] = set()
        self._asking = asyncio.Lock()

    @property
    def always_allowed(self) -> frozenset[str]:
        """The tools the user allowed for the rest of the session."""
        return frozenset(self._always_allowed)

    def forget(self, tool_name: str | None = None) -> None:
        """Ask again next time for ``tool_name`` (every tool when ``None``)."""
        if tool_name is None:
            self._always_allowed.clear()
        else:
            self._always_allowed.discard(tool_name)

    async def is_allowed(self, request: PermissionRequest) -> bool:
        """Whether the call may run, asking the user if needed (one question at a time)."""
        async with self._asking:
            if request.tool_name in self._always_allowed:
                return True
            if self.ask is None:
                logger.info("Denied %r: no one to ask for permission.", request.tool_name)
                return False
            decision = await self.ask(request)
            if decision == "allow_always":
                self._always_allowed.add(request.tool_name)
            return decision in ("allow_once", "allow_always")

    async def check(self, request: PermissionRequest) -> None:
        """Return if the call may run.

        Raises:
            ToolPermissionDenied: The user (or the default policy) denied it.
        """
        if not await self.is_allowed(request):
            raise ToolPermissionDenied(request.tool_name)


def guard(
    func: Callable[..., Any],
    permissions: ToolPermissions,
    summarize: Callable[[dict[str, Any]], str],
    tool_name: str | None = None,
) -> Callable[..., Awaitable[Any]]:
    """``func`` wrapped so that it only runs once ``permissions`` allows the call.

    The wrapper keeps ``func``'s name, signature and docstring (so its JSON schema is the
    same) and returns what ``func`` returns (awaited if it is a coroutine).

    Args:
        func: The tool function.
        permissions: The session's policy.
        summarize: Builds ``PermissionRequest.summary`` from the call's arguments.
        tool_name: The name shown in the request (default: ``func.__name__``).
    """
    signature = inspect.signature(func)
    name = tool_name or func.__name__

    @functools.wraps(func)
    async def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as exc:  # the model's arguments do not fit: nothing to ask about
            raise ToolError(f"the arguments do not fit {name!r}: {exc}.") from None
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        await permissions.check(PermissionRequest(name, arguments, summarize(arguments)))
        result = func(*args, **kwargs)
        return await result if inspect.isawaitable(result) else result

    return guarded
