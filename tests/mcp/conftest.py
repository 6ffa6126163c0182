"""Real MCP servers for the tests: the FastMCP test server over stdio and streamable HTTP."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from mcp_helpers import SERVER


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    """The streamable-HTTP endpoint of a test server running for the module."""
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "http"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("PORT "), line
        yield f"http://127.0.0.1:{int(line.split()[1])}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()
