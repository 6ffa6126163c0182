"""``McpServers``: the MCP servers of the Tools settings, shared by every chat.

The servers run on a thread of their own with its own asyncio loop (started when a server
is first needed), so starting a server, the SDK's parsing of big results and a
misbehaving server never stall the window. Callers on the GUI loop get statuses through
:meth:`McpServers.subscribe` (delivered on their own loop) and call tools through
:meth:`McpServers.call_tool`; cancelling that await (Stop) cancels the call on the MCP
thread at once. ``desktop_agent.mcp`` (and with it the SDK) is imported on that thread
only when the first server starts, so the app's cold start does not pay for it.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Coroutine, Iterable, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from desktop_agent._i18n import translate
from desktop_agent._logging import logger
from desktop_agent.app._mcp_status import McpServerStatus, McpToolInfo

if TYPE_CHECKING:
    from desktop_agent.app._mcp_config import McpServerConfig
    from desktop_agent.app._mcp_runner import ServerRunner
    from desktop_agent.tool import Toolkit, ToolPermissions, ToolResponse

StatusListener = Callable[[McpServerStatus], None]
SHUTDOWN_TIMEOUT = 5.0


class McpServers:
    """Starts, shares and stops the configured MCP servers.

    Args:
        servers: The configured servers (``Settings.mcp_servers``).
    """

    def __init__(self, servers: Sequence[McpServerConfig] = ()) -> None:
        self._configs: dict[str, McpServerConfig] = {}
        self._statuses: dict[str, McpServerStatus] = {}
        self._runners: dict[str, ServerRunner] = {}  # touched on the MCP thread only
        self._listeners: list[tuple[StatusListener, asyncio.AbstractEventLoop]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._tool_servers: dict[str, str] = {}
        self.configure(servers)

    # -- configuration and status --------------------------------------------------------

    @property
    def configs(self) -> list[McpServerConfig]:
        """The configured servers, in order."""
        return list(self._configs.values())

    def configure(self, servers: Sequence[McpServerConfig]) -> None:
        """Adopt a new configuration: removed or disabled servers stop; a server whose
        command, URL, environment or headers changed restarts if it was running."""
        old, self._configs = self._configs, {s.name: s for s in servers}
        for name, config in self._configs.items():
            self._statuses.setdefault(name, McpServerStatus(name))
            before = old.get(name)
            if not config.enabled:
                self._submit_if_running(self._stop_runner(name))
            elif before is not None and not before.same_connection(config):
                self._submit_if_running(self._restart_if_running(config))
        for name in set(old) - set(self._configs):
            self._statuses.pop(name, None)
            self._submit_if_running(self._stop_runner(name))

    def statuses(self) -> list[McpServerStatus]:
        """Every configured server's status, in configuration order."""
        return [self._statuses.get(n, McpServerStatus(n)) for n in self._configs]

    def status(self, name: str) -> McpServerStatus:
        """The status of server ``name`` ("off" if unknown)."""
        return self._statuses.get(name, McpServerStatus(name))

    def subscribe(self, listener: StatusListener) -> Callable[[], None]:
        """Call ``listener(status)`` on the calling loop after every change; returns the
        function that unsubscribes."""
        entry = (listener, asyncio.get_running_loop())
        self._listeners.append(entry)
        return lambda: self._listeners.remove(entry) if entry in self._listeners else None

    def server_of_tool(self, tool_name: str) -> str | None:
        """The server a registered tool name came from (for tool cards)."""
        return self._tool_servers.get(tool_name)

    # -- running -------------------------------------------------------------------------

    async def start(
        self, names: Iterable[str] | None = None, *, retry_failed: bool = False
    ) -> list[McpServerStatus]:
        """Start the enabled servers that are not running; return when each is connected
        or failed.

        Args:
            names: Only these servers (default: every enabled one).
            retry_failed: Also start servers that failed before (default: leave them).
        """
        wanted = [
            c for c in self._configs.values() if c.enabled and (names is None or c.name in names)
        ]
        if not wanted:
            return []
        future = self._submit(self._start_all(wanted, retry_failed))
        return await asyncio.wrap_future(future)

    async def restart(self, name: str) -> McpServerStatus:
        """Stop server ``name`` if it runs, then start it again."""
        config = self._configs[name]
        future = self._submit(self._restart(config))
        return await asyncio.wrap_future(future)

    async def call_tool(self, server: str, tool: str, arguments: dict[str, Any]) -> ToolResponse:
        """Call ``tool`` of ``server``; cancelling the await cancels the call.

        Raises:
            ToolError: The server is not connected or answered with a protocol error.
        """
        future = self._submit(self._call(server, tool, arguments))
        return await asyncio.wrap_future(future)

    async def aclose(self) -> None:
        """Stop every server (their processes end) and the MCP thread."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        future = asyncio.run_coroutine_threadsafe(self._stop_all(), loop)
        try:
            await asyncio.wait_for(asyncio.wrap_future(future), SHUTDOWN_TIMEOUT)
        except TimeoutError:
            logger.warning("MCP servers did not stop within %s s.", SHUTDOWN_TIMEOUT)
        loop.call_soon_threadsafe(loop.stop)
        await asyncio.to_thread(thread.join, SHUTDOWN_TIMEOUT)
        self._loop = self._thread = None
        if not thread.is_alive():
            loop.close()

    # -- tools for an agent --------------------------------------------------------------

    def register_tools(self, toolkit: Toolkit, permissions: ToolPermissions) -> list[str]:
        """Register the enabled tools of every connected enabled server into ``toolkit``.

        A tool of an untrusted server asks ``permissions`` before each call (like the
        built-in file and program tools). A name already taken gets the server's name as
        a prefix.

        Returns:
            The registered names.
        """
        registered = []
        for config in self._configs.values():
            status = self._statuses.get(config.name)
            if not config.enabled or status is None or status.state != "connected":
                continue
            for tool in status.tools:
                if tool.name in config.disabled_tools:
                    continue
                name = _free_name(toolkit, config.name, tool.name)
                toolkit.register_tool_function(
                    self._tool_function(config, tool, name, permissions),
                    json_schema=tool.json_schema,
                    func_name=name,
                )
                toolkit.tools[name].mcp_name = config.name
                self._tool_servers[name] = config.name
                registered.append(name)
        return registered

    def _tool_function(
        self,
        config: McpServerConfig,
        tool: McpToolInfo,
        name: str,
        permissions: ToolPermissions,
    ) -> Callable[..., Coroutine[Any, Any, ToolResponse]]:
        server, trusted = config.name, config.trusted

        async def call_mcp_tool(**arguments: Any) -> ToolResponse:
            from desktop_agent.tool import PermissionRequest  # loaded by the toolkit already

            if not trusted:
                summary = _summary(server, tool.name, arguments)
                await permissions.check(PermissionRequest(name, dict(arguments), summary))
            return await self.call_tool(server, tool.name, arguments)

        call_mcp_tool.__name__ = name
        return call_mcp_tool

    # -- the MCP thread ------------------------------------------------------------------

    def _ensure_thread(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="mcp-servers", daemon=True)
            thread.start()
            self._loop, self._thread = loop, thread
        return self._loop

    def _submit(self, coro: Coroutine[Any, Any, Any]) -> Future[Any]:
        return asyncio.run_coroutine_threadsafe(coro, self._ensure_thread())

    def _submit_if_running(self, coro: Coroutine[Any, Any, Any]) -> None:
        if self._loop is None:
            coro.close()
            return
        self._submit(coro)

    def _publish(self, status: McpServerStatus) -> None:
        """On the MCP thread: record ``status`` and tell the listeners on their loops."""
        if status.name not in self._configs:
            return
        self._statuses[status.name] = status
        for listener, loop in list(self._listeners):
            if not loop.is_closed():
                loop.call_soon_threadsafe(listener, status)

    async def _start_all(
        self, configs: list[McpServerConfig], retry_failed: bool
    ) -> list[McpServerStatus]:
        runners = []
        for config in configs:
            runner = self._runners.get(config.name)
            if runner is not None and runner.finished:
                if runner.status.state == "failed" and not retry_failed:
                    runners.append(runner)
                    continue
                runner = None
            if runner is None:
                # Loaded with the first server: it needs desktop_agent.tool (start-up cost).
                from desktop_agent.app._mcp_runner import ServerRunner

                runner = ServerRunner(config, self._publish)
                self._runners[config.name] = runner
                runner.start()
            else:
                runner.config = config  # tool switches and "trusted" need no restart
            runners.append(runner)
        return list(await asyncio.gather(*(r.wait_settled() for r in runners)))

    async def _stop_runner(self, name: str) -> None:
        runner = self._runners.pop(name, None)
        if runner is not None:
            await runner.stop()

    async def _restart_if_running(self, config: McpServerConfig) -> None:
        runner = self._runners.get(config.name)
        if runner is not None and not runner.finished:
            await self._restart(config)

    async def _restart(self, config: McpServerConfig) -> McpServerStatus:
        await self._stop_runner(config.name)
        return (await self._start_all([config], retry_failed=True))[0]

    async def _call(self, server: str, tool: str, arguments: dict[str, Any]) -> ToolResponse:
        # The runner loads with the first server.
        from desktop_agent.app._mcp_runner import MCPServerError

        runner = self._runners.get(server)
        if runner is None:
            raise MCPServerError(f"the MCP server {server!r} is not running.")
        return await runner.call(tool, arguments)

    async def _stop_all(self) -> None:
        # Last started, first stopped (python-sdk issue #577).
        for name in reversed(list(self._runners)):
            await self._stop_runner(name)


def _free_name(toolkit: Toolkit, server: str, tool: str) -> str:
    if tool not in toolkit.tools:
        return tool
    base = f"{server}_{tool}"[:64]
    name, counter = base, 1
    while name in toolkit.tools:
        counter += 1
        name = f"{base[:60]}_{counter}"
    return name


def _summary(server: str, tool: str, arguments: dict[str, Any]) -> str:
    shown = json.dumps(arguments, indent=2, ensure_ascii=False, default=str)
    if len(shown) > 2000:
        shown = shown[:2000] + "…"
    return translate(
        "ToolPermission", "Run the tool {tool} of the MCP server {server} with:\n{arguments}"
    ).format(tool=repr(tool), server=repr(server), arguments=shown)
