"""``atomic_write_bytes``: the old file or the new one, never a mix, no temp left."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from desktop_agent.session import _atomic_write
from desktop_agent.session._atomic_write import atomic_write_bytes

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An empty folder of its own (``tmp_path`` also holds the test's app home)."""
    path = tmp_path / "files"
    path.mkdir()
    return path


def test_creates_and_replaces_a_file(folder: Path) -> None:
    target = folder / "s.json"
    atomic_write_bytes(target, b"first")
    assert target.read_bytes() == b"first"
    atomic_write_bytes(str(target), b"second")
    assert target.read_bytes() == b"second"
    assert os.listdir(folder) == ["s.json"]


@posix_only
def test_new_files_are_private_by_default_and_mode_is_honoured(folder: Path) -> None:
    atomic_write_bytes(folder / "private.json", b"x")
    assert stat.S_IMODE((folder / "private.json").stat().st_mode) == 0o600
    atomic_write_bytes(folder / "shared.json", b"x", mode=0o644)
    assert stat.S_IMODE((folder / "shared.json").stat().st_mode) == 0o644


def test_the_temporary_file_is_hidden_next_to_the_target(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, bytes]] = []
    real_replace = os.replace

    def spy(source: Any, target: Any) -> None:
        seen.append((str(source), Path(source).read_bytes()))
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", spy)
    atomic_write_bytes(folder / "s.json", b"data")
    ((source, data),) = seen
    assert Path(source).parent == folder
    assert Path(source).name.startswith(".s.json.") and source.endswith(".tmp")
    assert data == b"data"  # complete before the rename


@pytest.mark.parametrize("failing", ["write", "fsync", "replace"])
def test_a_failure_keeps_the_old_file_and_removes_the_temp_file(
    folder: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    target = folder / "s.json"
    target.write_bytes(b"old")

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    if failing == "write":
        monkeypatch.setattr(os, "fdopen", _half_writing_fdopen(os.fdopen))
    else:
        monkeypatch.setattr(os, failing, boom)
    with pytest.raises(OSError):
        atomic_write_bytes(target, b"new data")
    monkeypatch.undo()
    assert target.read_bytes() == b"old"
    assert os.listdir(folder) == ["s.json"]


def test_a_missing_folder_raises_and_creates_nothing(folder: Path) -> None:
    with pytest.raises(FileNotFoundError):
        atomic_write_bytes(folder / "absent" / "s.json", b"x")
    assert os.listdir(folder) == []


def test_a_folder_that_refuses_fsync_does_not_fail_the_save(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_open = os.open

    def no_dirs(path: Any, flags: int, *args: Any) -> int:
        if os.path.isdir(path):
            raise OSError(22, "Invalid argument")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", no_dirs)
    atomic_write_bytes(folder / "s.json", b"x")
    assert (folder / "s.json").read_bytes() == b"x"


def test_windows_sharing_violations_are_retried_briefly(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []
    sleeps: list[float] = []

    def busy_twice(source: str, target: str) -> None:
        calls.append((source, target))
        if len(calls) <= 2:
            error = PermissionError(13, "in use")
            error.winerror = 32  # type: ignore[attr-defined]
            raise error

    monkeypatch.setattr(_atomic_write, "_WINDOWS", True)
    monkeypatch.setattr(os, "replace", busy_twice)
    monkeypatch.setattr(_atomic_write.time, "sleep", sleeps.append)
    _atomic_write._replace("a.tmp", "a.json")
    assert len(calls) == 3 and sleeps == [0.01, 0.02]


def test_permission_errors_are_not_retried_on_posix(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def denied(source: str, target: str) -> None:
        calls.append(source)
        error = PermissionError(13, "denied")
        error.winerror = 32  # type: ignore[attr-defined]
        raise error

    monkeypatch.setattr(_atomic_write, "_WINDOWS", False)
    monkeypatch.setattr(os, "replace", denied)
    with pytest.raises(PermissionError):
        _atomic_write._replace("a.tmp", "a.json")
    assert calls == ["a.tmp"]


def test_windows_retries_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    def always_busy(source: str, target: str) -> None:
        error = PermissionError(13, "in use")
        error.winerror = 5  # type: ignore[attr-defined]
        raise error

    sleeps: list[float] = []
    monkeypatch.setattr(_atomic_write, "_WINDOWS", True)
    monkeypatch.setattr(os, "replace", always_busy)
    monkeypatch.setattr(_atomic_write.time, "sleep", sleeps.append)
    with pytest.raises(PermissionError):
        _atomic_write._replace("a.tmp", "a.json")
    assert sleeps == list(_atomic_write._RETRY_DELAYS)


def _half_writing_fdopen(real_fdopen: Any) -> Any:
    """``os.fdopen`` whose files write half the data, then fail like a full disk."""

    class HalfWriter:
        def __init__(self, file: Any) -> None:
            self.file = file

        def __enter__(self) -> HalfWriter:
            return self

        def __exit__(self, *exc_info: object) -> None:
            self.file.close()

        def fileno(self) -> int:
            return int(self.file.fileno())

        def write(self, data: bytes) -> int:
            self.file.write(data[: len(data) // 2])
            self.file.flush()
            raise OSError(28, "No space left on device")

    return lambda fd, *args, **kwargs: HalfWriter(real_fdopen(fd, *args, **kwargs))
