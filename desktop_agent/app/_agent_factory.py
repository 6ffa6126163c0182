"""Builds the ReAct agent of a conversation from a provider and the settings.

Everything heavy is imported here, inside functions, and the imports run in a worker
thread: ``openai`` alone takes ~0.75 s, and a thread import lets the GUI keep painting
(the GIL is handed back every few milliseconds) where a main-thread import would freeze it.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_agent._logging import logger
from desktop_agent.app._agent_state import AgentState
from desktop_agent.app._providers import Provider
from desktop_agent.app._request_params import (
    UnsupportedParameterError,
    rejected_parameter,
    request_params,
)
from desktop_agent.app._settings import Settings
from desktop_agent.app._tool_selection import ToolSelection
from desktop_agent.app._turn_events import TurnUsage
from desktop_agent.app._turn_stats import StatsRecorder, attach_stats

if TYPE_CHECKING:
    from desktop_agent.app._mcp_servers import McpServers
    from desktop_agent.tool import AskPermission

CONNECT_TIMEOUT = 10.0
"""Seconds to open a connection to the model server."""
NO_KEY = "EMPTY"  # the openai SDK insists on a key; local servers ignore it
CORE_MODULES = (
    "openai",
    "desktop_agent.model",
    "desktop_agent.formatter",
    "desktop_agent.memory",
    "desktop_agent.context",
    "desktop_agent.tool",
    "desktop_agent.agent",
    "desktop_agent.plan",
)


@dataclass
class UsageMeter:
    """Sums the token usage of the model calls of one turn."""

    total: TurnUsage | None = None
    stats: StatsRecorder = field(default_factory=StatsRecorder)
    """Times and tokens of the turn and its steps (issue 17: live stats, step timeline)."""

    def reset(self) -> None:
        """Forget the previous turn."""
        self.total = None
        self.stats.reset()

    def add(self, usage: Any) -> None:
        """Count one ``ChatUsage`` (``None`` is ignored)."""
        if usage is None:
            return
        step = TurnUsage(int(usage.input_tokens or 0), int(usage.output_tokens or 0))
        self.total = step if self.total is None else self.total + step


@dataclass
class AgentParts:
    """The agent and what the service needs around it."""

    agent: Any
    model: Any
    permissions: Any
    usage: UsageMeter = field(default_factory=UsageMeter)

    async def aclose(self) -> None:
        """Close the model's HTTP client (so no transport is left for the GC at exit)."""
        try:
            await self.model.aclose()
        except Exception as exc:
            logger.debug("Closing the model client failed: %s", exc)


async def preload_agent_core() -> None:
    """Import the agent core and ``openai`` in a worker thread (call after first paint)."""
    for name in CORE_MODULES:
        await asyncio.to_thread(importlib.import_module, name)


async def build_agent_parts(
    provider: Provider,
    settings: Settings,
    *,
    memory: Any = None,
    permissions: Any = None,
    ask: AskPermission | None = None,
    state: AgentState | None = None,
    media_folders: list[Path] | None = None,
    mcp_servers: McpServers | None = None,
    tools: ToolSelection | None = None,
) -> AgentParts:
    """A ``DesktopAgent`` (the app's ``ReActAgent``) with the OpenAI-compatible model,
    formatter, desktop tools, memory and ``InputModule`` (the context template it assembles
    its prompt with).

    Args:
        provider: Endpoint and model.
        settings: Temperature and system prompt.
        memory: The conversation's memory to keep; a new ``InMemoryMemory`` if ``None``.
        permissions: The conversation's ``ToolPermissions`` to keep ("allow always" lasts
            one chat session); a new one asking through ``ask`` if ``None``.
        ask: The permission callback for the desktop tools (``None`` denies every request).
        state: The conversation's :class:`AgentState` (memory, input module, name, system
            prompt, tool groups — e.g. restored from a session); the agent is built around
            it and attached to it. Default: a fresh one with ``memory`` and the default
            template.
        media_folders: Folders whose files the model may be sent (the session's blob
            folder); the list is read at each request, so the caller may update it.
        mcp_servers: The MCP servers of the Tools settings: the enabled ones are started
            (if not yet) and their enabled tools registered, asking ``permissions``.
        tools: The tools switched off for this chat (its assistant's); default: none.
    """
    await preload_agent_core()
    # The agent core loads after first paint.
    from desktop_agent.app._desktop_agent import DesktopAgent
    from desktop_agent.formatter import MediaPolicy, OpenAIChatFormatter
    from desktop_agent.tool import Toolkit, ToolPermissions, register_desktop_tools

    usage = UsageMeter()
    usage.stats.model = provider.model
    # The client loads the CA bundle (~50 ms): in a worker thread, so rebuilding the agent
    # (another model, new settings) never stalls the window; the tools' schemas follow in
    # a loop step of their own.
    model = await asyncio.to_thread(_metered_model, provider, settings, usage)
    toolkit = Toolkit()
    permissions = register_desktop_tools(
        toolkit,
        permissions or ToolPermissions(ask),
        working_folder=settings.resolved_working_folder(),
    )
    if mcp_servers is not None:
        await mcp_servers.start()
        mcp_servers.register_tools(toolkit, permissions)
    if tools is not None:
        tools.prune(toolkit)
    if state is None:
        state = AgentState(settings.system_prompt, memory=memory)
    agent = DesktopAgent(
        name=state.name,
        sys_prompt=state.sys_prompt,
        model=model,
        formatter=_formatter(OpenAIChatFormatter(), MediaPolicy, media_folders),
        toolkit=toolkit,
        memory=state.memory,
        input_module=state.input_module,
        plan_notebook=state.ensure_plan_notebook() if settings.plan_mode else None,
    )
    agent.set_console_output_enabled(False)
    if agent.plan_notebook is not None:
        from desktop_agent.app._plan_card import attach_plan_card  # only with plan mode on

        attach_plan_card(agent.plan_notebook, agent)
    state.attach(agent)
    attach_stats(agent, usage.stats)
    return AgentParts(agent, model, permissions, usage)


MAX_ANSWER_CHARS = 200_000
"""Characters of an earlier answer sent back to the model (~50,000 tokens)."""


def _formatter(formatter: Any, policy: Any, folders: list[Path] | None) -> Any:
    """``formatter`` reading local files only inside ``folders`` (and the user's own
    attachments), never downloading remote audio, shortening huge earlier answers."""
    formatter.media_policy = policy(
        folders=folders if folders is not None else [], max_answer_chars=MAX_ANSWER_CHARS
    )
    return formatter


def _metered_model(provider: Provider, settings: Settings, usage: UsageMeter) -> Any:
    """An ``OpenAIChatModel`` that also reports each call's usage to ``usage``."""
    from desktop_agent.model import OpenAIChatModel  # the agent core loads after first paint

    class MeteredChatModel(OpenAIChatModel):
        async def __call__(self, *args: Any, **kwargs: Any) -> Any:
            usage.stats.call_started()
            try:
                result = await super().__call__(*args, **kwargs)
            except Exception as exc:
                usage.stats.call_ended(None)
                _drop_rejected_parameter(exc, self.generate_kwargs)
                raise
            if isinstance(result, AsyncGenerator):
                return _metered_stream(result, usage)
            usage.add(getattr(result, "usage", None))
            usage.stats.chunk(result)
            usage.stats.call_ended(getattr(result, "usage", None))
            return result

    import httpx  # loaded with the model client

    # Our own timeouts, not the SDK's 600 s: connecting, and "no byte received for N s"
    # (httpx's read timeout is per read) — a server that hangs mid-answer becomes an error.
    idle = settings.stream_idle_timeout
    timeout = httpx.Timeout(idle, connect=CONNECT_TIMEOUT, read=idle)
    return MeteredChatModel(
        provider.model,
        api_key=provider.api_key.get_secret_value() or NO_KEY,
        stream=settings.stream,
        # No silent SDK retries (with back-off waits): an error shows at once, with Retry.
        client_kwargs={"base_url": provider.base_url, "max_retries": 0, "timeout": timeout},
        generate_kwargs=request_params(settings),
    )


def _drop_rejected_parameter(exc: Exception, sent: dict[str, Any]) -> None:
    """A parameter the server refused is not sent again (Retry works); say so."""
    name = rejected_parameter(exc, sent)
    if name is not None:
        sent.pop(name, None)
        raise UnsupportedParameterError(name, getattr(exc, "server_message", "") or "") from exc


async def _metered_stream(stream: AsyncGenerator[Any, None], usage: UsageMeter) -> Any:
    last = None
    try:
        async for chunk in stream:
            last = chunk
            usage.stats.chunk(chunk)
            yield chunk
    finally:
        usage.add(getattr(last, "usage", None))
        usage.stats.call_ended(getattr(last, "usage", None))
        await stream.aclose()
