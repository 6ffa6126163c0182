"""The permission question names the file a call will really touch: symlinks followed,
``..`` normalised, whatever path the model wrote."""

from __future__ import annotations

from pathlib import Path

from tool_helpers import run_tool

from desktop_agent.tool import (
    PermissionDecision,
    PermissionRequest,
    Toolkit,
    ToolPermissions,
    register_desktop_tools,
)


async def _summary_of(name: str, **arguments: object) -> str:
    asked: list[PermissionRequest] = []

    async def deny(request: PermissionRequest) -> PermissionDecision:
        asked.append(request)
        return "deny"

    toolkit = Toolkit()
    register_desktop_tools(toolkit, ToolPermissions(deny))
    await run_tool(toolkit, name, **arguments)
    return asked[0].summary


async def test_a_symlink_is_named_by_its_target(tmp_path: Path) -> None:
    secret = tmp_path / "private" / "keys.txt"
    secret.parent.mkdir()
    secret.write_text("k", "utf-8")
    link = tmp_path / "notes.txt"
    link.symlink_to(secret)
    summary = await _summary_of("read_text_file", path=str(link))
    assert f"Read the file {secret} " in summary
    assert repr(str(link)) in summary  # and what the model asked for


async def test_dot_dot_is_normalised(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    given = f"{tmp_path}/work/../outside.txt"
    summary = await _summary_of("write_text_file", path=given, content="x")
    assert summary.startswith(f"Write 1 characters to the file {tmp_path / 'outside.txt'} ")
    assert not (tmp_path / "outside.txt").exists()
