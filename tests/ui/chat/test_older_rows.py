"""The chat pane when a long session's older rows are put in front of its last ones
(``Conversation.prepend``): at the end it stays at the end; scrolled up, the rows the user
reads stay where they are; the rows put in front are scrolled to and shown."""

from __future__ import annotations

from test_big_chat import _messages, _visible, settle

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView

COUNT = 3_000
SHOWN_FIRST = 200


def _open_last_rows(view: ChatView, conversation: Conversation) -> list[Msg]:
    messages = _messages(COUNT)
    last = Conversation()
    last.extend_unobserved(messages[-SHOWN_FIRST:])
    conversation.adopt(last, older_pending=True)
    settle(view)
    return messages


def _older(messages: list[Msg]) -> Conversation:
    built = Conversation()
    built.extend_unobserved(messages[:-SHOWN_FIRST])
    return built


def test_at_the_end_the_view_stays_at_the_end(
    chat_view: ChatView, conversation: Conversation
) -> None:
    messages = _open_last_rows(chat_view, conversation)
    assert chat_view.list.is_at_bottom() and _visible(chat_view, SHOWN_FIRST - 1)

    conversation.prepend(_older(messages))
    settle(chat_view)

    assert chat_view.model.rowCount() == COUNT
    assert chat_view.list.is_at_bottom() and _visible(chat_view, COUNT - 1)
    assert len(chat_view.list.live_rows()) < 40


def test_scrolled_up_the_rows_read_stay_put(
    chat_view: ChatView, conversation: Conversation
) -> None:
    messages = _open_last_rows(chat_view, conversation)
    chat_view.list.scroll_to_row(50)
    settle(chat_view)
    read = chat_view.list.row_widget(50)
    assert read is not None and _visible(chat_view, 50)
    y = read.y()

    conversation.prepend(_older(messages))
    settle(chat_view)

    moved = COUNT - SHOWN_FIRST + 50
    assert chat_view.list.row_widget(moved) is read
    assert read.y() == y and _visible(chat_view, moved)
    assert not chat_view.list.is_at_bottom()


def test_the_rows_put_in_front_can_be_scrolled_to(
    chat_view: ChatView, conversation: Conversation
) -> None:
    messages = _open_last_rows(chat_view, conversation)
    conversation.prepend(_older(messages))
    settle(chat_view)
    chat_view.list.scroll_to_row(0)
    settle(chat_view)
    assert _visible(chat_view, 0)
    first = chat_view.list.row_widget(0)
    assert first is not None and first.key == messages[0].id
