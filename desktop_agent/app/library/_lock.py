"""Inter-process locks: one per open session, one for index writers.

A session is writable only in the process holding an exclusive ``flock`` (``msvcrt``
byte lock on Windows) on ``<id>.lock``; the OS drops it when that process dies, even by
``kill -9``, so a crash never leaves a session locked. The lock file is removed while
still locked when the session is closed; a process that locked a file which was removed
meanwhile notices (the inode at the path differs) and tries again.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path

if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _lock_blocking(fd: int) -> None:
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # retries for ~10 s, then raises
                return
            except OSError:
                continue

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _lock_blocking(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


_REMOVE_WHILE_LOCKED = sys.platform != "win32"  # Windows cannot delete an open file


def _open(path: Path) -> int:
    return os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o600)


def _still_at(path: Path, fd: int) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except FileNotFoundError:
        return False


class SessionLock:
    """The exclusive, non-blocking lock that makes one process a session's writer."""

    def __init__(self, path: Path) -> None:
        """Create the lock (not yet acquired).

        Args:
            path: The lock file, ``<id>.lock``.
        """
        self.path = path
        self._fd: int | None = None
        self._closer: weakref.finalize[[int], SessionLock] | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def acquire(self) -> bool:
        """Take the lock if no other process holds it; ``True`` if held afterwards.

        Raises:
            OSError: The lock file cannot be created (e.g. a read-only folder).
        """
        if self._fd is not None:
            return True
        for _ in range(8):  # a concurrent release may remove the file under us
            fd = _open(self.path)
            if not _try_lock(fd):
                os.close(fd)
                return False
            if _still_at(self.path, fd):
                self._fd = fd
                # A library dropped without close() must not keep the session locked.
                self._closer = weakref.finalize(self, os.close, fd)
                return True
            _unlock(fd)
            os.close(fd)
        return False

    def release(self) -> None:
        """Give the lock up and remove the lock file (POSIX)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if self._closer is not None:
            self._closer.detach()
        if _REMOVE_WHILE_LOCKED:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        _unlock(fd)
        os.close(fd)


def locked_elsewhere(path: Path) -> bool:
    """Whether another process holds the session lock at ``path`` (cheap if none).

    A stale lock file (its process died) is removed on the way.
    """
    if not path.exists():
        return False
    probe = SessionLock(path)
    try:
        if not probe.acquire():
            return True
    except OSError:
        return False
    probe.release()
    return False


_index_thread_lock = threading.Lock()


@contextlib.contextmanager
def index_lock(path: Path) -> Iterator[None]:
    """Hold the index writers' lock (blocking), across threads and processes.

    Raises:
        OSError: The lock file cannot be created.
    """
    with _index_thread_lock:
        fd = _open(path)
        try:
            _lock_blocking(fd)
            try:
                yield
            finally:
                _unlock(fd)
        finally:
            os.close(fd)
