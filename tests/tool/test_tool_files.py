"""``read_text_file`` and ``write_text_file`` (called directly, without permissions)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from desktop_agent.tool import ToolError, read_text_file, write_text_file


async def read(path: Path | str, **kwargs: int) -> str:
    return (await read_text_file(str(path), **kwargs)).content[0]["text"]


async def test_read_utf8(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("héllo\nwörld ✓\n", encoding="utf-8")
    assert await read(path) == "héllo\nwörld ✓\n"


async def test_read_strips_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeffhi".encode())
    assert await read(path) == "hi"


async def test_read_is_capped(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_text("é" * 1000, encoding="utf-8")
    text = await read(path, max_chars=10)
    assert (
        text == "é" * 10 + "\n\n[Only the first 10 characters are shown; the file has 2000 bytes.]"
    )


async def test_read_invalid_utf8_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("café".encode("latin-1"))
    text = await read(path)
    assert text.startswith("caf\ufffd")
    assert "not valid UTF-8" in text


async def test_read_errors(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="no such file or folder"):
        await read(tmp_path / "missing.txt")
    with pytest.raises(ToolError, match="it is a folder, not a file"):
        await read(tmp_path)
    (tmp_path / "bin").write_bytes(b"\x89PNG\x00\x00\x01")
    with pytest.raises(ToolError, match="binary file"):
        await read(tmp_path / "bin")
    with pytest.raises(ToolError, match="max_chars"):
        await read(tmp_path / "bin", max_chars=0)
    with pytest.raises(ToolError, match="empty"):
        await read(" ")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX only")
async def test_read_refuses_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ToolError, match="not a regular file"):
        await read(fifo)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
async def test_read_permission_denied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "secret.txt"
    path.write_text("x")
    path.chmod(0)
    if os.geteuid() == 0:  # root reads anything: the refusal a user gets is made here
        real_open = Path.open

        def refusing(self: Path, *args: Any, **kwargs: Any) -> Any:
            if self == path:
                raise PermissionError(13, "Permission denied", str(self))
            return real_open(self, *args, **kwargs)

        monkeypatch.setattr(Path, "open", refusing)
    with pytest.raises(ToolError, match="permission denied"):
        await read(path)


async def test_read_expands_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "here.txt").write_text("home")
    assert await read("~/here.txt") == "home"


async def test_write_creates_and_overwrites_atomically(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "out.txt"
    response = await write_text_file(str(path), "one\r\ntwo")
    assert response.content[0]["text"] == f"Created {str(path)!r} with 8 characters."
    assert path.read_bytes() == b"one\r\ntwo"
    path.chmod(0o600)
    response = await write_text_file(str(path), "ünï")
    assert response.content[0]["text"] == f"Overwrote {str(path)!r} with 3 characters."
    assert path.read_text(encoding="utf-8") == "ünï"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == ["out.txt"]  # no temp file left


async def test_write_follows_symlinks(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    await write_text_file(str(link), "new")
    assert link.is_symlink()
    assert target.read_text() == "new"


async def test_write_errors(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="it is a folder, not a file"):
        await write_text_file(str(tmp_path), "x")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ToolError, match="Cannot write"):
        await write_text_file(str(blocker / "child.txt"), "x")
