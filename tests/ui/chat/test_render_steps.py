"""A budgeted render lexes a chunk's code in a step of its own when the budget is short,
and ends the same as a render in one go."""

from __future__ import annotations

import uuid

from pytestqt.qtbot import QtBot

from desktop_agent.ui.chat import TextRender
from desktop_agent.ui.chat._doc_style import DocumentStyler
from desktop_agent.ui.chat._theme import chat_palette

TAG = uuid.uuid4().hex[:8]  # code no earlier render highlighted (the runs are cached)
TEXT = "".join(
    f"Step {i} runs:\n\n```python\ndef step_{i}(x):\n    return '{TAG}' * {i}\n```\n\n"
    for i in range(20)
)


def test_a_short_budget_lexes_code_first_and_renders_it_next(qtbot: QtBot) -> None:
    styler = DocumentStyler(chat_palette(False))
    render = TextRender(styler)
    render.update(TEXT, final=True, budget=0.0)
    assert render.pending
    assert render.parts == []  # the first chunk's code was lexed: its render comes next
    passes = 1
    while render.pending and passes < 200:
        render.update(TEXT, final=True, budget=0.0)
        passes += 1
    assert not render.pending
    whole = TextRender(styler)
    whole.update(TEXT, final=True)
    assert render.plain_text() == whole.plain_text()
    assert "def step_19(x):" in render.plain_text()
