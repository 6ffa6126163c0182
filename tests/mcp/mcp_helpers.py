"""Where the FastMCP test server lives and how to start it over stdio."""

from __future__ import annotations

from pathlib import Path

SERVER = Path(__file__).with_name("fast_server.py")


def stdio_args() -> list[str]:
    """``args`` of the test server over stdio (the command is ``sys.executable``)."""
    return [str(SERVER), "stdio"]
