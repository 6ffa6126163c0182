"""Streaming by reference: coalesced updates, incremental rendering, virtualized history."""

from __future__ import annotations

from _chat_helpers import message_row, settle
from PySide6.QtCore import QModelIndex
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import (
    ENTRY_ROLE,
    RENDER_STATS,
    ChatView,
    ConversationModel,
    StreamCoalescer,
)
from desktop_agent.ui.chat._text_views import MarkdownView

SECTION = """## Part {i}

Paragraph {i} explains **something** with `code` and a [link](https://example.com/{i}).

- point one of {i}
- point two

| key | value |
|-----|-------|
| k{i} | {i} |

```python
def f_{i}(x):
    return x * {i}
```

"""


def _answer(sections: int = 12) -> str:
    return "".join(SECTION.format(i=i) for i in range(sections))


def _tokens(text: str) -> list[str]:
    return [text[i : i + 7] for i in range(0, len(text), 7)]


def _docs_html(markdown: MarkdownView) -> list[str]:
    return [view.document().toHtml() for view in markdown.documents()]


def test_streamed_rendering_equals_a_fresh_render(qtbot: QtBot) -> None:
    text = _answer()
    streamed_conversation, fresh_conversation = Conversation(), Conversation()
    streamed, fresh = ChatView(streamed_conversation), ChatView(fresh_conversation)
    for view in (streamed, fresh):
        qtbot.addWidget(view)
        view.resize(800, 600)
        view.show()
    block = {"type": "text", "text": ""}
    msg = Msg("Friday", [block], "assistant")
    for i, token in enumerate(_tokens(text)):
        block["text"] += token  # a new cumulative string each chunk, same Msg object
        streamed_conversation.upsert(msg, last=False)
        if i % 9 == 0:
            settle(streamed)
    streamed_conversation.upsert(msg, last=True)
    settle(streamed)
    streamed_renders = RENDER_STATS.full_renders

    fresh_conversation.reset([Msg("Friday", [{"type": "text", "text": text}], "assistant")])
    settle(fresh)

    live = message_row(streamed, 0).block_widgets("text")[0]
    loaded = message_row(fresh, 0).block_widgets("text")[0]
    assert live.plain_text() == loaded.plain_text()
    assert _docs_html(live) == _docs_html(loaded)
    assert streamed_renders == 1, "the streamed text was never rendered from scratch again"


def test_rendering_work_stays_linear_in_the_reply_length(
    chat_view: ChatView, conversation: Conversation
) -> None:
    text = _answer(30)
    block = {"type": "text", "text": ""}
    msg = Msg("Friday", [block], "assistant")
    flushes = 0
    for i, token in enumerate(_tokens(text)):
        block["text"] += token
        conversation.upsert(msg, last=False)
        if i % 5 == 0:
            settle(chat_view)
            flushes += 1
    conversation.upsert(msg, last=True)
    settle(chat_view)

    assert RENDER_STATS.full_renders == 1
    # Complete units are rendered once; each flush re-renders at most a chunk (< 1 KB)
    # plus the unfinished tail — never the whole reply.
    assert RENDER_STATS.chars_rendered < 2 * len(text) + flushes * 1500
    assert RENDER_STATS.chars_rendered < flushes * len(text) / 20


def test_chunks_are_coalesced_into_few_model_updates(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    changes: list[int] = []
    chat_view.model.dataChanged.connect(lambda top, _bottom, _roles: changes.append(top.row()))
    msg = Msg("Friday", [{"type": "text", "text": ""}], "assistant")
    conversation.upsert(msg, last=False)
    for i in range(2000):
        msg.content = [{"type": "text", "text": "word " * i}]
        conversation.upsert(msg, last=False)
    assert changes == []  # nothing until the coalescing timer fires
    qtbot.waitUntil(lambda: changes == [0])
    assert chat_view.model.coalescer.flush_count == 1
    assert "word word" in message_row(chat_view, 0).block_widgets("text")[0].plain_text()


def test_ten_thousand_messages_materialize_only_visible_rows(
    chat_view: ChatView, conversation: Conversation
) -> None:
    msgs = []
    for i in range(10_000):
        if i % 2:
            msgs.append(Msg("Friday", [{"type": "text", "text": SECTION.format(i=i)}], "assistant"))
        else:
            msgs.append(Msg("user", f"Question {i}?", "user"))
    conversation.reset(msgs)
    settle(chat_view)

    live = chat_view.list.live_rows()
    assert 1 <= len(live) <= 30
    assert RENDER_STATS.full_renders <= 30
    assert msgs[-1].id in live, "a conversation opens at its end"
    assert chat_view.list.is_at_bottom()

    chat_view.list.scroll_to_row(0)
    settle(chat_view)
    live = chat_view.list.live_rows()
    assert msgs[0].id in live
    assert len(live) <= 30
    assert chat_view.list.rows_created <= 60


def test_view_follows_the_stream_only_when_at_the_bottom(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.reset([Msg("user", f"message {i}\n" * 3, "user") for i in range(60)])
    settle(chat_view)
    bar = chat_view.list.verticalScrollBar()
    assert bar.value() == bar.maximum() > 0

    block = {"type": "text", "text": ""}
    msg = Msg("Friday", [block], "assistant")
    for i in range(40):
        block["text"] += f"Line {i} of a growing answer.\n\n"
        conversation.upsert(msg, last=False)
        settle(chat_view)
        assert bar.value() == bar.maximum(), "stuck to the bottom while at the bottom"

    bar.setValue(bar.maximum() // 3)  # the user scrolls up to read
    settle(chat_view)
    assert not chat_view.list.is_at_bottom()
    first_visible = chat_view.list.live_rows()
    value = bar.value()
    for i in range(20):
        block["text"] += f"More {i}.\n\n"
        conversation.upsert(msg, last=False)
        settle(chat_view)
    assert bar.value() == value, "the rows the user reads stay put"
    assert set(first_visible) & set(chat_view.list.live_rows())


def test_model_adapter_exposes_entries(chat_view: ChatView, conversation: Conversation) -> None:
    model = chat_view.model
    assert isinstance(model, ConversationModel)
    msg = Msg("user", "hello", "user")
    conversation.upsert(msg, last=True)
    conversation.add_error("boom", retryable=False)
    assert model.rowCount() == 2
    assert model.rowCount(model.index(0)) == 0
    assert model.data(model.index(0), ENTRY_ROLE).msg is msg
    assert model.data(model.index(0)) == "user: hello"
    assert model.data(model.index(1)) == "Error: boom"
    assert model.data(QModelIndex()) is None
    conversation.remove_errors()
    assert model.rowCount() == 1


def test_coalescer_emits_each_key_once_per_flush(qtbot: QtBot) -> None:
    coalescer = StreamCoalescer(interval_ms=20)
    flushed: list[list[str]] = []
    coalescer.flushed.connect(flushed.append)
    for _ in range(500):
        coalescer.mark("a")
        coalescer.mark("b")
    assert coalescer.pending
    with qtbot.waitSignal(coalescer.flushed):
        pass
    assert flushed == [["a", "b"]]
    coalescer.mark("c")
    coalescer.discard()
    qtbot.wait(40)
    assert flushed == [["a", "b"]]
