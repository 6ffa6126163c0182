"""One MCP server's life on the MCP thread: start, serve calls, watch health, stop.

A runner is one asyncio task on the hub's loop, so that ``connect()`` and ``close()`` run
in the same task (an anyio rule of the SDK). Calls come from any task. After a call is
cancelled (the user pressed Stop) or the connection looks broken, the runner pings the
server: a server that answers keeps running (the abandoned call was already cancelled
on the server with ``notifications/cancelled``); one that does not answer within
``PING_TIMEOUT`` is hung and gets restarted; one whose connection closed has crashed and
shows as failed with its last stderr lines.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, Literal

from desktop_agent._i18n import translate
from desktop_agent._logging import logger
from desktop_agent.app._mcp_config import McpServerConfig
from desktop_agent.app._mcp_status import McpServerStatus, McpToolInfo
from desktop_agent.app._mcp_watchdog import guarded_command
from desktop_agent.tool import ToolError, ToolResponse

if TYPE_CHECKING:
    from desktop_agent.mcp import StatefulClientBase

CONNECT_TIMEOUT = 60.0
PING_TIMEOUT = 3.0
HEALTH_INTERVAL = 15.0
STDERR_TAIL_LINES = 12


class MCPServerError(ToolError):
    """A call could not reach the server, or the server answered with a protocol error."""

    label = "Error occurred when calling MCP tool"


class ServerRunner:
    """Runs one configured server on the hub's loop (create and use it there only)."""

    def __init__(self, config: McpServerConfig, publish: Callable[[McpServerStatus], None]) -> None:
        self.config = config
        self.status = McpServerStatus(config.name)
        self._publish = publish
        self._client: StatefulClientBase | None = None
        self._errlog: IO[str] | None = None
        self._wake = asyncio.Event()
        self._stopping = False
        self._check = False
        self._settled = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._in_flight = 0

    @property
    def finished(self) -> bool:
        """Whether its task has ended (stopped or failed)."""
        return self._task is not None and self._task.done()

    def start(self) -> None:
        """Start the server's task."""
        self._task = asyncio.get_running_loop().create_task(
            self._run(), name=f"mcp-server-{self.config.name}"
        )

    async def wait_settled(self) -> McpServerStatus:
        """Wait until it is connected, failed or off."""
        await self._settled.wait()
        return self.status

    async def stop(self) -> None:
        """Stop the server and wait for it."""
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            await asyncio.wait({self._task})

    def request_check(self) -> None:
        """Ping the server soon (after a cancelled or broken call)."""
        self._check = True
        self._wake.set()

    async def call(self, tool: str, arguments: dict[str, Any]) -> ToolResponse:
        """Call ``tool`` on the current session.

        Raises:
            MCPServerError: Not connected, or the server answered with an error.
        """
        client = self._client
        if client is None or not client.is_connected:
            raise MCPServerError(f"the MCP server {self.config.name!r} is not connected.")
        from mcp.shared.exceptions import McpError  # the mcp SDK loads with the first server

        function = await client.get_callable_function(tool)
        self._in_flight += 1
        try:
            result = await function(**arguments)
        except asyncio.CancelledError:
            self.request_check()
            raise
        except McpError as exc:
            self.request_check()
            raise MCPServerError(str(exc)) from None
        finally:
            self._in_flight -= 1
        assert isinstance(result, ToolResponse)
        return result

    # -- the task ------------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            while not self._stopping and await self._connect():
                outcome = await self._serve()
                await self._close()
                if outcome != "restart":
                    break
        finally:
            if self.status.state != "failed":
                self._set(McpServerStatus(self.config.name))
            self._settled.set()
            if self._errlog is not None:
                self._errlog.close()

    async def _connect(self) -> bool:
        self._settled.clear()
        self._set(McpServerStatus(self.config.name, "starting"))
        client = self._make_client()
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT):
                await client.connect()
                tools = await client.list_tools()
        except Exception as exc:
            if client.is_connected:
                await client.close()
            self._fail(_reason(exc, self.config))
            return False
        self._client = client
        infos = tuple(_tool_info(t) for t in tools)
        self._set(McpServerStatus(self.config.name, "connected", infos))
        return True

    async def _serve(self) -> Literal["stop", "restart", "crashed"]:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(HEALTH_INTERVAL):
                    await self._wake.wait()
            self._wake.clear()
            if self._stopping:
                return "stop"
            requested, self._check = self._check, False
            health = await self._ping()
            # Only a server that stays silent after a cancelled call, with nothing else
            # running on it, counts as hung: a periodic ping may just meet a slow tool.
            if health == "hung" and requested and self._in_flight == 0:
                logger.warning("MCP server %r is not answering; restarting it.", self.config.name)
                return "restart"
            if health == "crashed":
                self._fail(translate("McpServerStatus", "The server stopped."))
                return "crashed"

    async def _ping(self) -> Literal["ok", "hung", "crashed"]:
        assert self._client is not None and self._client.session is not None
        try:
            async with asyncio.timeout(PING_TIMEOUT):
                await self._client.session.send_ping()
        except TimeoutError:
            return "hung"
        except Exception:
            return "crashed"
        return "ok"

    async def _close(self) -> None:
        client, self._client = self._client, None
        if client is not None and client.is_connected:
            await client.close()

    def _make_client(self) -> StatefulClientBase:
        # The mcp SDK loads with the first server.
        from desktop_agent.mcp import HttpStatefulClient, StdIOStatefulClient

        config = self.config
        if config.transport == "stdio":
            if self._errlog is not None:
                self._errlog.close()
            self._errlog = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115
            command, args = guarded_command(config.command, list(config.args))
            return StdIOStatefulClient(
                config.name,
                command,
                args,
                env=config.revealed_env() or None,
                cwd=config.cwd or None,
                encoding_error_handler="replace",
                errlog=self._errlog,
            )
        return HttpStatefulClient(
            config.name,
            transport=config.transport,
            url=config.url,
            headers=config.revealed_headers() or None,
        )

    def _fail(self, reason: str) -> None:
        text = "\n".join(part for part in (reason, self._stderr_tail()) if part)
        self._set(McpServerStatus(self.config.name, "failed", error=_masked(text, self.config)))
        logger.warning("MCP server %r failed: %s", self.config.name, _masked(reason, self.config))

    def _stderr_tail(self) -> str:
        if self._errlog is None:
            return ""
        try:
            self._errlog.flush()
            self._errlog.seek(0)
            lines = self._errlog.read()[-8000:].splitlines()
        except (OSError, ValueError):
            return ""
        return "\n".join(lines[-STDERR_TAIL_LINES:])

    def _set(self, status: McpServerStatus) -> None:
        self.status = status
        if status.state in ("connected", "failed", "off"):
            self._settled.set()
        self._publish(status)


def _tool_info(tool: Any) -> McpToolInfo:
    # The mcp SDK loads with the first server.
    from desktop_agent.mcp._mcp_function import _function_schema

    return McpToolInfo(tool.name, tool.description or "", _function_schema(tool))


def _reason(exc: BaseException, config: McpServerConfig) -> str:
    if isinstance(exc, TimeoutError):
        return translate("McpServerStatus", "The server did not answer within {seconds} s.").format(
            seconds=f"{CONNECT_TIMEOUT:.0f}"
        )
    if isinstance(exc, ConnectionError) and config.url:
        return translate("McpServerStatus", "Cannot reach the MCP server at {url}.").format(
            url=config.url
        )
    if isinstance(exc, FileNotFoundError):
        return translate("McpServerStatus", "Cannot run {command}: it was not found.").format(
            command=repr(config.command)
        )
    text = str(exc).strip() or type(exc).__name__
    if text == "Connection closed":
        return translate("McpServerStatus", "The server exited while starting.")
    return text


def _masked(text: str, config: McpServerConfig) -> str:
    """``text`` without the values of ``env`` and ``headers`` (a server may echo them)."""
    for value in [*config.revealed_env().values(), *config.revealed_headers().values()]:
        if len(value) >= 6:
            text = text.replace(value, "***")
    return text
