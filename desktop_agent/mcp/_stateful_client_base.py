"""``StatefulClientBase``: one long-lived ``ClientSession`` between ``connect`` and ``close``.

Deviations from AgentScope (SPEC §3): the transport is built anew by every ``connect()``,
so ``close()`` then ``connect()`` works; and a failure while connecting — including the
cancellation the SDK raises in the caller's task when an HTTP server is unreachable —
closes what was opened and raises an ordinary exception.

``connect()`` and ``close()`` must run in the same asyncio task (an anyio rule); tools may
be called from any task while connected.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from typing import Any

import mcp.types
from mcp import ClientSession

from desktop_agent._logging import logger
from desktop_agent.mcp._client_base import MCPClientBase
from desktop_agent.mcp._mcp_function import MCPToolFunction


class StatefulClientBase(MCPClientBase, ABC):
    """A client that keeps one session open between :meth:`connect` and :meth:`close`."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.client: AbstractAsyncContextManager[Any] | None = None
        self.stack: AsyncExitStack | None = None
        self.session: ClientSession | None = None
        self.is_connected = False
        self._cached_tools: list[mcp.types.Tool] | None = None

    @abstractmethod
    def _make_transport(self) -> AbstractAsyncContextManager[Any]:
        """A new SDK transport context manager (entered by :meth:`connect`)."""

    async def connect(self) -> None:
        """Start the transport and initialize a session.

        Raises:
            RuntimeError: Already connected.
            Exception: Whatever starting the server raised (``FileNotFoundError``,
                ``McpError("Connection closed")``, ``httpx.ConnectError``, …).
        """
        if self.is_connected:
            raise RuntimeError(
                "The MCP server is already connected. Call close() before connecting again."
            )
        self.client = self._make_transport()
        stack = AsyncExitStack()
        task = asyncio.current_task()
        cancels_before = task.cancelling() if task is not None else 0
        try:
            streams = await stack.enter_async_context(self.client)
            session = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
            await session.initialize()
        except BaseException as exc:
            await _close_quietly(stack)
            if isinstance(exc, asyncio.CancelledError) and task is not None:
                if task.cancelling() > cancels_before:
                    raise  # our caller is being cancelled
                # The SDK cancelled its own scope: the server could not be reached.
                raise ConnectionError("Cannot reach the MCP server.") from None
            raise _ordinary(exc) from None
        self.stack = stack
        self.session = session
        self.is_connected = True
        logger.info("MCP client connected.")

    async def close(self, ignore_errors: bool = True) -> None:
        """Close the session and the transport (a stdio server is stopped).

        Raises:
            RuntimeError: Not connected.
        """
        if not self.is_connected:
            raise RuntimeError("The MCP server is not connected. Call connect() before closing.")
        try:
            assert self.stack is not None
            await self.stack.aclose()
        except Exception as exc:
            if not ignore_errors:
                raise
            logger.warning("Error during MCP client cleanup: %s", exc)
        finally:
            self.stack = None
            self.session = None
            self.is_connected = False

    def _validate_connection(self) -> None:
        if not self.is_connected:
            raise RuntimeError(
                "The connection is not established. Call connect() before using the client."
            )
        if self.session is None:
            raise RuntimeError(
                "The session is not initialized. Call connect() before using the client."
            )

    async def list_tools(self) -> list[mcp.types.Tool]:
        """The server's tools, asked afresh (and cached for :meth:`get_callable_function`)."""
        self._validate_connection()
        assert self.session is not None
        result = await self.session.list_tools()
        self._cached_tools = list(result.tools)
        return self._cached_tools

    async def get_callable_function(
        self,
        func_name: str,
        wrap_tool_result: bool = True,
        execution_timeout: float | None = None,
    ) -> MCPToolFunction:
        """The tool ``func_name`` bound to the current session.

        Raises:
            RuntimeError: Not connected.
            ValueError: The server has no such tool (as of the last :meth:`list_tools`).
        """
        self._validate_connection()
        if self._cached_tools is None:
            await self.list_tools()
        assert self._cached_tools is not None
        for tool in self._cached_tools:
            if tool.name == func_name:
                return MCPToolFunction(
                    mcp_name=self.name,
                    tool=tool,
                    wrap_tool_result=wrap_tool_result,
                    session=self.session,
                    timeout=execution_timeout,
                )
        raise ValueError(f"Tool '{func_name}' not found in the MCP server")


async def _close_quietly(stack: AsyncExitStack) -> None:
    try:
        await stack.aclose()
    except BaseException as exc:  # already failing: the first error is the one to report
        logger.debug("Cleanup after a failed MCP connect raised %r", exc)


def _ordinary(exc: BaseException) -> BaseException:
    """The single error inside one-member exception groups (the SDK's task groups)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc
