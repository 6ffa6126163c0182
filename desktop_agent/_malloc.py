"""Give freed large blocks back to the system (glibc), so a huge reply's memory is bounded.

A streamed reply grows by building a longer string while consumers still hold the previous
one. glibc serves a large block with ``mmap`` and unmaps it when freed — but after the
first such free it raises its threshold to that block's size (up to 32 MB), so later
blocks of a 20 MB reply come from the heap, where freed space stays resident: each state
of the text left its pages behind (measured: RSS +70–100 MB for a 20 MB reply, +37–41 MB
with a fixed threshold). Fixing the threshold at 1 MiB keeps every large block mapped on
its own and returned when freed. Smaller blocks are served as before.
"""

from __future__ import annotations

import ctypes
import sys

from desktop_agent._logging import logger

MMAP_THRESHOLD = 1 << 20
"""Blocks at least this large get their own mapping (and are unmapped when freed)."""
_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter number
_applied = False


def return_large_blocks() -> bool:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD` (once per process).

    Returns whether the threshold is set: ``False`` off Linux, on a C library without
    ``mallopt`` (musl) or when the call fails — malloc then works as it always does.
    """
    global _applied
    if _applied:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library the process runs on
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    if mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) != 1:
        logger.debug("mallopt(M_MMAP_THRESHOLD) was refused; freed memory stays resident.")
        return False
    _applied = True
    return True
