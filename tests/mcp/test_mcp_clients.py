"""The MCP clients against the real FastMCP test server (stdio and streamable HTTP)."""

from __future__ import annotations

import asyncio
import base64
import socket
import sys
from pathlib import Path

import mcp.types
import pytest
from mcp.shared.exceptions import McpError
from mcp_helpers import stdio_args

from desktop_agent.mcp import (
    HttpStatefulClient,
    HttpStatelessClient,
    MCPClientBase,
    MCPToolFunction,
    StdIOStatefulClient,
)
from desktop_agent.tool import ToolResponse


def _stdio(name: str = "local") -> StdIOStatefulClient:
    return StdIOStatefulClient(name, command=sys.executable, args=stdio_args())


def _text(response: object) -> str:
    assert isinstance(response, ToolResponse)
    return "".join(b.get("text", "") for b in response.content if b["type"] == "text")


async def test_stdio_lists_and_calls_tools() -> None:
    client = _stdio()
    await client.connect()
    try:
        tools = await client.list_tools()
        assert [t.name for t in tools][:3] == ["echo", "add", "picture"]
        add = await client.get_callable_function("add", execution_timeout=5)
        assert isinstance(add, MCPToolFunction)
        assert add.mcp_name == "local"
        assert add.json_schema["function"]["parameters"] == {
            "properties": {
                "a": {"title": "A", "type": "integer"},
                "b": {"default": 1, "title": "B", "type": "integer"},
            },
            "required": ["a"],
            "title": "addArguments",
            "type": "object",
        }
        result = await add(a=2, b=5)
        assert _text(result) == "7"
        assert result.metadata is None and result.is_last and not result.stream
    finally:
        await client.close()
    assert client.is_connected is False


async def test_content_conversion_image_audio_resource() -> None:
    client = _stdio()
    await client.connect()
    try:
        picture = await (await client.get_callable_function("picture"))()
        sound = await (await client.get_callable_function("sound"))()
        note = await (await client.get_callable_function("note"))()
    finally:
        await client.close()
    assert isinstance(picture, ToolResponse) and isinstance(sound, ToolResponse)
    image = picture.content[0]
    assert image["type"] == "image"
    assert image["source"]["media_type"] == "image/png"  # type: ignore[typeddict-item]
    assert base64.b64decode(image["source"]["data"]).startswith(b"\x89PNG")  # type: ignore[typeddict-item]
    assert sound.content[0]["type"] == "audio"
    assert sound.content[0]["source"]["media_type"] == "audio/wav"  # type: ignore[typeddict-item]
    text = _text(note)
    assert text.startswith('{\n  "uri": "file:///notes.txt"')
    assert '"text": "remember the milk"' in text


def test_unsupported_content_is_skipped(caplog: pytest.LogCaptureFixture) -> None:
    items = [
        mcp.types.TextContent(type="text", text="a"),
        mcp.types.ResourceLink(type="resource_link", uri="file:///x", name="x"),
        mcp.types.EmbeddedResource(
            type="resource",
            resource=mcp.types.BlobResourceContents(uri="file:///b", blob="AAAA"),
        ),
        mcp.types.TextContent(type="text", text="b"),
    ]
    blocks = MCPClientBase._convert_mcp_content_to_as_blocks(items)
    assert blocks == [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    assert "Unsupported content type" in caplog.text
    assert "Unsupported EmbeddedResource content type" in caplog.text


async def test_failed_tool_and_timeout() -> None:
    client = _stdio()
    await client.connect()
    try:
        failed = await (await client.get_callable_function("fail"))()
        assert "boom" in _text(failed)
        slow = await client.get_callable_function("slow", execution_timeout=0.3)
        with pytest.raises(McpError, match=r"Waited 0\.3 seconds"):
            await slow(seconds=5)
        assert _text(await (await client.get_callable_function("echo"))(text="still ok")) == (
            "still ok"
        )
    finally:
        await client.close()


async def test_cancelled_call_leaves_the_session_usable() -> None:
    client = _stdio()
    await client.connect()
    try:
        slow = await client.get_callable_function("slow")
        task = asyncio.create_task(slow(seconds=30))
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        echo = await client.get_callable_function("echo")
        assert _text(await echo(text="after")) == "after"
    finally:
        await client.close()


async def test_connect_close_errors_and_reconnect() -> None:
    client = _stdio()
    with pytest.raises(RuntimeError, match=r"Call connect\(\) before using the client"):
        await client.list_tools()
    with pytest.raises(RuntimeError, match=r"not connected\. Call connect\(\) before closing"):
        await client.close()
    await client.connect()
    with pytest.raises(RuntimeError, match="already connected"):
        await client.connect()
    with pytest.raises(ValueError, match="Tool 'nope' not found in the MCP server"):
        await client.get_callable_function("nope")
    await client.close()
    await client.connect()  # AgentScope cannot reconnect; we can
    assert _text(await (await client.get_callable_function("echo"))(text="again")) == "again"
    await client.close()


async def test_missing_executable_raises_file_not_found(tmp_path: Path) -> None:
    client = StdIOStatefulClient("ghost", command=str(tmp_path / "no-such-server"))
    with pytest.raises(FileNotFoundError):
        await client.connect()
    assert client.is_connected is False


def test_function_needs_exactly_one_of_client_and_session() -> None:
    tool = mcp.types.Tool(name="t", inputSchema={})
    with pytest.raises(ValueError, match="Either client or session must be provided"):
        MCPToolFunction("x", tool, True)
    fn = MCPToolFunction("x", tool, True, client_gen=lambda: None, timeout=0)  # type: ignore[arg-type,return-value]
    assert fn.timeout is None
    assert fn.json_schema["function"]["parameters"] == {
        "type": "object",
        "properties": {},
        "required": [],
    }


def test_http_clients_reject_unknown_transport() -> None:
    with pytest.raises(AssertionError):
        HttpStatefulClient("x", transport="ws", url="http://127.0.0.1:1/mcp")  # type: ignore[arg-type]
    with pytest.raises(AssertionError):
        HttpStatelessClient("x", transport="ws", url="http://127.0.0.1:1/mcp")  # type: ignore[arg-type]
    client = HttpStatelessClient("x", transport="sse", url="http://127.0.0.1:1/sse")
    assert client.client_config == {
        "url": "http://127.0.0.1:1/sse",
        "headers": {},
        "timeout": 30,
        "sse_read_timeout": 300,
    }
    client.transport = "ws"  # type: ignore[assignment]
    with pytest.raises(ValueError, match="Unsupported transport type: ws"):
        client.get_client()


async def test_http_stateful_keeps_server_state(http_url: str) -> None:
    client = HttpStatefulClient("web", transport="streamable_http", url=http_url)
    await client.connect()
    try:
        count = await client.get_callable_function("count")
        assert [_text(await count()) for _ in range(3)] == ["1", "2", "3"]
        picture = await (await client.get_callable_function("picture"))()
        assert isinstance(picture, ToolResponse) and picture.content[0]["type"] == "image"
    finally:
        await client.close()


async def test_sse_transport_stateful_and_stateless(sse_url: str) -> None:
    client = HttpStatefulClient("old", transport="sse", url=sse_url)
    await client.connect()
    try:
        echo = await client.get_callable_function("echo")
        assert _text(await echo(text="over sse")) == "over sse"
    finally:
        await client.close()
    stateless = HttpStatelessClient("old", transport="sse", url=sse_url)
    assert _text(await (await stateless.get_callable_function("add"))(a=1)) == "2"


async def test_http_stateless_opens_a_session_per_call(http_url: str) -> None:
    client = HttpStatelessClient("web", transport="streamable_http", url=http_url)
    count = await client.get_callable_function("count")
    assert [_text(await count()) for _ in range(3)] == ["1", "1", "1"]
    slow = await client.get_callable_function("slow", execution_timeout=0.3)
    with pytest.raises(McpError, match=r"Waited 0\.3 seconds"):  # not an ExceptionGroup
        await slow(seconds=5)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_unreachable_http_server_raises_an_ordinary_error() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/mcp"
    client = HttpStatefulClient("down", transport="streamable_http", url=url, timeout=2)
    with pytest.raises(Exception) as info:
        await client.connect()
    assert not isinstance(info.value, asyncio.CancelledError | BaseExceptionGroup)
    assert client.is_connected is False
    await asyncio.sleep(0)  # the task is not left cancelled
    stateless = HttpStatelessClient("down", transport="streamable_http", url=url, timeout=2)
    with pytest.raises(Exception) as info2:
        await stateless.list_tools()
    assert not isinstance(info2.value, asyncio.CancelledError | BaseExceptionGroup)
