"""MCP figures: enabled → connected, per-call overhead, Stop → idle during an MCP call.

The server is the FastMCP test server (``tests/mcp/fast_server.py``) over stdio, a real
process. Figures:

1. **enabled → connected**: from ``McpServers.start()`` (what enabling a server on the Tools
   tab, or a chat first needing it, does) until its status is "connected" with its tools
   listed; next to it the same steps with the SDK alone (``stdio_client`` +
   ``initialize`` + ``list_tools``), so the cost of our layers (MCP thread, watchdog) shows.
2. **per-call overhead**: ``echo`` called N times through the SDK's ``ClientSession``
   directly, through ``MCPToolFunction``, through ``Toolkit.call_tool_function`` and through
   the app's path (``McpServers`` on its own thread + permission check of a trusted server
   + Toolkit). Overhead = median minus the SDK's median.
3. **Stop → idle during an MCP call**: a ``ChatService`` turn in which the scripted
   loopback model calls the slow tool; ``ChatService.stop()`` is timed until the service is
   idle (SPEC §7 target ≤ 100 ms). The server must still answer afterwards (not killed).

Run: ``.venv/bin/python benchmarks/bench_mcp.py [calls]``
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("DESKTOP_AGENT_HOME", tempfile.mkdtemp(prefix="desktop-agent-bench-"))

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from pydantic import SecretStr

from desktop_agent.app import (
    ChatService,
    Conversation,
    McpServerConfig,
    McpServers,
    Provider,
    Settings,
)
from desktop_agent.mcp import StdIOStatefulClient
from desktop_agent.message import ToolUseBlock
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall
from desktop_agent.tool import Toolkit, ToolPermissions

SERVER = Path(__file__).resolve().parents[1] / "tests/mcp/fast_server.py"
ARGS = [str(SERVER), "stdio"]
STARTS = 5
CALLS = int(sys.argv[1]) if len(sys.argv) > 1 else 300
STOPS = 5
TARGET_STOP_MS = 100.0


def _config(name: str = "bench", trusted: bool = True) -> McpServerConfig:
    return McpServerConfig(name=name, command=sys.executable, args=ARGS, trusted=trusted)


async def _timed(fn: Callable[[], Awaitable[Any]], n: int) -> list[float]:
    times = []
    for _ in range(n):
        started = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - started)
    return times


# -- 1. enabled -> connected ------------------------------------------------------------------


async def start_times() -> tuple[list[float], list[float]]:
    """Our start and the SDK's, alternating, so that they share the machine's load."""
    ours, sdk = [], []
    params = StdioServerParameters(command=sys.executable, args=ARGS)
    for i in range(STARTS):
        servers = McpServers([_config(f"bench{i}")])
        started = time.perf_counter()
        [status] = await servers.start()
        ours.append(time.perf_counter() - started)
        assert status.state == "connected", status
        await servers.aclose()
        with open(os.devnull, "w") as errlog:  # noqa: ASYNC230
            started = time.perf_counter()
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                await session.list_tools()
                sdk.append(time.perf_counter() - started)
    return ours, sdk


# -- 2. per-call overhead ---------------------------------------------------------------------


async def call_times() -> dict[str, list[float]]:
    """The four ways, interleaved call by call, so that they share the machine's load."""
    client = StdIOStatefulClient("bench", command=sys.executable, args=ARGS)
    await client.connect()
    servers = McpServers([_config("app")])
    await servers.start()
    try:
        session = client.session
        assert session is not None
        echo = await client.get_callable_function("echo")
        direct = Toolkit()
        await direct.register_mcp_client(client, enable_funcs=["echo"])
        app = Toolkit()
        servers.register_tools(app, ToolPermissions())
        ways: dict[str, Callable[[], Awaitable[Any]]] = {
            "SDK ClientSession.call_tool": lambda: session.call_tool("echo", {"text": "hi"}),
            "MCPToolFunction": lambda: echo(text="hi"),
            "Toolkit.call_tool_function": lambda: _run(direct),
            "app: McpServers thread + Toolkit": lambda: _run(app),
        }
        results: dict[str, list[float]] = {name: [] for name in ways}
        for _ in range(CALLS):
            for name, way in ways.items():
                results[name] += await _timed(way, 1)
    finally:
        await client.close()
        await servers.aclose()
    return results


async def _run(toolkit: Toolkit) -> None:
    call = ToolUseBlock(type="tool_use", id="1", name="echo", input={"text": "hi"})
    async for _chunk in await toolkit.call_tool_function(call):
        pass


# -- 3. Stop -> idle --------------------------------------------------------------------------


async def stop_times() -> tuple[list[float], bool]:
    servers = McpServers([_config()])
    await servers.start()
    latencies = []
    with OpenAICompatServer() as model_server:
        provider = Provider("bench", model_server.base_url, "m", SecretStr("k"), "environment")
        conversation = Conversation()
        service = ChatService(conversation, Settings(), provider, mcp_servers=servers)
        for i in range(STOPS):
            model_server.add_reply(
                ScriptedReply(
                    tool_calls=[ScriptedToolCall("slow", {"seconds": 60}, id=f"slow-{i}")]
                )
            )
            turn = service.send(f"go {i}")
            await _until(lambda: _tool_running(conversation))
            await asyncio.sleep(0.2)  # the call is at the server
            started = time.perf_counter()
            await service.stop()
            latencies.append(time.perf_counter() - started)
            assert turn.done() and not service.busy
        await service.aclose()
    pid_answers = await servers.call_tool("bench", "pid", {})
    alive = bool(pid_answers.content)
    await servers.aclose()
    return latencies, alive


def _tool_running(conversation: Conversation) -> bool:
    """The last message asks for a tool that is running (the call is on its way)."""
    for entry in reversed(conversation.entries):
        msg = entry.msg
        if msg is None or not isinstance(msg.content, list):
            continue
        calls = [b for b in msg.content if b.get("type") == "tool_use"]
        if calls:
            return conversation.tool_status(str(calls[-1]["id"])).value == "running"
    return False


async def _until(condition: Callable[[], bool]) -> None:
    while not condition():  # noqa: ASYNC110  (a benchmark polls what it cannot await)
        await asyncio.sleep(0.005)


# -- report -----------------------------------------------------------------------------------


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:7.2f} ms  max {max(values) * 1000:7.2f} ms"


async def main() -> int:
    ours, sdk = await start_times()
    print(f"enabled -> connected (stdio, {STARTS} starts)")
    print(f"  McpServers.start (MCP thread + watchdog): {ms(ours)}")
    print(f"  SDK alone (stdio_client + initialize + list_tools): {ms(sdk)}")
    calls = await call_times()
    base = statistics.median(calls["SDK ClientSession.call_tool"])
    print(f"per-call cost, echo ({CALLS} calls each)")
    for name, values in calls.items():
        median = statistics.median(values)
        print(
            f"  {name:38s} median {median * 1e6:8.1f} µs  overhead {(median - base) * 1e6:+7.1f} µs"
        )
    latencies, alive = await stop_times()
    worst = max(latencies) * 1000
    verdict = "PASS" if worst <= TARGET_STOP_MS else "MISS"
    print(
        f"Stop -> idle during an MCP call ({STOPS} stops): {ms(latencies)}  target ≤ "
        f"{TARGET_STOP_MS:.0f} ms  {verdict}"
    )
    print(f"  server still answering after the stops: {alive}")
    return 0 if verdict == "PASS" and alive else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
