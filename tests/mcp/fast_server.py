"""A real MCP server for the tests, written with the SDK's FastMCP.

Run ``python fast_server.py stdio`` (speaks over stdin/stdout) or
``python fast_server.py http`` (streamable HTTP on 127.0.0.1; prints ``PORT <n>`` first),
or ``python fast_server.py sse`` (the older SSE transport, the same way).
Tools: text, image, audio, embedded resources, errors, a slow tool, a tool that hangs the
whole server, and one that starts a child process (for the orphan tests).
"""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import subprocess
import sys
import time

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.utilities.types import Audio, Image
from mcp.types import EmbeddedResource, TextResourceContents

# A 1x1 red PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)
WAV = (
    b"RIFF$\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00@\x1f\x00\x00@\x1f\x00\x00"
    b"\x01\x00\x08\x00data\x00\x00\x00\x00"
)

server = FastMCP("test-server", log_level="WARNING")
_calls: dict[int, int] = {}


@server.tool()
def echo(text: str) -> str:
    """Repeat the text."""
    return text


@server.tool()
def add(a: int, b: int = 1) -> str:
    """Add two numbers."""
    return str(a + b)


@server.tool()
def picture() -> Image:
    """A tiny red picture."""
    return Image(data=PNG, format="png")


@server.tool()
def sound() -> Audio:
    """A short silent sound."""
    return Audio(data=WAV, format="wav")


@server.tool()
def note() -> EmbeddedResource:
    """A text resource."""
    return EmbeddedResource(
        type="resource",
        resource=TextResourceContents(
            uri="file:///notes.txt", mimeType="text/plain", text="remember the milk"
        ),
    )


@server.tool()
def fail() -> str:
    """Always fails."""
    raise ValueError("boom")


@server.tool()
async def slow(seconds: float) -> str:
    """Wait, then answer."""
    await asyncio.sleep(seconds)
    return f"slept {seconds}"


@server.tool()
def hang() -> str:
    """Blocks the whole server (a hung server)."""
    time.sleep(3600)
    return "never"


@server.tool()
def count(ctx: Context) -> str:
    """How often this session called it."""
    key = id(ctx.session)
    _calls[key] = _calls.get(key, 0) + 1
    return str(_calls[key])


@server.tool()
def spawn_child() -> str:
    """Start a long-lived child process and return its pid."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
    return str(child.pid)


@server.tool()
def pid() -> str:
    """The server's process id."""
    return str(os.getpid())


@server.tool()
def crash() -> str:
    """The server dies at once."""
    sys.stderr.write("fatal: the test server crashed on purpose\n")
    sys.stderr.flush()
    os._exit(3)


def _serve_http(app: object) -> None:
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)  # connections queue up until uvicorn accepts them
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    if sys.argv[1:] == ["http"]:
        _serve_http(server.streamable_http_app())
    elif sys.argv[1:] == ["sse"]:
        _serve_http(server.sse_app())
    else:
        sys.stderr.write("test server ready\n")
        server.run("stdio")
