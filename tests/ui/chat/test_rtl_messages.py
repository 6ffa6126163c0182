"""Right-to-left messages (Arabic, Hebrew) align to the right inside their bubble, and
left-to-right ones to the left — in a left-to-right window and in a mirrored (Arabic) one
(issue 21)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from _chat_helpers import message_row
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._document_view import DocumentView

ARABIC = "مرحبا، كيف حالك اليوم؟"
HEBREW = "שלום, מה שלומך היום? זו הודעה בעברית."
ENGLISH = "Hello there, in English."


@pytest.fixture(params=["ltr", "rtl"])
def window_direction(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    """The application's layout direction, as an English or an Arabic desktop sets it."""
    rtl = request.param == "rtl"
    qapp.setLayoutDirection(
        Qt.LayoutDirection.RightToLeft if rtl else Qt.LayoutDirection.LeftToRight
    )
    yield request.param
    qapp.setLayoutDirection(Qt.LayoutDirection.LeftToRight)


def _text_edges(view: ChatView, index: int) -> tuple[float, float, float]:
    """(left, right) of the message's first text line, and the width it may take."""
    (markdown,) = message_row(view, index).block_widgets("text")
    (document_view,) = markdown.findChildren(DocumentView)
    document = document_view.document()
    line = document.firstBlock().layout().lineAt(0)
    rect = line.naturalTextRect()
    return rect.left(), rect.right(), document.textWidth()


def test_each_message_aligns_by_its_own_script(
    window_direction: str, chat_view: ChatView, conversation: Conversation
) -> None:
    view = chat_view
    conversation.reset(
        [
            Msg("User", ARABIC, "user"),
            Msg("Assistant", HEBREW, "assistant"),
            Msg("User", ENGLISH, "user"),
            Msg("Assistant", ENGLISH, "assistant"),
        ]
    )
    for index in (0, 1):  # right-to-left text: flush right
        left, right, width = _text_edges(view, index)
        assert right == pytest.approx(width, abs=2) and left > 2, (window_direction, index)
    for index in (2, 3):  # left-to-right text: flush left
        left, right, width = _text_edges(view, index)
        assert left == pytest.approx(0, abs=2) and right < width - 2, (window_direction, index)


def test_the_users_bubbles_sit_on_the_reading_side_end(
    window_direction: str, chat_view: ChatView, conversation: Conversation
) -> None:
    """Right in a left-to-right window, left in a mirrored one (as chat apps do in Arabic)."""
    conversation.reset([Msg("User", ENGLISH, "user"), Msg("Assistant", ARABIC, "assistant")])
    user, answer = message_row(chat_view, 0), message_row(chat_view, 1)
    assert user.bubble.width() < user.width()
    if window_direction == "rtl":
        assert user.bubble.x() == 0
    else:
        assert user.bubble.geometry().right() == user.width() - 1
    assert answer.bubble.x() == 0 and answer.bubble.width() == answer.width()
