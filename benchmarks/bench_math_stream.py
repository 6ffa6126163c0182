"""A reply with 200 formulas streams through the real window within the stall targets.

The real :class:`DesktopApp` window (offscreen) streams, from the loopback server in its own
process, a reply of 200 formulas — inline ``$…$`` and ``\\(…\\)``, display ``$$…$$`` and
``\\[…\\]``: fractions, roots, sums, integrals, matrices, Greek, accents — between sentences,
one word per SSE chunk as fast as the server can. Formulas are typeset by ziamath in the
math helper process while the reply streams. In the same run and window, the same reply with
the math delimiters removed streams first, as the baseline. Measured for both: the GUI stall
from a 5 ms heartbeat (p50 / p99 / max gap; targets from SPEC §7: p99 ≤ 16 ms, max ≤ 50 ms)
from the request until every formula is typeset and shown, the time that took, and the
formulas shown as images.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_math_stream.py``
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from _common import (
    BenchmarkFailure,
    Heartbeat,
    Report,
    gap_summary,
    load_average,
    main_guard,
    open_desktop,
    run_app,
    run_turn,
    server_process,
    settle,
    wait_until,
)
from PySide6.QtWidgets import QApplication

from desktop_agent.ui.chat._document_view import DocumentView
from desktop_agent.ui.chat._math import MATH_SOURCE, math_renderer

FORMULAS = 200
_SHAPES = [
    "${a}_{{{n}}} = \\frac{{{n}}}{{{n}+1}}$",
    "\\(\\sqrt{{x^{n} + {n}}}\\)",
    "$$\\sum_{{i=1}}^{{{n}}} i^2 = \\frac{{{n}({n}+1)(2\\cdot{n}+1)}}{{6}}$$",
    "\\[\\int_0^{{{n}}} e^{{-t}}\\,dt\\]",
    "$\\begin{{pmatrix}} {n} & \\alpha \\\\ \\beta & \\hat{{x}} \\end{{pmatrix}}$",
    "$\\vec{{v}}_{{{n}}} \\cdot \\tilde{{\\omega}}$",
]


def math_reply(count: int = FORMULAS) -> str:
    """A reply holding ``count`` distinct formulas (none cached before)."""
    parts = []
    for n in range(count):
        formula = _SHAPES[n % len(_SHAPES)].format(a="abcdefgh"[n % 8], n=n)
        if formula.startswith(("$$", "\\[")):
            parts.append(f"Formula {n} on its own line:\n\n{formula}\n\n")
        else:
            parts.append(f"Step {n} uses {formula} and goes on with some more words. ")
            if n % 5 == 4:
                parts.append("\n\n")
    return "".join(parts)


def _tokens(text: str) -> list[str]:
    return re.findall(r"\S+\s*|\s+", text)


def _shown_formulas(desktop: Any) -> int:
    count = 0
    for view in desktop.window.findChildren(DocumentView):
        block = view.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fmt = it.fragment().charFormat()
                if fmt.isImageFormat() and fmt.property(MATH_SOURCE):
                    count += 1
                it += 1
            block = block.next()
    return count


def _plain(text: str) -> str:
    """The same reply with the math delimiters removed (text of about the same size)."""
    for mark in ("$", "\\[", "\\]", "\\(", "\\)"):
        text = text.replace(mark, "")
    return text


@dataclass
class Turn:
    """One measured reply."""

    streamed: float
    done: float
    typeset: int
    gaps: list[float]


async def _turn(prompt: str) -> Turn:
    """Send ``prompt``; time the reply until every formula is shown, with the heartbeat."""
    typeset_before = math_renderer().stats.typeset
    heartbeat = Heartbeat()
    heartbeat.start()
    started = time.perf_counter()
    await run_turn(_DESKTOP[0], prompt, timeout=120)
    streamed = time.perf_counter() - started
    await wait_until(lambda: not math_renderer().busy, 120, "typesetting")
    await settle(0.2)
    done = time.perf_counter() - started
    gaps = heartbeat.stop()
    return Turn(streamed, done, math_renderer().stats.typeset - typeset_before, gaps)


_DESKTOP: list[Any] = []


async def amain(app: QApplication) -> int:
    text = math_reply()
    tokens, plain_tokens = _tokens(text), _tokens(_plain(text))
    script = {
        "replies": [
            {"text": "Warm up: $x^2$.", "chunk_size": 4},
            {"text": plain_tokens, "chunk_delay": 0},
            {"text": tokens, "chunk_delay": 0},
        ],
    }
    with server_process(script) as base_url:
        desktop = await open_desktop(base_url)
        _DESKTOP[:] = [desktop]
        try:
            await run_turn(desktop, "Warm up.")
            await wait_until(lambda: not math_renderer().busy, 30, "warm-up formula")
            await settle(0.5)
            plain = await _turn("The same text without math.")
            await settle(0.5)
            maths = await _turn("Write 200 formulas.")
            shown = _shown_formulas(desktop)
        finally:
            await desktop.aclose()
            desktop.window.close()
    if maths.typeset < FORMULAS:
        raise BenchmarkFailure(f"only {maths.typeset} of {FORMULAS} formulas were typeset")
    report = Report(f"math reply: {FORMULAS} formulas, {len(tokens)} chunks, streamed and typeset")
    for name, turn in (("without math", plain), ("with math", maths)):
        p50, p99, worst = gap_summary(turn.gaps)
        report.add(f"{name}: reply streamed", f"{turn.streamed:.2f} s")
        report.add(f"{name}: GUI stall p50", f"{p50:.1f} ms")
        report.add(f"{name}: GUI stall p99", f"{p99:.1f} ms", "≤ 16 ms", p99 <= 16)
        report.add(f"{name}: GUI stall max", f"{worst:.1f} ms", "≤ 50 ms", worst <= 50)
    report.add("with math: every formula typeset and shown", f"{maths.done:.2f} s")
    report.add("formulas typeset (helper process)", str(maths.typeset))
    report.add("formula images in the shown documents", str(shown))
    report.note(f"load average {load_average():.2f} (2 cores): stalls grow with other load")
    report.print()
    return 0


if __name__ == "__main__":
    main_guard(lambda: run_app(amain))
