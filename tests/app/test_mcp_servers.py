"""``McpServers``: the shared servers of the Tools settings, against real servers."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from desktop_agent.app import McpServerConfig, McpServers, McpServerStatus
from desktop_agent.message import ToolUseBlock
from desktop_agent.tool import PermissionRequest, Toolkit, ToolPermissions, ToolResponse

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "tests/mcp/fast_server.py"


def _local(name: str = "local", **fields: Any) -> McpServerConfig:
    return McpServerConfig(name=name, command=sys.executable, args=[str(SERVER), "stdio"], **fields)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state not in ("Z", "X")


def _gone_within(pids: list[int], seconds: float) -> bool:
    """Poll until none of ``pids`` runs (a deadline, not a timing assertion)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


async def _until(servers: McpServers, name: str, state: str) -> McpServerStatus:
    reached = asyncio.Event()
    unsubscribe = servers.subscribe(lambda s: reached.set() if s.state == state else None)
    try:
        if servers.status(name).state != state:
            await asyncio.wait_for(reached.wait(), 30)
    finally:
        unsubscribe()
    return servers.status(name)


def _text(chunk: ToolResponse) -> str:
    return "".join(b.get("text", "") for b in chunk.content if b["type"] == "text")


async def _call(toolkit: Toolkit, name: str, **arguments: Any) -> ToolResponse:
    call = ToolUseBlock(type="tool_use", id="c1", name=name, input=arguments)
    chunks = [c async for c in await toolkit.call_tool_function(call)]
    return chunks[-1]


@pytest.fixture
async def servers() -> AsyncIterator[McpServers]:
    servers = McpServers()
    yield servers
    await servers.aclose()


async def test_start_reports_connected_with_tools(servers: McpServers) -> None:
    seen: list[str] = []
    servers.configure([_local()])
    servers.subscribe(lambda s: seen.append(s.state))
    assert servers.status("local").describe() == "Off"
    [status] = await servers.start()
    assert status.state == "connected"
    assert status.describe() == f"Connected · {len(status.tools)} tools"
    assert {"echo", "picture", "slow"} <= {t.name for t in status.tools}
    await asyncio.sleep(0)  # listeners run on this loop
    assert seen[:2] == ["starting", "connected"]


async def test_agents_get_enabled_tools_and_ask_permission(servers: McpServers) -> None:
    asked: list[PermissionRequest] = []

    async def ask(request: PermissionRequest) -> str:
        asked.append(request)
        return "allow_once"

    servers.configure([_local(disabled_tools=["hang", "crash"]), _local("trusted", trusted=True)])
    await servers.start()
    toolkit = Toolkit()
    names = servers.register_tools(toolkit, ToolPermissions(ask))  # type: ignore[arg-type]
    assert "echo" in names and "trusted_echo" in names
    assert toolkit.tools["hang"].mcp_name == "trusted"  # the one of "local" is switched off
    assert toolkit.tools["echo"].mcp_name == "local"
    assert servers.server_of_tool("trusted_echo") == "trusted"
    assert _text(await _call(toolkit, "echo", text="hi")) == "hi"
    assert [r.tool_name for r in asked] == ["echo"]
    assert "MCP server 'local'" in asked[0].summary
    assert _text(await _call(toolkit, "trusted_echo", text="no question")) == "no question"
    assert len(asked) == 1
    picture = await _call(toolkit, "picture")
    assert picture.content[0]["type"] == "image"


async def test_denied_call_does_not_reach_the_server(servers: McpServers) -> None:
    servers.configure([_local()])
    await servers.start()
    toolkit = Toolkit()
    servers.register_tools(toolkit, ToolPermissions())
    assert _text(await _call(toolkit, "echo", text="x")) == (
        "PermissionDenied: the user did not allow running 'echo'."
    )


async def test_failed_server_shows_its_stderr(servers: McpServers) -> None:
    script = "import sys; sys.stderr.write('invalid token for api\\n'); sys.exit(2)"
    broken = McpServerConfig(name="broken", command=sys.executable, args=["-c", script])
    missing = McpServerConfig(name="missing", command="/no/such/mcp-server")
    servers.configure([broken, missing])
    statuses = await servers.start()
    assert [s.state for s in statuses] == ["failed", "failed"]
    assert "invalid token for api" in statuses[0].error
    assert "/no/such/mcp-server" in statuses[1].error


async def test_unreachable_endpoint_fails_without_leaking_its_token(
    servers: McpServers, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = McpServerConfig(
        name="web",
        transport="streamable_http",
        url=f"http://127.0.0.1:{port}/mcp",
        headers={"Authorization": "Bearer top-secret-token"},
    )
    servers.configure([config])
    [status] = await servers.start()
    assert status.state == "failed" and status.error
    assert "top-secret-token" not in caplog.text


async def test_secrets_never_reach_the_log(
    servers: McpServers, caplog: pytest.LogCaptureFixture
) -> None:
    script = "import os, sys; sys.stderr.write(os.environ['TOKEN'] + '\\n'); sys.exit(1)"
    config = McpServerConfig(
        name="leaky", command=sys.executable, args=["-c", script], env={"TOKEN": "s3cr3t-value"}
    )
    servers.configure([config])
    [status] = await servers.start()
    assert status.state == "failed" and "***" in status.error
    assert "s3cr3t-value" not in status.error and "s3cr3t-value" not in caplog.text


async def test_stop_abandons_the_call_and_keeps_a_healthy_server(servers: McpServers) -> None:
    servers.configure([_local()])
    await servers.start()
    toolkit = Toolkit()
    servers.register_tools(toolkit, ToolPermissions(_allow))
    pid = _text(await _call(toolkit, "pid"))
    task = asyncio.create_task(_call(toolkit, "slow", seconds=60))
    await asyncio.sleep(0.3)
    task.cancel()
    assert (await task).is_interrupted
    assert _text(await _call(toolkit, "pid")) == pid  # same process, still answering
    assert servers.status("local").state == "connected"


async def test_a_hung_server_is_restarted(servers: McpServers) -> None:
    servers.configure([_local()])
    await servers.start()
    toolkit = Toolkit()
    servers.register_tools(toolkit, ToolPermissions(_allow))
    pid = int(_text(await _call(toolkit, "pid")))
    task = asyncio.create_task(_call(toolkit, "hang"))
    await asyncio.sleep(0.3)
    task.cancel()
    assert (await task).is_interrupted
    await _until(servers, "local", "starting")
    await _until(servers, "local", "connected")
    assert _gone_within([pid], 10)
    assert int(_text(await _call(toolkit, "pid"))) != pid


async def test_a_crashed_server_fails_and_leaves_no_children(servers: McpServers) -> None:
    servers.configure([_local()])
    await servers.start()
    toolkit = Toolkit()
    servers.register_tools(toolkit, ToolPermissions(_allow))
    pids = [
        int(_text(await _call(toolkit, "pid"))),
        int(_text(await _call(toolkit, "spawn_child"))),
    ]
    assert "Error" in _text(await _call(toolkit, "crash"))
    status = await _until(servers, "local", "failed")
    assert "crashed on purpose" in status.error
    assert _gone_within(pids, 10)


async def test_close_stops_every_server_process(servers: McpServers) -> None:
    servers.configure([_local()])
    await servers.start()
    toolkit = Toolkit()
    servers.register_tools(toolkit, ToolPermissions(_allow))
    pids = [
        int(_text(await _call(toolkit, "pid"))),
        int(_text(await _call(toolkit, "spawn_child"))),
    ]
    await servers.aclose()
    assert _gone_within(pids, 10)


APP = textwrap.dedent(
    """
    import asyncio, sys
    from desktop_agent.app import McpServerConfig, McpServers
    from desktop_agent.tool import Toolkit, ToolPermissions

    async def main():
        servers = McpServers([McpServerConfig(name="s", command=sys.executable,
                                              args=[sys.argv[1], "stdio"])])
        await servers.start()
        pids = []
        for tool in ("pid", "spawn_child"):
            result = await servers.call_tool("s", tool, {})
            pids.append(result.content[0]["text"])
        print(" ".join(pids), flush=True)
        await asyncio.sleep(3600)

    asyncio.run(main())
    """
)


def test_kill_9_of_the_app_leaves_no_orphans() -> None:
    app = subprocess.Popen(
        [sys.executable, "-c", APP, str(SERVER)], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    try:
        assert app.stdout is not None
        pids = [int(p) for p in app.stdout.readline().split()]
        assert len(pids) == 2 and all(_alive(p) for p in pids)
        app.kill()  # SIGKILL: no cleanup code runs in the app
        app.wait(10)
        assert _gone_within(pids, 10)
    finally:
        if app.poll() is None:
            app.kill()
        if app.stdout is not None:
            app.stdout.close()


async def _allow(request: PermissionRequest) -> str:
    return "allow_once"


def test_importing_the_app_does_not_import_the_sdk() -> None:
    code = "import sys, desktop_agent.app; print('mcp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "False", out.stderr
