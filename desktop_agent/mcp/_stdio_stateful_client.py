"""``StdIOStatefulClient``: a local server process spoken to over stdin/stdout."""

from __future__ import annotations

import sys
from contextlib import AbstractAsyncContextManager
from typing import Any, Literal, TextIO

from mcp import StdioServerParameters
from mcp.client.stdio import stdio_client

from desktop_agent.mcp._stateful_client_base import StatefulClientBase


class StdIOStatefulClient(StatefulClientBase):
    """Runs ``command args`` on :meth:`connect` and stops it on :meth:`close`.

    Args:
        name: The server's name.
        command: The executable (``npx``, ``uvx``, ``python``, …).
        args: Its arguments.
        env: Variables added to the SDK's safe default environment (``HOME``, ``PATH``, …);
            the parent's other variables are not passed on.
        cwd: The working folder (default: the parent's).
        encoding: The stream encoding.
        encoding_error_handler: ``"strict"``, ``"ignore"`` or ``"replace"``.
        errlog: Where the server's stderr goes (a real file); ``sys.stderr`` by default.
            An addition to AgentScope's signature, so the app can show a failed server's
            last words.
    """

    def __init__(
        self,
        name: str,
        command: str,
        args: list[str] | None = None,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        encoding: str = "utf-8",
        encoding_error_handler: Literal["strict", "ignore", "replace"] = "strict",
        errlog: TextIO | None = None,
    ) -> None:
        super().__init__(name)
        self.server_params = StdioServerParameters(
            command=command,
            args=args or [],
            env=env,
            cwd=cwd,
            encoding=encoding,
            encoding_error_handler=encoding_error_handler,
        )
        self.errlog = errlog
        self.client = self._make_transport()

    def _make_transport(self) -> AbstractAsyncContextManager[Any]:
        return stdio_client(self.server_params, errlog=self.errlog or sys.stderr)
