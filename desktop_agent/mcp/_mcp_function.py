"""``MCPToolFunction``: one server tool as an async callable a ``Toolkit`` can register.

Deviations from AgentScope (SPEC §3): an error raised inside the SDK's task groups reaches
the caller as itself, not wrapped in a one-exception ``ExceptionGroup``; and when the
awaiting task is cancelled on a shared session, the server is told
(``notifications/cancelled``) so it can stop the work, while the session stays usable.
"""

from __future__ import annotations

import asyncio
import copy
import datetime
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import mcp.types
from mcp import ClientSession

from desktop_agent._logging import logger
from desktop_agent.mcp._client_base import MCPClientBase
from desktop_agent.tool import ToolResponse

CANCEL_REASON = "The user stopped the tool call."
_notifications: set[asyncio.Task[None]] = set()


class MCPToolFunction:
    """A tool of an MCP server, called with keyword arguments.

    Args:
        mcp_name: The client's name.
        tool: The tool as the server lists it.
        wrap_tool_result: Return a ``ToolResponse`` (else the SDK's ``CallToolResult``).
        client_gen: Opens a new transport per call (stateless clients).
        session: The shared session to call on (stateful clients).
        timeout: Seconds to wait for the answer; ``None`` or ``0`` waits forever.

    Raises:
        ValueError: Neither or both of ``client_gen`` and ``session`` were given.
    """

    def __init__(
        self,
        mcp_name: str,
        tool: mcp.types.Tool,
        wrap_tool_result: bool,
        client_gen: Callable[..., AbstractAsyncContextManager[Any]] | None = None,
        session: ClientSession | None = None,
        timeout: float | None = None,
    ) -> None:
        if (client_gen is None) == (session is None):
            raise ValueError("Either client or session must be provided, but not both.")
        self.mcp_name = mcp_name
        self.name = tool.name
        self.description = tool.description
        self.json_schema = _function_schema(tool)
        self.wrap_tool_result = wrap_tool_result
        self.timeout = datetime.timedelta(seconds=timeout) if timeout else None
        self.client_gen = client_gen
        self.session = session

    async def __call__(self, **kwargs: Any) -> ToolResponse | mcp.types.CallToolResult:
        """Call the tool with ``kwargs``.

        Raises:
            McpError: The server answered with an error, or the timeout passed.
        """
        try:
            if self.client_gen is not None:
                result = await self._call_stateless(kwargs)
            else:
                assert self.session is not None
                result = await _call_on_session(self.session, self.name, kwargs, self.timeout)
        except BaseExceptionGroup as group:
            raise _single_leaf(group) from None
        if not self.wrap_tool_result:
            return result
        return ToolResponse(
            content=MCPClientBase._convert_mcp_content_to_as_blocks(result.content),
            metadata=result.meta,
        )

    async def _call_stateless(self, kwargs: dict[str, Any]) -> mcp.types.CallToolResult:
        assert self.client_gen is not None
        async with self.client_gen() as streams, ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            return await session.call_tool(
                self.name, arguments=kwargs, read_timeout_seconds=self.timeout
            )


def _function_schema(tool: mcp.types.Tool) -> dict[str, Any]:
    parameters = copy.deepcopy(tool.inputSchema)
    parameters.setdefault("type", "object")
    parameters.setdefault("properties", {})
    parameters.setdefault("required", [])
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": parameters},
    }


async def _call_on_session(
    session: ClientSession,
    name: str,
    kwargs: dict[str, Any],
    timeout: datetime.timedelta | None,
) -> mcp.types.CallToolResult:
    request_id = getattr(session, "_request_id", None)  # the id call_tool is about to use
    try:
        return await session.call_tool(name, arguments=kwargs, read_timeout_seconds=timeout)
    except asyncio.CancelledError:
        if isinstance(request_id, int):
            _tell_server_cancelled(session, request_id)
        raise


def _tell_server_cancelled(session: ClientSession, request_id: int) -> None:
    """Send ``notifications/cancelled`` without waiting (the caller is being cancelled)."""
    notification = mcp.types.ClientNotification(
        mcp.types.CancelledNotification(
            params=mcp.types.CancelledNotificationParams(requestId=request_id, reason=CANCEL_REASON)
        )
    )

    async def send() -> None:
        try:
            await asyncio.wait_for(session.send_notification(notification), timeout=1.0)
        except Exception as exc:  # the session may be closing; the late answer is dropped anyway
            logger.debug("Could not tell the MCP server about the cancellation: %s", exc)

    task = asyncio.get_running_loop().create_task(send(), name=f"mcp-cancel-{request_id}")
    _notifications.add(task)
    task.add_done_callback(_notifications.discard)


def _single_leaf(group: BaseExceptionGroup) -> BaseException:
    """The one exception inside nested one-member groups, or the group itself."""
    current: BaseException = group
    while isinstance(current, BaseExceptionGroup) and len(current.exceptions) == 1:
        current = current.exceptions[0]
    return current
