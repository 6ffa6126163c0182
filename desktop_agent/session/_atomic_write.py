"""Crash-safe file replacement: write a temporary file, then rename it over the target.

Writing a session in place leaves a truncated file when the app is killed mid-write.
Here the data goes to a temporary file in the same folder (so the rename cannot cross
file systems), is flushed and fsynced, and ``os.replace`` swaps it in atomically; on
POSIX the folder is fsynced too, so the rename itself survives a power cut. Readers see
the old file or the new one, never a mix. Windows gets a short bounded retry because
antivirus and indexers briefly hold files open. Blocking: call it from a worker thread.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Iterable

_TEMP_SUFFIX = ".tmp"
# Windows: ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION.
_RETRIED_WINERRORS = (5, 32, 33)
_RETRY_DELAYS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 0.8)
_WINDOWS = os.name == "nt"


def atomic_write_bytes(
    path: str | os.PathLike[str],
    data: bytes | Iterable[bytes | memoryview],
    *,
    mode: int = 0o600,
) -> None:
    """Replace the file at ``path`` with ``data``, atomically and durably.

    On failure the previous file (if any) is intact and the temporary file is removed.
    The temporary file is named ``.{name}.<random>.tmp`` next to ``path``.

    Args:
        path: The file to create or replace; its folder must exist.
        data: The complete new content, or its pieces in order (written one after the
            other, as they come: a large file is never joined into one more copy).
        mode: Permission bits of the new file on POSIX; the default keeps it private to
            its owner (chat histories and settings are personal data).

    Raises:
        OSError: The data could not be written or the file could not be replaced.
    """
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    fd, temp = tempfile.mkstemp(
        dir=folder, prefix=f".{os.path.basename(target)}.", suffix=_TEMP_SUFFIX
    )
    try:
        with os.fdopen(fd, "wb") as file:
            if os.name == "posix" and mode != 0o600:  # mkstemp creates it 0o600
                os.fchmod(file.fileno(), mode)
            if isinstance(data, bytes | bytearray | memoryview):
                file.write(data)
            else:
                file.writelines(data)
            file.flush()
            os.fsync(file.fileno())
        _replace(temp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    fsync_folder(folder)


def _replace(source: str, target: str) -> None:
    for delay in (*_RETRY_DELAYS, None):
        try:
            os.replace(source, target)
            return
        except PermissionError as exc:
            transient = _WINDOWS and getattr(exc, "winerror", None) in _RETRIED_WINERRORS
            if not transient or delay is None:
                raise
            time.sleep(delay)


def fsync_folder(folder: str | os.PathLike[str]) -> None:
    """fsync a folder so a rename in it survives a crash (best effort; no-op off POSIX)."""
    if os.name != "posix":
        return
    # Best effort: the rename already happened; some file systems refuse to fsync a
    # directory, and that must not turn a completed save into an error.
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
