"""Typeset math in replies: each construct, the pane, streaming, copying the LaTeX."""

from __future__ import annotations

import pytest
from _chat_helpers import message_row, settle
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextDocument, QTextImageFormat
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._document_view import DocumentView
from desktop_agent.ui.chat._math import MATH_SOURCE, MathKey, math_renderer, typeset

CONSTRUCTS = {
    "fraction": r"\frac{a+b}{c-d}",
    "root": r"\sqrt[3]{x^2+1}",
    "sum with limits": r"\sum_{i=1}^{n} i^2",
    "matrix": r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
    "greek": r"\alpha\beta\gamma\Delta\Omega",
    "accents": r"\hat{x} + \bar{y} + \vec{v} + \tilde{n}",
}


@pytest.mark.parametrize("latex", CONSTRUCTS.values(), ids=CONSTRUCTS.keys())
@pytest.mark.parametrize("display", [False, True])
def test_each_construct_typesets_to_an_image_of_sane_size(
    qtbot: QtBot, latex: str, display: bool
) -> None:
    result = typeset(MathKey(latex, display, "#ff0000", 16, 4.0, 2.0))
    assert result.image is not None, result.error
    assert 5 < result.width < 400 and 8 < result.height < 200
    image = result.image
    assert image.devicePixelRatio() == 2.0
    assert image.width() >= result.width * 2 - 1
    reds = sum(
        QColor(image.pixel(x, y)).red() > 200
        for x in range(0, image.width(), 2)
        for y in range(0, image.height(), 2)
    )
    assert reds > 5  # drawn, in the colour asked for


def test_bad_latex_reports_an_error_instead_of_an_image() -> None:
    result = typeset(MathKey(r"\frac{a", False, "#000000", 16, 4.0, 1.0))
    assert result.image is None and result.error


def _reply(text: str) -> Msg:
    return Msg("Friday", [{"type": "text", "text": text}], "assistant")


def _documents(view: ChatView) -> list[QTextDocument]:
    return [w.document() for w in message_row(view, 0).findChildren(DocumentView)]


def _formulas(view: ChatView) -> list[tuple[str, QTextImageFormat, Qt.AlignmentFlag]]:
    out = []
    for doc in _documents(view):
        block = doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fmt = it.fragment().charFormat()
                if fmt.isImageFormat() and fmt.property(MATH_SOURCE):
                    out.append(
                        (
                            fmt.property(MATH_SOURCE),
                            fmt.toImageFormat(),
                            block.blockFormat().alignment(),
                        )
                    )
                it += 1
            block = block.next()
    return out


def _wait_typeset(qtbot: QtBot, view: ChatView, count: int) -> None:
    def done() -> bool:
        math_renderer().wait_for_done()
        settle(view)
        return len(_formulas(view)) >= count

    qtbot.waitUntil(done, timeout=20_000)


def test_a_reply_shows_inline_and_display_math(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    text = "Solve $x^2 = 4$ for $5 and $10.\n\n$$\\int_0^1 x\\,dx = \\frac{1}{2}$$\n"
    conversation.upsert(_reply(text), last=True)
    _wait_typeset(qtbot, chat_view, 2)
    formulas = _formulas(chat_view)
    assert [source for source, _, _ in formulas] == [
        "$x^2 = 4$",
        "$$\\int_0^1 x\\,dx = \\frac{1}{2}$$",
    ]
    (_, inline, inline_align), (_, display, display_align) = formulas
    assert inline.verticalAlignment() == QTextImageFormat.VerticalAlignment.AlignMiddle
    assert not inline_align & Qt.AlignmentFlag.AlignHCenter
    assert display_align & Qt.AlignmentFlag.AlignHCenter
    assert display.height() > inline.height()
    shown = "\n".join(doc.toPlainText() for doc in _documents(chat_view))
    assert "for $5 and $10." in shown  # money stays text


def test_a_streamed_display_formula_shows_as_text_until_it_closes(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    block = {"type": "text", "text": "Sum: $$\\sum_{k=1}^{n} k"}
    msg = Msg("Friday", [block], "assistant")
    conversation.upsert(msg, last=False)
    math_renderer().wait_for_done()
    settle(chat_view)
    for view in message_row(chat_view, 0).findChildren(DocumentView):
        view.parentWidget().render_now()  # type: ignore[attr-defined]
    settle(chat_view)
    assert _formulas(chat_view) == []
    assert "$$\\sum_{k=1}^{n} k" in "".join(d.toPlainText() for d in _documents(chat_view))
    block["text"] += " = \\frac{n(n+1)}{2}$$ done."
    conversation.upsert(msg, last=True)
    _wait_typeset(qtbot, chat_view, 1)
    assert _formulas(chat_view)[0][0] == "$$\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}$$"


def test_copying_a_selection_gives_the_latex_source(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.upsert(_reply("Area $\\pi r^2$ of a circle."), last=True)
    _wait_typeset(qtbot, chat_view, 1)
    view = message_row(chat_view, 0).findChildren(DocumentView)[0]
    view.selectAll()
    assert view.createMimeDataFromSelection().text() == "Area $\\pi r^2$ of a circle."
