"""At small sizes nothing is clipped: sidebar buttons, table headers, long code lines."""

from __future__ import annotations

from PySide6.QtGui import QTextDocument
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._doc_style import MARKDOWN_FEATURES, DocumentStyler
from desktop_agent.ui.chat._theme import LIGHT
from desktop_agent.ui.window import MainWindow


def test_sidebar_buttons_are_never_clipped_at_the_minimum_width(qtbot: QtBot) -> None:
    window = MainWindow(ChatView(Conversation()))
    qtbot.addWidget(window)
    window.show()
    window.resize(window.minimumSizeHint().width(), 500)
    window.splitter.setSizes([0, 10_000])  # the user drags the sidebar as narrow as it goes
    qtbot.wait(1)
    sidebar = window.sidebar
    for button in (sidebar.trash_button, sidebar.template_button, sidebar.settings_button):
        assert button.width() >= button.sizeHint().width(), button.text()


def _header_lines(width: int) -> list[int]:
    doc = QTextDocument()
    doc.setMarkdown(
        "| Column 0 | Column 1 | Column 2 | Column 3 | Column 4 |\n|---|---|---|---|---|\n"
        "| a | b | c | d | e |\n",
        MARKDOWN_FEATURES,
    )
    DocumentStyler(LIGHT).style(doc)
    doc.setTextWidth(width)
    doc.size()
    lines = []
    block = doc.begin()
    while block.isValid():
        if block.text().startswith("Column"):
            lines.append(block.layout().lineCount())
        block = block.next()
    return lines


def test_table_headers_do_not_break_inside_a_word(qtbot: QtBot) -> None:
    assert _header_lines(260) == [1, 1, 1, 1, 1]


def test_wrapped_code_lines_hang_further_in(qtbot: QtBot) -> None:
    doc = QTextDocument()
    doc.setMarkdown("```python\n" + "x = 1  # " + "long " * 60 + "\n```\n", MARKDOWN_FEATURES)
    DocumentStyler(LIGHT).style(doc)
    doc.setTextWidth(300)
    doc.size()
    block = doc.begin()
    while block.isValid() and not block.text().startswith("x = 1"):
        block = block.next()
    assert block.isValid()
    layout = block.layout()
    assert layout.lineCount() > 1
    first, second = layout.lineAt(0), layout.lineAt(1)
    assert second.x() > first.x()  # a continuation, visibly
