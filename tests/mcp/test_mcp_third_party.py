"""Third-party MCP servers from the package registries, run for real.

``mcp-server-time`` comes from PyPI (the test extras). ``@modelcontextprotocol/server-everything``
comes from npm, installed by ``scripts/install-test-deps.sh`` (``make test`` runs it) into
``.cache/npm``; its tests skip only when node is absent.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from desktop_agent.mcp import StdIOStatefulClient
from desktop_agent.tool import Toolkit, ToolResponse

ROOT = Path(__file__).resolve().parents[2]
EVERYTHING = ROOT / ".cache/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"


def _text(chunk: ToolResponse) -> str:
    return "".join(b.get("text", "") for b in chunk.content if b["type"] == "text")


async def test_mcp_server_time_from_pypi() -> None:
    client = StdIOStatefulClient(
        "time", command=sys.executable, args=["-m", "mcp_server_time", "--local-timezone", "UTC"]
    )
    await client.connect()
    try:
        toolkit = Toolkit()
        await toolkit.register_mcp_client(client)
        assert {"get_current_time", "convert_time"} <= set(toolkit.tools)
        call = {"type": "tool_use", "id": "1", "name": "get_current_time", "input": {}}
        chunks = [c async for c in await toolkit.call_tool_function(call)]  # type: ignore[arg-type]
        assert len(chunks) == 1
        call["input"] = {"timezone": "Europe/Paris"}
        chunks = [c async for c in await toolkit.call_tool_function(call)]  # type: ignore[arg-type]
        assert '"timezone": "Europe/Paris"' in _text(chunks[0])
    finally:
        await client.close()


@pytest.fixture
def everything() -> list[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the npm server-everything test cannot run")
    if not EVERYTHING.is_file():
        pytest.fail("server-everything is missing: run scripts/install-test-deps.sh")
    return [node, str(EVERYTHING), "stdio"]


async def test_server_everything_from_npm(everything: list[str]) -> None:
    client = StdIOStatefulClient("everything", command=everything[0], args=everything[1:])
    await client.connect()
    try:
        names = {tool.name for tool in await client.list_tools()}
        assert "echo" in names
        echo = await client.get_callable_function("echo")
        assert _text(await echo(message="hi")) == "Echo: hi"  # type: ignore[arg-type]
        image_tool = next(n for n in names if "image" in n.lower())
        result = await (await client.get_callable_function(image_tool))()
        assert isinstance(result, ToolResponse)
        assert any(block["type"] == "image" for block in result.content)
    finally:
        await client.close()
