"""What a user sees of text blocks: Markdown, code blocks with Copy, thinking."""

from __future__ import annotations

from _chat_helpers import message_row, settle
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QGuiApplication, QTextCursor, QTextDocument, QTextTable
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._document_view import DocumentView
from desktop_agent.ui.chat._text_views import MarkdownView, ThinkingView

MARKDOWN = """## Results

Some **bold** text, *emphasis*, `inline code` and a [link](https://example.com/docs).

1. first
2. second

| Model | Score |
|-------|------:|
| small | 0.91 |

```python
def add(a, b):
    return a + b  # sum
```

Done."""
CODE = "def add(a, b):\n    return a + b  # sum"


def _text_view(view: ChatView, index: int, block: int = 0) -> MarkdownView:
    widget = message_row(view, index).block_widgets("text")[block]
    assert isinstance(widget, MarkdownView)
    return widget


def _documents(markdown: MarkdownView) -> list[QTextDocument]:
    return [v.document() for v in markdown.documents()]


def _tables(doc: QTextDocument) -> list[QTextTable]:
    return [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]


def _anchor_position(doc: QTextDocument, href: str) -> int:
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref() == href:
                return fragment.position()
            it += 1
        block = block.next()
    raise AssertionError(f"no anchor {href!r}")


def _click_anchor(qtbot: QtBot, doc_view: DocumentView, href: str) -> None:
    cursor = QTextCursor(doc_view.document())
    cursor.setPosition(_anchor_position(doc_view.document(), href) + 1)
    point = doc_view.cursorRect(cursor).center() - QPoint(2, 0)
    qtbot.mouseClick(doc_view.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_markdown_is_rendered_without_markup(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.upsert(Msg("Friday", [{"type": "text", "text": MARKDOWN}], "assistant"), True)
    markdown = _text_view(chat_view, 0)
    text = markdown.plain_text()

    for visible in ("Results", "bold", "emphasis", "inline code", "link", "first", "small"):
        assert visible in text
    for markup in ("##", "**", "`", "](", "|---"):
        assert markup not in text
    docs = _documents(markdown)
    assert any(_tables(doc) for doc in docs), "the Markdown table is a real table"
    hrefs = [href for doc in docs for href in _anchors(doc)]
    assert "https://example.com/docs" in hrefs


def _blocks(doc: QTextDocument) -> list:
    out, block = [], doc.begin()
    while block.isValid():
        out.append(block)
        block = block.next()
    return out


def _anchors(doc: QTextDocument) -> list[str]:
    hrefs = []
    for block in _blocks(doc):
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isAnchor():
                hrefs.append(fmt.anchorHref())
            it += 1
    return hrefs


def _code_colors(doc: QTextDocument, code_line: str) -> set[str]:
    colors = set()
    for block in _blocks(doc):
        if block.text() == code_line:
            it = block.begin()
            while not it.atEnd():
                colors.add(it.fragment().charFormat().foreground().color().name())
                it += 1
    return colors


def test_fenced_code_is_highlighted(chat_view: ChatView, conversation: Conversation) -> None:
    conversation.upsert(Msg("Friday", [{"type": "text", "text": MARKDOWN}], "assistant"), True)
    docs = _documents(_text_view(chat_view, 0))
    colors = set().union(*(_code_colors(doc, "def add(a, b):") for doc in docs))
    assert len(colors) >= 2, f"keyword and name differ in colour, got {colors}"


def test_code_block_copy_link_copies_exactly_the_code(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    QGuiApplication.clipboard().setText("")
    conversation.upsert(Msg("Friday", [{"type": "text", "text": MARKDOWN}], "assistant"), True)
    markdown = _text_view(chat_view, 0)
    doc_view = next(v for v in markdown.documents() if "Copy" in v.document().toPlainText())

    _click_anchor(qtbot, doc_view, "copy:0")

    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text() == CODE)


def test_markdown_images_are_not_loaded(chat_view: ChatView, conversation: Conversation) -> None:
    text = "See ![a chart](https://example.com/chart.png) here."
    conversation.upsert(Msg("Friday", [{"type": "text", "text": text}], "assistant"), True)
    shown = _text_view(chat_view, 0).plain_text()
    assert "a chart — Load image from example.com" in shown  # a placeholder, not fetched
    assert chat_view.context.images.network_requests == 0


def test_user_text_is_shown_as_typed(chat_view: ChatView, conversation: Conversation) -> None:
    typed = "first line\nsecond **line**"
    conversation.upsert(Msg("user", typed, "user"), True)
    assert _text_view(chat_view, 0).plain_text() == typed


def _thinking(view: ChatView, index: int) -> ThinkingView:
    widget = message_row(view, index).block_widgets("thinking")[0]
    assert isinstance(widget, ThinkingView)
    return widget


def test_thinking_expanded_while_streaming_then_collapsed_when_answer_starts(
    chat_view: ChatView, conversation: Conversation
) -> None:
    thinking = {"type": "thinking", "thinking": "Let me think"}
    msg = Msg("Friday", [thinking], "assistant")
    conversation.upsert(msg, last=False)
    view = _thinking(chat_view, 0)
    assert view.expanded
    assert view.body.isVisible()
    assert "Let me think" in view.body.plain_text()

    msg.content = [{"type": "thinking", "thinking": "Let me think harder"}, {"type": "text"}]
    conversation.upsert(msg, last=False)
    settle(chat_view)
    assert _thinking(chat_view, 0).expanded, "an empty answer block has not started yet"

    msg.content = [msg.content[0], {"type": "text", "text": "The answer"}]
    conversation.upsert(msg, last=False)
    settle(chat_view)
    view = _thinking(chat_view, 0)
    assert not view.expanded
    assert not view.body.isVisible()


def test_thinking_collapses_when_the_message_ends_and_toggles_on_click(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    msg = Msg("Friday", [{"type": "thinking", "thinking": "Only thoughts"}], "assistant")
    conversation.upsert(msg, last=False)
    assert _thinking(chat_view, 0).expanded
    conversation.upsert(msg, last=True)
    settle(chat_view)
    view = _thinking(chat_view, 0)
    assert not view.expanded

    qtbot.mouseClick(view.toggle, Qt.MouseButton.LeftButton)
    assert view.expanded
    assert view.body.isVisible()
    settle(chat_view)
    chat_view.list.rebuild_rows()  # the row is rebuilt (e.g. scrolled away and back)
    assert _thinking(chat_view, 0).expanded, "the user's choice is remembered"

    qtbot.mouseClick(_thinking(chat_view, 0).toggle, Qt.MouseButton.LeftButton)
    assert not _thinking(chat_view, 0).expanded


def test_dark_theme_changes_colours(chat_view: ChatView, conversation: Conversation) -> None:
    conversation.upsert(Msg("Friday", [{"type": "text", "text": MARKDOWN}], "assistant"), True)
    light = set().union(
        *(_code_colors(d, "def add(a, b):") for d in _documents(_text_view(chat_view, 0)))
    )
    chat_view.set_theme(True)
    assert chat_view.dark
    dark = set().union(
        *(_code_colors(d, "def add(a, b):") for d in _documents(_text_view(chat_view, 0)))
    )
    assert dark != light
    background = chat_view.list.viewport().palette().window().color()
    assert background.lightness() < QColor("#808080").lightness()
