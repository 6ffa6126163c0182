"""``Toolkit.register_mcp_client`` / ``remove_mcp_clients`` with the real FastMCP server."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import stdio_args

from desktop_agent.mcp import HttpStatelessClient, StdIOStatefulClient
from desktop_agent.message import ToolUseBlock
from desktop_agent.tool import Toolkit, ToolResponse

ROOT = Path(__file__).resolve().parents[2]


def _call(name: str, **arguments: Any) -> ToolUseBlock:
    return ToolUseBlock(type="tool_use", id="call-1", name=name, input=arguments)


async def _chunks(toolkit: Toolkit, name: str, **arguments: Any) -> list[ToolResponse]:
    return [c async for c in await toolkit.call_tool_function(_call(name, **arguments))]


def _text(chunk: ToolResponse) -> str:
    return "".join(b.get("text", "") for b in chunk.content if b["type"] == "text")


@pytest.fixture
async def client() -> AsyncIterator[StdIOStatefulClient]:
    client = StdIOStatefulClient("local", command=sys.executable, args=stdio_args())
    await client.connect()
    yield client
    await client.close()


async def test_register_and_call_with_presets(client: StdIOStatefulClient) -> None:
    toolkit = Toolkit()
    toolkit.create_tool_group("web", "Web tools")
    await toolkit.register_mcp_client(
        client, group_name="web", enable_funcs=["add"], preset_kwargs_mapping={"add": {"b": 10}}
    )
    assert list(toolkit.tools) == ["add"]
    assert toolkit.tools["add"].mcp_name == "local"
    assert toolkit.tools["add"].source == "function"
    assert toolkit.get_json_schemas() == []  # the group is inactive
    toolkit.update_tool_groups(["web"], True)
    parameters = toolkit.get_json_schemas()[0]["function"]["parameters"]
    assert "b" not in parameters["properties"]
    chunks = await _chunks(toolkit, "add", a=1)
    assert len(chunks) == 1 and _text(chunks[0]) == "11"
    # The preset did not leak into the client's cached tool (AgentScope defect fixed).
    again = await client.get_callable_function("add")
    assert "b" in again.json_schema["function"]["parameters"]["properties"]


async def test_errors_and_images_reach_the_model(client: StdIOStatefulClient) -> None:
    toolkit = Toolkit()
    await toolkit.register_mcp_client(client, execution_timeout=0.3)
    assert "echo" in toolkit.tools and "hang" in toolkit.tools
    failed = await _chunks(toolkit, "fail")
    assert "boom" in _text(failed[0])
    timed_out = await _chunks(toolkit, "slow", seconds=5)
    assert _text(timed_out[0]) == (
        "Error occurred when calling MCP tool: Timed out while waiting for response to "
        "ClientRequest. Waited 0.3 seconds."
    )
    picture = await _chunks(toolkit, "picture")
    assert picture[0].content[0]["type"] == "image"


async def test_filters_are_checked(client: StdIOStatefulClient) -> None:
    toolkit = Toolkit()
    with pytest.raises(AssertionError, match="should not overlap"):
        await toolkit.register_mcp_client(client, enable_funcs=["echo"], disable_funcs=["echo"])
    with pytest.raises(TypeError, match="preset_kwargs_mapping must be a dictionary"):
        await toolkit.register_mcp_client(client, preset_kwargs_mapping=[])  # type: ignore[arg-type]
    await toolkit.register_mcp_client(client, disable_funcs=["hang", "crash"])
    assert "hang" not in toolkit.tools and "echo" in toolkit.tools
    with pytest.raises(ValueError, match="A function with name 'echo' is already registered"):
        await toolkit.register_mcp_client(client)


async def test_unconnected_client_is_refused() -> None:
    client = StdIOStatefulClient("local", command=sys.executable, args=stdio_args())
    with pytest.raises(RuntimeError, match="not connected to the server"):
        await Toolkit().register_mcp_client(client)


async def test_remove_mcp_clients_keeps_local_tools(client: StdIOStatefulClient) -> None:
    toolkit = Toolkit()

    def local() -> ToolResponse:
        """A local tool."""
        return ToolResponse(content=[])

    toolkit.register_tool_function(local)
    await toolkit.register_mcp_client(client, enable_funcs=["echo", "add"])
    with pytest.raises(TypeError, match="must be a list of strings"):
        await toolkit.remove_mcp_clients([1])  # type: ignore[list-item]
    await toolkit.remove_mcp_clients("local")
    assert list(toolkit.tools) == ["local"]


async def test_stop_during_a_call_interrupts_it(client: StdIOStatefulClient) -> None:
    toolkit = Toolkit()
    await toolkit.register_mcp_client(client, enable_funcs=["slow", "echo"])
    task = asyncio.create_task(_chunks(toolkit, "slow", seconds=30))
    await asyncio.sleep(0.3)
    task.cancel()
    chunks = await task
    assert chunks[-1].is_interrupted
    assert _text((await _chunks(toolkit, "echo", text="alive"))[0]) == "alive"


async def test_stateless_client_errors_keep_their_text(http_url: str) -> None:
    toolkit = Toolkit()
    web = HttpStatelessClient("web", transport="streamable_http", url=http_url)
    await toolkit.register_mcp_client(web, enable_funcs=["slow"], execution_timeout=0.3)
    chunks = await _chunks(toolkit, "slow", seconds=5)
    assert _text(chunks[0]).startswith("Error occurred when calling MCP tool: Timed out")


def test_toolkit_and_package_work_without_the_sdk() -> None:
    code = (
        "import sys\n"
        "sys.modules['mcp'] = None\n"
        "import desktop_agent\n"
        "from desktop_agent.tool import Toolkit, ToolResponse\n"
        "t = Toolkit()\n"
        "def f() -> ToolResponse:\n"
        "    '''A tool.'''\n"
        "    return ToolResponse(content=[])\n"
        "t.register_tool_function(f)\n"
        "assert 'desktop_agent.mcp' not in sys.modules\n"
        "print(list(t.tools))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['f']"
