"""Which text is LaTeX math: the detection rules, as a table of cases (no Qt)."""

from __future__ import annotations

import pytest

from desktop_agent.ui.chat._math_detect import (
    PLACEHOLDER_BASE,
    find_math,
    placeholder_index,
    protect_math,
)

CASES: list[tuple[str, list[tuple[str, bool]]]] = [
    # (text, [(latex, display), ...])
    ("Euler: $e^{i\\pi} + 1 = 0$.", [("e^{i\\pi} + 1 = 0", False)]),
    ("$$\\sum_{i=1}^n i$$", [("\\sum_{i=1}^n i", True)]),
    ("$$\n\\frac{a}{b}\n$$\n", [("\\frac{a}{b}", True)]),
    ("\\(x^2\\) and \\[y_1\\]", [("x^2", False), ("y_1", True)]),
    ("It costs $5 and $10.", []),
    ("From $5 to $10, then $x$.", [("x", False)]),
    ("$ x$ has a space after the opening dollar", []),
    ("$x $ has a space before the closing dollar", []),
    ("$x$5 has a digit after the closing dollar", []),
    ("An escaped \\$x$ dollar", []),
    ("`$x$` is code", []),
    ("```\n$x$\n```\nafter $y$", [("y", False)]),
    ("~~~tex\n$$a$$\n~~~\n", []),
    ("$$\\frac{a}{b} streaming, not closed yet", []),
    ("$$ unclosed \\(also\\) fine", [("also", False)]),
    ("$a\n\nb$ spans a blank line", []),
    ("$a * b_1$ and $c * d_2$", [("a * b_1", False), ("c * d_2", False)]),
    ("\\\\(not math\\\\)", []),
    ("plain text", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_detection(text: str, expected: list[tuple[str, bool]]) -> None:
    assert [(span.latex, span.display) for span in find_math(text)] == expected


def test_streaming_a_display_formula_is_text_until_it_closes() -> None:
    full = "Sum: $$\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}$$ done"
    close = full.index("$$", full.index("$$") + 2)
    for end in range(len(full)):
        spans = find_math(full[:end])
        assert (spans != []) == (end >= close + 2), full[:end]


def test_protect_math_swaps_formulas_for_placeholders() -> None:
    text, spans = protect_math("a $x_1 * y_2$ b $$z$$")
    assert text == f"a {chr(PLACEHOLDER_BASE)} b {chr(PLACEHOLDER_BASE + 1)}"
    assert [span.source for span in spans] == ["$x_1 * y_2$", "$$z$$"]
    assert placeholder_index(text[2]) == 0
    assert placeholder_index("a") == -1


def test_text_with_private_use_characters_is_left_alone() -> None:
    text = "icon \ue001 and $x$"
    assert protect_math(text) == (text, [])
