"""The permission guard of the desktop tools: default deny, allow once, allow always, deny."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest
from tool_helpers import run_tool, text, tool_call

from desktop_agent.tool import (
    PermissionDecision,
    PermissionRequest,
    Toolkit,
    ToolPermissions,
    register_desktop_tools,
)

GUARDED = ["read_text_file", "write_text_file", "execute_python_code", "execute_shell_command"]
INTERRUPTED = "<system-info>The tool call has been interrupted by the user.</system-info>"


class ScriptedUser:
    """Answers permission questions from a script and records them."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.requests: list[PermissionRequest] = []

    async def __call__(self, request: PermissionRequest) -> PermissionDecision:
        self.requests.append(request)
        return self.answers.pop(0)  # type: ignore[return-value]


def desktop_toolkit(user: ScriptedUser | None = None) -> tuple[Toolkit, ToolPermissions]:
    toolkit = Toolkit()
    permissions = register_desktop_tools(toolkit, ToolPermissions(user) if user else None)
    return toolkit, permissions


def denied(name: str) -> str:
    return f"PermissionDenied: the user did not allow running '{name}'."


def test_all_six_tools_are_registered_with_their_own_schemas() -> None:
    toolkit, permissions = desktop_toolkit()
    assert list(toolkit.tools) == ["get_current_datetime", "calculate", *GUARDED]
    assert permissions.ask is None
    schema = toolkit.tools["execute_shell_command"].json_schema["function"]
    assert schema["description"].startswith("Run a command in the user's shell")
    assert list(schema["parameters"]["properties"]) == ["command", "timeout"]


async def test_default_is_deny(tmp_path: Path) -> None:
    toolkit, _ = desktop_toolkit()
    target = tmp_path / "out.txt"
    marker = tmp_path / "marker"
    calls = {
        "read_text_file": {"path": str(target)},
        "write_text_file": {"path": str(target), "content": "x"},
        "execute_python_code": {"code": f"open({str(marker)!r}, 'w')"},
        "execute_shell_command": {"command": f"touch {marker}"},
    }
    for name, arguments in calls.items():
        (chunk,) = await run_tool(toolkit, name, **arguments)
        assert text(chunk) == denied(name)
        assert chunk.is_last
    assert not target.exists() and not marker.exists()


async def test_free_tools_do_not_ask() -> None:
    user = ScriptedUser()
    toolkit, _ = desktop_toolkit(user)
    (chunk,) = await run_tool(toolkit, "calculate", expression="6*7")
    assert text(chunk) == "6*7 = 42"
    (chunk,) = await run_tool(toolkit, "get_current_datetime", timezone="UTC")
    assert "UTC" in text(chunk)
    (chunk,) = await run_tool(toolkit, "calculate", expression="__import__('os')")
    assert text(chunk).startswith("Error: Cannot calculate ")
    assert user.requests == []


async def test_allow_once_asks_every_time(tmp_path: Path) -> None:
    user = ScriptedUser("allow_once", "allow_once")
    toolkit, permissions = desktop_toolkit(user)
    path = tmp_path / "a.txt"
    (chunk,) = await run_tool(toolkit, "write_text_file", path=str(path), content="hello")
    assert text(chunk) == f"Created {str(path)!r} with 5 characters."
    (chunk,) = await run_tool(toolkit, "read_text_file", path=str(path))
    assert text(chunk) == "hello"
    assert [r.tool_name for r in user.requests] == ["write_text_file", "read_text_file"]
    folder = ""  # no working folder given: relative paths start at home
    assert user.requests[0].arguments == {
        "path": str(path),
        "content": "hello",
        "working_folder": folder,
    }
    assert user.requests[0].summary == (
        f"Write 5 characters to the file {path}, replacing it if it exists."
    )
    assert user.requests[1].arguments == {
        "path": str(path),
        "max_chars": 100_000,
        "working_folder": folder,
    }
    assert permissions.always_allowed == frozenset()


async def test_deny_answer(tmp_path: Path) -> None:
    user = ScriptedUser("deny", "whatever")
    toolkit, _ = desktop_toolkit(user)
    marker = tmp_path / "marker"
    for _ in range(2):
        (chunk,) = await run_tool(toolkit, "execute_shell_command", command=f"touch {marker}")
        assert text(chunk) == denied("execute_shell_command")
    assert not marker.exists()
    assert user.requests[0].summary == (
        f"Run this shell command in {Path.home()} (stopped after 60 s):\ntouch {marker}"
    )


async def test_allow_always_lasts_for_the_session_only() -> None:
    user = ScriptedUser("allow_always", "allow_once")
    toolkit, permissions = desktop_toolkit(user)
    for _ in range(2):
        chunks = await run_tool(toolkit, "execute_python_code", code="print(1 + 1)")
        assert text(chunks[-1]) == "<returncode>0</returncode><stdout>2\n</stdout><stderr></stderr>"
    assert len(user.requests) == 1
    assert permissions.always_allowed == {"execute_python_code"}
    # another tool still asks
    (chunk,) = await run_tool(toolkit, "read_text_file", path="/nonexistent/file")
    assert "no such file" in text(chunk)
    assert [r.tool_name for r in user.requests] == ["execute_python_code", "read_text_file"]
    # another session does not inherit the answer
    other_user = ScriptedUser("deny")
    other, _ = desktop_toolkit(other_user)
    (chunk,) = await run_tool(other, "execute_python_code", code="print(1)")
    assert text(chunk) == denied("execute_python_code")
    assert len(other_user.requests) == 1
    # and forgetting asks again
    permissions.forget("execute_python_code")
    user.answers.append("deny")
    (chunk,) = await run_tool(toolkit, "execute_python_code", code="print(1)")
    assert text(chunk) == denied("execute_python_code")


async def test_parallel_calls_ask_one_question_at_a_time() -> None:
    release, first_asked = asyncio.Event(), asyncio.Event()
    asked: list[PermissionRequest] = []

    async def ask(request: PermissionRequest) -> PermissionDecision:
        asked.append(request)
        first_asked.set()
        await release.wait()
        return "allow_always"

    toolkit = Toolkit()
    register_desktop_tools(toolkit, ToolPermissions(ask))
    calls = [
        asyncio.create_task(run_tool(toolkit, "execute_python_code", code=f"print({i})"))
        for i in range(3)
    ]
    await first_asked.wait()
    release.set()
    results = await asyncio.gather(*calls)
    assert len(asked) == 1
    assert [text(r[-1]).split("<stdout>")[1][0] for r in results] == ["0", "1", "2"]


async def test_ask_failing_means_not_running(tmp_path: Path) -> None:
    async def broken(request: PermissionRequest) -> PermissionDecision:
        raise RuntimeError("dialog crashed")

    toolkit = Toolkit()
    register_desktop_tools(toolkit, ToolPermissions(broken))
    (chunk,) = await run_tool(toolkit, "write_text_file", path=str(tmp_path / "x"), content="")
    assert text(chunk) == "Error: dialog crashed"
    assert not (tmp_path / "x").exists()


async def test_stop_while_the_question_is_open(tmp_path: Path) -> None:
    asking = asyncio.Event()

    async def ask(request: PermissionRequest) -> PermissionDecision:
        asking.set()
        await asyncio.Event().wait()
        return "allow_once"

    toolkit = Toolkit()
    register_desktop_tools(toolkit, ToolPermissions(ask))
    chunks: list[Any] = []
    call = tool_call("write_text_file", path=str(tmp_path / "x"), content="")

    async def consume() -> None:
        async for chunk in await toolkit.call_tool_function(call):
            chunks.append(chunk)

    task = asyncio.create_task(consume())
    await asking.wait()
    task.cancel()
    await task
    assert [text(c) for c in chunks] == [INTERRUPTED]
    assert not (tmp_path / "x").exists()


async def test_guard_holds_through_middlewares_and_presets(tmp_path: Path) -> None:
    async def passthrough(kwargs: dict[str, Any], next_handler: Any) -> Any:
        async for chunk in await next_handler(**kwargs):
            yield chunk

    toolkit, _ = desktop_toolkit()
    toolkit.register_middleware(passthrough)
    toolkit.tools["write_text_file"].preset_kwargs = {"path": str(tmp_path / "x")}
    (chunk,) = await run_tool(toolkit, "write_text_file", content="data")
    assert text(chunk) == denied("write_text_file")
    assert not (tmp_path / "x").exists()


async def test_register_into_a_group() -> None:
    toolkit = Toolkit()
    with pytest.raises(ValueError, match="'desktop' not found"):
        register_desktop_tools(toolkit, group_name="desktop")
    toolkit.create_tool_group("desktop", "Files and programs on this computer.")
    register_desktop_tools(toolkit, group_name="desktop")
    assert {tool.group for tool in toolkit.tools.values()} == {"desktop"}
    assert toolkit.get_json_schemas() == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX shell")
async def test_allowed_shell_command_runs() -> None:
    toolkit, _ = desktop_toolkit(ScriptedUser("allow_once"))
    chunks = await run_tool(toolkit, "execute_shell_command", command="echo hi")
    assert text(chunks[-1]) == "<returncode>0</returncode><stdout>hi\n</stdout><stderr></stderr>"
