"""A huge text block renders only its start, with "Show more" and "Save to file…" for the
rest; streaming more of it changes nothing that is drawn."""

from __future__ import annotations

import gc
import types
from pathlib import Path

import pytest
from _chat_helpers import message_row, settle

from desktop_agent.app import Conversation, ConversationEntry
from desktop_agent.message import Msg
from desktop_agent.ui.chat import RENDER_STATS, ChatView
from desktop_agent.ui.chat._capped_text import RENDER_CAP_CHARS, SHOW_MORE_FACTOR
from desktop_agent.ui.chat._text_views import MarkdownView

LINE = "A line of the log with **bold** and `code` in it, numbered {i}.\n"


def huge(chars: int) -> str:
    text = "".join(LINE.format(i=i) for i in range(chars // len(LINE) + 1))
    return text[:chars]


def _text_view(view: ChatView) -> MarkdownView:
    widget = message_row(view, 0).block_widgets("text")[0]
    assert isinstance(widget, MarkdownView)
    return widget


def test_a_huge_reply_renders_only_its_start(
    chat_view: ChatView, conversation: Conversation
) -> None:
    text = huge(3 * 1024 * 1024)
    conversation.upsert(Msg("Friday", text, "assistant"), last=True)
    settle(chat_view)
    block = _text_view(chat_view)
    block.render_now()
    assert block.is_capped
    assert RENDER_CAP_CHARS // 2 <= block.rendered_chars <= RENDER_CAP_CHARS
    assert len(block.plain_text()) <= RENDER_CAP_CHARS
    assert block.cap_bar is not None and block.cap_bar.isVisible()
    assert block.cap_bar.label.text() == "Showing the first 32 KB of 3.0 MB."
    assert RENDER_STATS.chars_rendered <= 2 * RENDER_CAP_CHARS


def test_streaming_past_the_cap_renders_nothing_more(
    chat_view: ChatView, conversation: Conversation
) -> None:
    text = huge(2 * RENDER_CAP_CHARS + 50_000)
    reply = Msg("Friday", "", "assistant")
    for end in range(0, len(text), 8192):
        reply.content = [{"type": "text", "text": text[: end + 8192]}]
        conversation.upsert(reply, last=False)
        chat_view.flush()
    block = _text_view(chat_view)
    block.render_now()
    rendered = RENDER_STATS.chars_rendered
    for extra in range(5):
        reply.content = [{"type": "text", "text": text + LINE.format(i=extra) * 1000}]
        conversation.upsert(reply, last=False)
        chat_view.flush()
        block.render_now()
    assert RENDER_STATS.chars_rendered == rendered
    assert block.is_capped


def test_show_more_renders_more(chat_view: ChatView, conversation: Conversation) -> None:
    text = huge(RENDER_CAP_CHARS * (SHOW_MORE_FACTOR + 2))
    conversation.upsert(Msg("Friday", text, "assistant"), last=True)
    settle(chat_view)
    block = _text_view(chat_view)
    before = block.rendered_chars
    assert block.cap_bar is not None
    block.cap_bar.more_button.click()
    block.render_now()
    settle(chat_view)
    assert block.rendered_chars > (SHOW_MORE_FACTOR - 1) * before
    assert block.is_capped
    block.cap_bar.more_button.click()
    block.render_now()
    assert not block.is_capped
    assert not block.cap_bar.isVisible()


def test_save_to_file_writes_the_whole_text(
    chat_view: ChatView, conversation: Conversation, tmp_path: Path
) -> None:
    text = huge(RENDER_CAP_CHARS * 3)
    conversation.upsert(Msg("Friday", text, "assistant"), last=True)
    settle(chat_view)
    bar = _text_view(chat_view).cap_bar
    assert bar is not None
    target = tmp_path / "reply.md"
    assert bar.save_to(target) is None  # no loop running here: written at once
    assert target.read_text("utf-8") == text
    assert bar.label.text() == f"Saved to {target}."


def test_a_streaming_capped_text_is_not_kept_by_the_view(
    chat_view: ChatView, conversation: Conversation, tmp_path: Path
) -> None:
    """The view keeps only what it draws of a huge reply still streaming (holding the
    whole text kept an older copy alive while the model made the next); Save to file…
    waits for the whole text, and Show more applies from the next update on."""
    text = huge((SHOW_MORE_FACTOR + 2) * RENDER_CAP_CHARS)
    reply = Msg("Friday", [{"type": "text", "text": text}], "assistant")
    conversation.upsert(reply, last=False)
    chat_view.flush()
    block = _text_view(chat_view)
    reply.content = [{"type": "text", "text": text + LINE.format(i=1)}]
    conversation.upsert(reply, last=False)
    chat_view.flush()
    current = reply.content[0]["text"]
    holders = [r for r in gc.get_referrers(current) if not isinstance(r, types.FrameType)]
    assert all(holder is reply.content[0] for holder in holders)  # the message's block only
    assert block.is_capped
    bar = block.cap_bar
    assert bar is not None and not bar.save_button.isEnabled()
    bar.more_button.click()
    assert block.rendered_chars <= RENDER_CAP_CHARS
    whole = text + LINE.format(i=2)
    reply.content = [{"type": "text", "text": whole}]
    conversation.upsert(reply, last=True)
    settle(chat_view)
    block.render_now()
    assert block.rendered_chars > RENDER_CAP_CHARS
    assert block.is_capped and bar.save_button.isEnabled()
    target = tmp_path / "reply.md"
    bar.save_to(target)
    assert target.read_text("utf-8") == whole


def test_one_relayout_goes_on_with_a_pending_render_once(
    chat_view: ChatView, conversation: Conversation, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reply rendered over several frames gets one time budget per relayout: the passes
    that re-measure after heights changed do not render more (four budgets in one
    relayout were one long stall)."""
    from desktop_agent.ui.chat._message_widget import MessageRow

    paragraphs = (LINE.format(i=i) + "\n" for i in range(RENDER_CAP_CHARS // (len(LINE) + 3)))
    conversation.upsert(Msg("Friday", "".join(paragraphs), "assistant"), last=True)
    chat_view.model.coalescer.flush()
    lst = chat_view.list
    lst.relayout()  # the row is made, its render cut by its time budget
    assert lst.rendering
    refreshes: list[int] = []
    original = MessageRow.refresh

    def counted(row: MessageRow, entry: ConversationEntry) -> None:
        refreshes.append(1)
        original(row, entry)

    monkeypatch.setattr(MessageRow, "refresh", counted)
    relayouts = 0
    while lst.rendering and relayouts < 500:
        before = len(refreshes)
        lst.relayout()
        relayouts += 1
        assert len(refreshes) - before <= 1
    assert not lst.rendering
    assert relayouts > 1
    block = _text_view(chat_view)
    assert "numbered 1." in block.plain_text()
