"""``HttpStatefulClient``: one streamable-HTTP or SSE session kept open."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any, Literal

from desktop_agent.mcp._stateful_client_base import StatefulClientBase
from desktop_agent.mcp._transports import http_transport


class HttpStatefulClient(StatefulClientBase):
    """A session with a remote server, open between :meth:`connect` and :meth:`close`.

    Args:
        name: The server's name.
        transport: ``"streamable_http"`` (URL usually ends in ``/mcp``) or ``"sse"``
            (``/sse``); anything else fails an assertion.
        url: The endpoint.
        headers: Sent with every request (e.g. ``Authorization``).
        timeout: Seconds for connect/write.
        sse_read_timeout: Seconds to wait for the next event of an open stream.
        **client_kwargs: Passed on to the SDK transport.
    """

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
        self._config: dict[str, Any] = {
            "url": url,
            "headers": headers,
            "timeout": timeout,
            "sse_read_timeout": sse_read_timeout,
            **client_kwargs,
        }
        self.client = self._make_transport()

    def _make_transport(self) -> AbstractAsyncContextManager[Any]:
        return http_transport(self.transport, **self._config)
