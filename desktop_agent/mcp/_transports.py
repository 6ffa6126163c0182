"""The HTTP transports, built the way AgentScope builds them.

Streamable HTTP goes through the SDK's ``streamable_http_client`` with an ``httpx`` client
made like the deprecated ``streamablehttp_client`` makes it (same headers, timeouts and
keywords), which avoids that function's ``DeprecationWarning``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Literal

import httpx
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

Transport = Literal["streamable_http", "sse"]


def http_transport(
    transport: str,
    url: str,
    headers: dict[str, str] | None,
    timeout: float,
    sse_read_timeout: float,
    **client_kwargs: Any,
) -> AbstractAsyncContextManager[Any]:
    """A new transport context manager for ``transport``.

    Raises:
        ValueError: An unknown transport.
    """
    if transport == "sse":
        return sse_client(
            url=url,
            headers=headers,
            timeout=timeout,
            sse_read_timeout=sse_read_timeout,
            **client_kwargs,
        )
    if transport == "streamable_http":
        return _streamable_http(url, headers, timeout, sse_read_timeout, **client_kwargs)
    raise ValueError(
        f"Unsupported transport type: {transport}. Supported types are 'sse' and 'streamable_http'."
    )


@asynccontextmanager
async def _streamable_http(
    url: str,
    headers: dict[str, str] | None,
    timeout: float,
    sse_read_timeout: float,
    terminate_on_close: bool = True,
    httpx_client_factory: Any = create_mcp_http_client,
    auth: httpx.Auth | None = None,
) -> AsyncIterator[Any]:
    client = httpx_client_factory(
        headers=headers, timeout=httpx.Timeout(timeout, read=sse_read_timeout), auth=auth
    )
    async with (
        client,
        streamable_http_client(
            url, http_client=client, terminate_on_close=terminate_on_close
        ) as streams,
    ):
        yield streams
