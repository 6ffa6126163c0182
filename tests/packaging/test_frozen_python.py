"""``execute_python_code`` in the packaged app, whose ``sys.executable`` is the app itself."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from desktop_agent.message import ToolUseBlock
from desktop_agent.tool import Toolkit, execute_python_code

PYTHON = sys.executable  # before the fixture replaces it
posix_only = pytest.mark.skipif(os.name != "posix", reason="a symlink stands for python3")


async def _run(code: str) -> str:
    """The final text of one ``execute_python_code`` call made through a toolkit."""
    toolkit = Toolkit()
    toolkit.register_tool_function(execute_python_code)
    call = ToolUseBlock(type="tool_use", id="c1", name="execute_python_code", input={"code": code})
    chunks = [chunk async for chunk in await toolkit.call_tool_function(call)]
    return "".join(block["text"] for block in chunks[-1].content if block["type"] == "text")


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Pretend to be the PyInstaller app; ``PATH`` is an empty folder (returned)."""
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "desktop-agent"))
    path = tmp_path / "bin"
    path.mkdir()
    monkeypatch.setenv("PATH", str(path))
    return path


async def test_frozen_app_reports_that_no_python_is_installed(frozen: Path) -> None:
    result = await _run("print('hi')")
    assert result.startswith("Error: no Python interpreter found")
    assert "python3" in result


@posix_only
async def test_frozen_app_runs_code_with_the_python_on_path(frozen: Path) -> None:
    (frozen / "python3").symlink_to(PYTHON)
    result = await _run("import sys; print(sys.version_info[0])")
    assert result == "<returncode>0</returncode><stdout>3\n</stdout><stderr></stderr>"
