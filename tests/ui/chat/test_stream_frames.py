"""A streaming reply's frames: the stream yields to a due frame, and a frame shows new
documents in views made ahead of it."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from _chat_helpers import message_row, settle
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from desktop_agent._utils import _pacing
from desktop_agent._utils._pacing import release_stream, turn_due
from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView, _text_views
from desktop_agent.ui.chat._document_view import DocumentView
from desktop_agent.ui.chat._message_widget import MessageRow
from desktop_agent.ui.chat._text_views import MarkdownView

SECTION = (
    "## Part {i}\n\nParagraph {i} says **something** with `code` in it.\n\n"
    "- point one of {i}\n- point two\n\n```python\ndef f_{i}(x):\n    return x * {i}\n```\n\n"
)


_LONG = 60.0
"""A pacing interval no test reaches: only a hold makes a turn due."""


@pytest.fixture(autouse=True)
def _fresh_clock() -> Iterator[None]:
    release_stream()
    _pacing.LOOP_TURN.at = time.perf_counter()
    yield
    release_stream()


def test_a_due_frame_holds_the_stream_until_it_runs(
    chat_view: ChatView, conversation: Conversation
) -> None:
    reply = Msg("Friday", "Hello", "assistant")
    conversation.upsert(reply, last=False)
    settle(chat_view)
    reply.content = "Hello there"
    conversation.upsert(reply, last=False)
    chat_view.model.coalescer.flush()  # the frame is due: the stream yields at every check
    assert turn_due(_LONG)
    chat_view.list.relayout()  # the frame runs: the stream works at its pace again
    assert not turn_due(_LONG)


class _CountedView(DocumentView):
    """A document view that notes whether it was made while a frame showed documents."""

    made_in_update = 0
    made = 0

    def __init__(self, parent: QWidget | None = None, width_hint: int = 0) -> None:
        super().__init__(parent, width_hint)
        _CountedView.made += 1
        if _Updating.active:
            _CountedView.made_in_update += 1


class _Updating:
    active = False


def test_a_streaming_block_shows_new_documents_in_views_made_ahead(
    chat_view: ChatView, conversation: Conversation, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_text_views, "DocumentView", _CountedView)
    sync = MarkdownView._sync

    def counted_sync(self: MarkdownView, *args: object) -> None:
        _Updating.active = True
        try:
            sync(self, *args)  # type: ignore[arg-type]
        finally:
            _Updating.active = False

    monkeypatch.setattr(MarkdownView, "_sync", counted_sync)
    reply = Msg("Friday", "", "assistant")
    text = ""
    for i in range(30):
        text += SECTION.format(i=i)
        reply.content = text
        conversation.upsert(reply, last=False)
        settle(chat_view)
        if i == 0:
            first = _CountedView.made_in_update
        for _ in range(5):  # the frames after: spare views are made, one per event
            QCoreApplication.processEvents()
    block = message_row(chat_view, 0).block_widgets("text")[0]
    assert isinstance(block, MarkdownView)
    assert len(block.documents()) > 4
    assert _CountedView.made_in_update == first  # later frames took views made ahead
    assert block.plain_text().count("Paragraph") == 30


def test_a_new_streaming_reply_shows_its_first_text_in_the_next_frame(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.upsert(Msg("Friday", SECTION.format(i=0), "assistant"), last=False)
    chat_view.model.coalescer.flush()
    chat_view.list.relayout()  # the frame that makes the row: its text waits a frame
    row = chat_view.list.row_widget(0)
    assert isinstance(row, MessageRow)
    block = row.block_widgets("text")[0]
    assert isinstance(block, MarkdownView)
    assert block.documents() == [] and block.pending
    chat_view.list.relayout()  # the next frame renders it
    assert "Paragraph 0" in block.plain_text()
    assert block.documents()


def test_a_finished_reply_shows_its_text_in_the_frame_that_makes_its_row(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.upsert(Msg("Friday", SECTION.format(i=0), "assistant"), last=True)
    chat_view.model.coalescer.flush()
    chat_view.list.relayout()
    row = chat_view.list.row_widget(0)
    assert isinstance(row, MessageRow)
    block = row.block_widgets("text")[0]
    assert isinstance(block, MarkdownView)
    assert block.documents()
