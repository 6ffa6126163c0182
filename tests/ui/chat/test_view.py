"""The pane as a whole: message chrome, error bubbles with Retry, roles, theme."""

from __future__ import annotations

from _chat_helpers import message_row, png_base64, row, settle
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._media_views import ImageView
from desktop_agent.ui.chat._message_widget import ErrorRow


def test_copy_button_copies_the_message_text(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    QGuiApplication.clipboard().setText("")
    content = [
        {"type": "thinking", "thinking": "hidden reasoning"},
        {"type": "text", "text": "First **part**."},
        {"type": "text", "text": "Second part."},
    ]
    conversation.upsert(Msg("Friday", content, "assistant"), last=True)
    button = message_row(chat_view, 0).copy_button
    assert button is not None and button.isVisible()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == "First **part**.\nSecond part."
    assert button.text() == "Copied"


def test_timestamp_and_sender_in_the_tooltip(
    chat_view: ChatView, conversation: Conversation
) -> None:
    msg = Msg("Friday", "hi", "assistant", timestamp="2025-09-01 12:34:56.789")
    conversation.upsert(msg, last=True)
    widget = message_row(chat_view, 0)
    assert widget.bubble.toolTip() == "Friday · 2025-09-01 12:34:56.789"
    assert widget.name_label is not None and widget.name_label.text() == "Friday"


def test_roles_are_styled_apart(chat_view: ChatView, conversation: Conversation) -> None:
    result = {"type": "tool_result", "id": "c", "name": "t", "output": "ok"}
    conversation.reset(
        [
            Msg("user", "question", "user"),
            Msg("Friday", "answer", "assistant"),
            Msg("system", [result], "system"),
        ]
    )
    settle(chat_view)
    roles = [message_row(chat_view, i).role for i in range(3)]
    assert roles == ["user", "assistant", "tool"]
    assert [message_row(chat_view, i).bubble.property("role") for i in range(3)] == roles
    user, assistant = message_row(chat_view, 0), message_row(chat_view, 1)
    assert user.bubble.geometry().right() == user.width() - 1, "user bubbles sit right"
    assert user.bubble.width() < assistant.bubble.width(), "and shrink to their text"


def test_user_attachments_are_shown(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    image = {"type": "base64", "media_type": "image/png", "data": png_base64(50, 40)}
    content = [{"type": "text", "text": "What is this?"}, {"type": "image", "source": image}]
    conversation.upsert(Msg("user", content, "user"), last=True)
    widget = message_row(chat_view, 0)
    [view] = widget.block_widgets("image")
    assert isinstance(view, ImageView)
    qtbot.waitUntil(lambda: view.state == "image")
    settle(chat_view)
    assert widget.bubble.width() >= 50


def test_error_bubble_with_retry(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.upsert(Msg("user", "hello", "user"), last=True)
    conversation.add_error("The server is unreachable (connection refused).", retryable=True)
    error = row(chat_view, 1)
    assert isinstance(error, ErrorRow)
    assert error.text_label.text() == "The server is unreachable (connection refused)."
    assert error.retry_button.isVisible()
    with qtbot.waitSignal(chat_view.retry_requested, timeout=1000):
        qtbot.mouseClick(error.retry_button, Qt.MouseButton.LeftButton)

    conversation.remove_errors()
    settle(chat_view)
    assert len(chat_view.list.live_rows()) == 1


def test_a_non_retryable_error_has_no_retry(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.add_error("Invalid API key.", retryable=False)
    error = row(chat_view, 0)
    assert isinstance(error, ErrorRow)
    assert not error.retry_button.isVisible()


def test_an_interrupted_reply_is_marked(chat_view: ChatView, conversation: Conversation) -> None:
    msg = Msg(
        "Friday",
        "I noticed that you have interrupted me. What can I do for you?",
        "assistant",
        metadata={"_is_interrupted": True},
    )
    conversation.upsert(msg, last=True)
    widget = message_row(chat_view, 0)
    assert widget.bubble.property("interrupted") == "true"
    assert "interrupted" in [
        label.text() for label in widget.bubble.findChildren(type(widget.name_label))
    ]


def test_an_empty_streaming_reply_shows_a_waiting_mark(
    chat_view: ChatView, conversation: Conversation
) -> None:
    msg = Msg("Friday", [], "assistant")
    conversation.upsert(msg, last=False)
    assert message_row(chat_view, 0).waiting.isVisible()
    msg.content = [{"type": "text", "text": "Hi"}]
    conversation.upsert(msg, last=True)
    settle(chat_view)
    assert not message_row(chat_view, 0).waiting.isVisible()


def test_theme_switch_keeps_rows(chat_view: ChatView, conversation: Conversation) -> None:
    conversation.reset([Msg("user", f"m{i}", "user") for i in range(5)])
    settle(chat_view)
    before = set(chat_view.list.live_rows())
    chat_view.set_theme(True)
    settle(chat_view)
    assert set(chat_view.list.live_rows()) == before
    assert "#1e2025" in chat_view.styleSheet()
    chat_view.set_theme(False)
    assert "#f6f7f9" in chat_view.styleSheet()


def test_an_idle_user_row_posts_no_endless_layout_requests(
    chat_view: ChatView, conversation: Conversation
) -> None:
    """Measuring a user bubble must not invalidate its own layout (a LayoutRequest loop
    once kept a 10,000-message chat at 100 % CPU while idle)."""
    conversation.upsert(Msg("user", "hello there", "user"), last=True)
    settle(chat_view)
    user_row = message_row(chat_view, 0)
    requests: list[int] = []
    original = user_row.eventFilter

    def counting(watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            requests.append(1)
        return original(watched, event)

    user_row.bubble.removeEventFilter(user_row)
    user_row.eventFilter = counting  # type: ignore[method-assign]
    user_row.bubble.installEventFilter(user_row)
    for _ in range(20):
        QApplication.processEvents()
    assert len(requests) <= 2
