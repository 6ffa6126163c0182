"""Real MCP servers for the tests: the FastMCP test server over stdio and streamable HTTP."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from mcp_helpers import SERVER


def _serve(transport: str, path: str) -> Iterator[str]:
    process = subprocess.Popen(
        [sys.executable, str(SERVER), transport], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("PORT "), line
        yield f"http://127.0.0.1:{int(line.split()[1])}{path}"
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    """The streamable-HTTP endpoint of a test server running for the module."""
    yield from _serve("http", "/mcp")


@pytest.fixture(scope="module")
def sse_url() -> Iterator[str]:
    """The SSE endpoint of a test server running for the module."""
    yield from _serve("sse", "/sse")
