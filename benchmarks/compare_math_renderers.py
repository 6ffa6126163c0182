"""Compare LaTeX math renderers for the chat pane: ziamath and matplotlib's mathtext.

Not part of ``make bench`` (it needs matplotlib, which the app does not install). Run it
with the Python of a virtualenv holding one or both libraries::

    python benchmarks/compare_math_renderers.py

It prints, per library: the installed size of the library and its dependencies, the import
time, the time per formula (first render and repeated), and which common constructs it
renders. The choice (ziamath) and the figures are recorded in ``pyproject.toml``.
"""

from __future__ import annotations

import importlib.metadata
import io
import time
from collections.abc import Callable
from pathlib import Path

CONSTRUCTS = {
    "fraction": r"\frac{a+b}{c-d}",
    "root": r"\sqrt[3]{x^2+1}",
    "sum with limits": r"\sum_{i=1}^{n} i^2",
    "integral": r"\int_0^\infty e^{-x^2}\,dx",
    "matrix": r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
    "greek": r"\alpha\beta\gamma\Delta\Omega",
    "accents": r"\hat{x} + \bar{y} + \vec{v} + \tilde{n} + \dot{q}",
    "cases": r"f(x) = \begin{cases} 1 & x > 0 \\ 0 & x \le 0 \end{cases}",
    "left/right": r"\left( \frac{1}{2} \right)",
    "operators": r"\lim_{x \to 0} \frac{\sin x}{x} = 1",
}
REPEAT = 20


def _dist_size(names: list[str]) -> float:
    total = 0
    for name in names:
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        for file in dist.files or []:
            path = Path(str(dist.locate_file(file)))
            if path.is_file():
                total += path.stat().st_size
    return total / 1e6


def _zia() -> tuple[Callable[[str], object], list[str]]:
    import ziamath

    def render(latex: str) -> object:
        return ziamath.Latex(latex, size=16).svg()

    return render, ["ziamath", "ziafont", "latex2mathml"]


def _mpl() -> tuple[Callable[[str], object], list[str]]:
    from matplotlib import mathtext

    def render(latex: str) -> object:
        out = io.BytesIO()
        mathtext.math_to_image(f"${latex}$", out, dpi=96, format="png")
        return out.getvalue()

    deps = ["matplotlib", "numpy", "pillow", "fonttools", "contourpy", "kiwisolver"]
    return render, [*deps, "cycler", "pyparsing", "python-dateutil", "packaging", "six"]


def _measure(name: str, factory: Callable[[], tuple[Callable[[str], object], list[str]]]) -> None:
    started = time.perf_counter()
    try:
        render, dists = factory()
    except ImportError as exc:
        print(f"{name}: not installed ({exc})")
        return
    imported = time.perf_counter() - started
    print(f"{name}: installed {_dist_size(dists):.1f} MB, import {imported * 1000:.0f} ms")
    firsts, repeats = [], []
    for construct, latex in CONSTRUCTS.items():
        started = time.perf_counter()
        try:
            render(latex)
        except Exception as exc:
            print(f"  {construct:16} FAILS: {type(exc).__name__}: {str(exc)[:60]}")
            continue
        firsts.append(time.perf_counter() - started)
        started = time.perf_counter()
        for _ in range(REPEAT):
            render(latex)
        repeats.append((time.perf_counter() - started) / REPEAT)
        print(f"  {construct:16} ok  {repeats[-1] * 1000:6.2f} ms")
    if repeats:
        mean = sum(repeats) / len(repeats) * 1000
        print(f"  first render of the first formula {firsts[0] * 1000:.0f} ms; mean {mean:.2f} ms")


def main() -> None:
    """Print the comparison for every library that imports here."""
    _measure("ziamath", _zia)
    _measure("matplotlib mathtext", _mpl)


if __name__ == "__main__":
    main()
