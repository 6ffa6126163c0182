"""Typesetting LaTeX into image bytes, run in a helper process by the chat pane's math.

ziamath is pure Python: typesetting one formula holds the GIL for 5–35 ms, and in a thread of
the app it starved the GUI thread (measured with 200 formulas streaming: GUI stall p99 63 ms,
the stream 4× slower). So formulas are typeset in a process of their own, at a lower CPU
priority, which also rasterizes them (QtGui and QtSvg work without a ``QGuiApplication`` for
paths); the app receives raw premultiplied ARGB32 pixels. Here, outside ``ui.chat``, so the
helper process imports only this module, ziamath and QtGui/QtSvg. ``multiprocessing``
(~60 ms to import) is imported by the feeder thread, when the first formula needs it.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import queue
import threading
import time
import warnings
from collections.abc import Hashable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from types import ModuleType
from typing import Any

RawImage = tuple[bytes, int, int, float, float]
"""Pixels (ARGB32 premultiplied), pixel width and height, logical width and height."""


def init_worker() -> None:
    """Run the helper process below the GUI's priority (where the OS allows it)."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(10)


@functools.cache
def _ziamath() -> ModuleType:
    """Import ziamath (once; ~0.25 s) set up for ``QSvgRenderer``."""
    with warnings.catch_warnings():
        # ziafont 0.11 calls importlib.resources.path (deprecated) at import time.
        warnings.simplefilter("ignore", DeprecationWarning)
        import ziamath  # in the helper process only

    ziamath.config.svg2 = False  # QSvgRenderer reads SVG 1.1 / Tiny (xlink:href)
    return ziamath


def typeset_raw(
    latex: str, display: bool, color: str, pixel_size: int, half_x: float, dpr: float
) -> RawImage | str:
    """Typeset ``latex``; its pixels, or why it failed (raises nothing).

    The image is padded so that Qt, which gives an ``AlignMiddle`` inline image ascent
    ``(h + half_x) / 2`` and descent ``(h - half_x) / 2``, puts the formula's baseline on
    the text's baseline.
    """
    try:
        formula = _ziamath().Latex(latex, size=pixel_size, color=color, inline=not display)
        svg = formula.svg()
        bbox, margin = formula.node.bbox, formula.margin
    except Exception as exc:  # ziamath raises many kinds on bad LaTeX
        return f"{type(exc).__name__}: {exc}"[:200]
    from PySide6.QtCore import QByteArray, QRectF, Qt  # in the helper process only
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    ascent, descent = bbox.ymax + margin, -bbox.ymin + margin
    width = bbox.xmax - bbox.xmin + 2 * margin
    excess = (ascent - descent) - half_x
    top, bottom = max(0.0, -excess), max(0.0, excess)
    height = ascent + descent + top + bottom
    pixels_w, pixels_h = max(1, math.ceil(width * dpr)), max(1, math.ceil(height * dpr))
    image = QImage(pixels_w, pixels_h, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    target = QRectF(0, top * dpr, width * dpr, (ascent + descent) * dpr)
    QSvgRenderer(QByteArray(svg.encode())).render(painter, target)
    painter.end()
    return bytes(image.constBits()), pixels_w, pixels_h, width, height


class TypesetProcess:
    """The helper process, fed by a thread of its own.

    Starting the process (fork + exec, 40–70 ms measured) and even a submit (a lock shared
    with the executor's manager thread) must not run on the GUI thread: the GUI only puts
    requests on a queue and later takes finished futures (:meth:`take_done`).
    """

    def __init__(self) -> None:
        """Nothing starts until the first :meth:`submit`."""
        self._queue: queue.SimpleQueue[tuple[Hashable, tuple[Any, ...]] | None] = (
            queue.SimpleQueue()
        )
        self._thread: threading.Thread | None = None
        self._executor: Executor | None = None
        self._futures: dict[Hashable, Future[RawImage | str]] = {}
        self._queued: set[Hashable] = set()

    def submit(self, key: Hashable, args: tuple[Any, ...]) -> None:
        """Typeset ``typeset_raw(*args)`` in the helper; its future appears under ``key``."""
        self._queued.add(key)
        self._queue.put((key, args))
        if self._thread is None:
            self._thread = threading.Thread(target=self._feed, name="math-feeder", daemon=True)
            self._thread.start()

    @property
    def pending(self) -> bool:
        """Whether submitted formulas are not yet taken back."""
        return bool(self._futures or self._queued)

    def take_done(self) -> list[tuple[Hashable, Future[RawImage | str]]]:
        """The finished futures, removed from the pending ones."""
        done = [(key, future) for key, future in list(self._futures.items()) if future.done()]
        for key, _ in done:
            del self._futures[key]
        return done

    def wait(self, timeout: float) -> None:
        """Block until one pending formula finishes (or ``timeout`` seconds pass)."""
        deadline = time.monotonic() + timeout
        while self._queued and not self._futures and time.monotonic() < deadline:
            time.sleep(0.005)
        futures = list(self._futures.values())
        if futures:
            wait(futures, max(0.0, deadline - time.monotonic()), FIRST_COMPLETED)

    def close(self) -> None:
        """Stop feeding and let the helper exit (formulas in flight are dropped)."""
        self._queue.put(None)
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    def _feed(self) -> None:
        import multiprocessing  # with the first formula
        from concurrent.futures import ProcessPoolExecutor

        while (item := self._queue.get()) is not None:
            key, args = item
            future: Future[RawImage | str]
            try:
                if self._executor is None:
                    context = multiprocessing.get_context("spawn")  # never fork a Qt process
                    self._executor = ProcessPoolExecutor(1, context, initializer=init_worker)
                future = self._executor.submit(typeset_raw, *args)
            except Exception as exc:  # no helper process here: the caller falls back
                future = Future()
                future.set_exception(exc)
            self._futures[key] = future
            self._queued.discard(key)
