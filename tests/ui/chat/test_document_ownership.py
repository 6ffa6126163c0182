"""Rendered documents are owned once: views drop a document when they show another, so the
number of live ``QTextDocument``\\ s stays bounded over many turns and scroll passes."""

from __future__ import annotations

import gc

from _chat_helpers import settle
from PySide6.QtGui import QTextDocument
from shiboken6 import isValid

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView

REPLY = "A paragraph of **Markdown** with `code`.\n\n" * 12


def live_documents() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, QTextDocument) and isValid(o))


def stream_turn(view: ChatView, conversation: Conversation, number: int) -> None:
    conversation.upsert(Msg("User", f"Question {number}", "user"), last=True)
    reply = Msg("Friday", "", "assistant")
    for end in range(40, len(REPLY) + 40, 40):
        reply.content = [{"type": "text", "text": REPLY[:end]}]
        conversation.upsert(reply, last=False)
        view.flush()
        for block in view.list.live_rows().values():
            for widget in getattr(block, "block_widgets", lambda _kind: [])("text"):
                getattr(widget, "render_now", lambda: None)()
    conversation.upsert(reply, last=True)
    settle(view)


def test_live_documents_stay_bounded_over_many_turns(
    chat_view: ChatView, conversation: Conversation
) -> None:
    chat_view.context.text_cache._capacity = 16  # renders beyond it are evicted
    for number in range(8):
        stream_turn(chat_view, conversation, number)
    after_8 = live_documents()
    for number in range(8, 30):
        stream_turn(chat_view, conversation, number)
    after_30 = live_documents()
    assert after_30 - after_8 <= 20, (after_8, after_30)


def test_live_documents_stay_bounded_while_scrolling(
    chat_view: ChatView, conversation: Conversation
) -> None:
    messages = []
    for number in range(200):
        messages.append(Msg("User", f"Question {number}", "user"))
        messages.append(Msg("Friday", f"Answer {number}\n\n" + REPLY[:200], "assistant"))
    chat_view.context.text_cache._capacity = 16
    conversation.reset(messages)
    settle(chat_view)
    bar = chat_view.list.verticalScrollBar()

    def scroll_pass() -> None:
        for value in range(bar.maximum(), -1, -max(1, chat_view.list.viewport().height())):
            bar.setValue(value)
            settle(chat_view)

    scroll_pass()
    after_one = live_documents()
    scroll_pass()
    assert live_documents() - after_one <= 20, (after_one, live_documents())
