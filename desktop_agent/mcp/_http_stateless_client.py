"""``HttpStatelessClient``: a fresh HTTP session for every operation, nothing to close."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Literal

import mcp.types
from mcp import ClientSession

from desktop_agent.mcp._client_base import MCPClientBase
from desktop_agent.mcp._mcp_function import MCPToolFunction, _single_leaf
from desktop_agent.mcp._transports import http_transport


class HttpStatelessClient(MCPClientBase):
    """A remote server spoken to one session at a time (no server state survives a call).

    Args: as :class:`~desktop_agent.mcp.HttpStatefulClient`.
    """

    stateful: ClassVar[bool] = False

    def __init__(
        self,
        name: str,
        transport: Literal["streamable_http", "sse"],
        url: str,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
        sse_read_timeout: float = 300,
        **client_kwargs: Any,
    ) -> None:
        super().__init__(name)
        assert transport in ["streamable_http", "sse"]
        self.transport = transport
        self.client_config: dict[str, Any] = {
            "url": url,
            "headers": headers or {},
            "timeout": timeout,
            "sse_read_timeout": sse_read_timeout,
            **client_kwargs,
        }
        self._tools: list[mcp.types.Tool] | None = None

    def get_client(self) -> AbstractAsyncContextManager[Any]:
        """A new transport context manager.

        Raises:
            ValueError: ``transport`` was changed to an unknown value.
        """
        return http_transport(self.transport, **self.client_config)

    async def list_tools(self) -> list[mcp.types.Tool]:
        """The server's tools, through a session of their own (cached).

        Raises:
            Exception: What the SDK raised, e.g. ``httpx.ConnectError`` (unwrapped from
                the SDK's one-member exception groups).
        """
        try:
            async with (
                self.get_client() as streams,
                ClientSession(streams[0], streams[1]) as session,
            ):
                await session.initialize()
                result = await session.list_tools()
        except BaseExceptionGroup as group:
            raise _single_leaf(group) from None
        self._tools = list(result.tools)
        return self._tools

    async def get_callable_function(
        self,
        func_name: str,
        wrap_tool_result: bool = True,
        execution_timeout: float | None = None,
    ) -> MCPToolFunction:
        """The tool ``func_name``; each call of it is a whole session.

        Raises:
            ValueError: The server has no such tool (as of the last :meth:`list_tools`).
        """
        if self._tools is None:
            await self.list_tools()
        assert self._tools is not None
        for tool in self._tools:
            if tool.name == func_name:
                return MCPToolFunction(
                    mcp_name=self.name,
                    tool=tool,
                    wrap_tool_result=wrap_tool_result,
                    client_gen=self.get_client,
                    timeout=execution_timeout,
                )
        raise ValueError(f"Tool '{func_name}' not found in the MCP server")
