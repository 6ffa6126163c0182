"""Guard against PySide6 6.12 dropping references to ``None`` and ``True`` on Python 3.11.

Measured in this project's venv (PySide6 6.12.0 abi3 wheel, CPython 3.11.7): every call of
a ``void`` Qt method (``setText``, ``setPosition``, ``QTimer.start``…) decrements
``None``'s reference count without having incremented it, and ``Signal.emit`` does the same
to ``True``. CPython 3.12+ made these objects immortal, so the bug is invisible there; on
3.11 ``None`` starts near 5,000 references and a few thousand Qt calls later the process
aborts with "Fatal Python error: none_dealloc" (or ``bool_dealloc``). A chat pane making
tens of thousands of such calls per streamed reply hits it within seconds.

The workaround gives the three singletons the same treatment 3.12 gives them: a reference
count so large it cannot reach zero. They are statically allocated and never freed, so
nothing else changes. It is a no-op on 3.12+ and on non-CPython interpreters.
"""

from __future__ import annotations

import ctypes
import sys

_HEADROOM = 1 << 40
_applied = False


def protect_singletons() -> bool:
    """Make ``None``/``True``/``False`` effectively immortal on CPython < 3.12.

    Returns:
        Whether the guard was applied in this call (``False`` if not needed or done).
    """
    global _applied
    if _applied or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    for singleton in (None, True, False):
        # ob_refcnt is the first field of every CPython object, at id(obj).
        ctypes.c_ssize_t.from_address(id(singleton)).value += _HEADROOM
    _applied = True
    return True
