"""A long chat (5,000 messages here; the benchmark opens 100,000) in the chat pane: only the
rows near the viewport exist, scrolling creates and releases them (rows the user scrolls
past too fast are previewed first), it opens at its last message, and Ctrl+F's find bar
finds a message far away and scrolls to it."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QRect, Qt
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._document_view import DocumentView
from desktop_agent.ui.chat._find_index import FindIndex

COUNT = 5_000
FAR_ROW = 7
WORD = "quetzalcoatlite"


def _messages(count: int = COUNT) -> list[Msg]:
    messages = []
    for number in range(count):
        if number % 2 == 0:
            text = f"Question {number}: how does part {number} of the system work?"
            messages.append(Msg("User", text, "user"))
        else:
            text = f"Answer {number}. " + "It works by reading the state and replying. " * 4
            messages.append(Msg("Friday", [{"type": "text", "text": text}], "assistant"))
    far = messages[FAR_ROW]
    far.content = [{"type": "text", "text": f"The {WORD} is a rare mineral."}]
    return messages


def _visible(view: ChatView, row: int) -> bool:
    widget = view.list.row_widget(row)
    if widget is None or not widget.isVisible():
        return False
    viewport = view.list.viewport().rect()
    return viewport.intersects(QRect(widget.pos(), widget.size()))


def settle(view: ChatView) -> None:
    """The next frames: pending updates, the rows left to later turns, budgeted renders
    (their timers too), deferred deletes."""
    for _ in range(500):
        view.model.coalescer.flush()
        view.list.relayout()
        QCoreApplication.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        if not view.list.rendering:
            return
    raise AssertionError("the chat pane did not settle")


def test_a_big_chat_opens_at_its_end_with_only_nearby_rows(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.reset(_messages())
    settle(chat_view)
    live = chat_view.list.live_rows()
    assert 0 < len(live) < 40
    assert _visible(chat_view, COUNT - 1)
    assert chat_view.list.is_at_bottom()
    rows = {conversation.row_of(key) for key in live}
    assert min(r for r in rows if r is not None) > COUNT - 40


def test_scrolling_creates_rows_in_view_and_releases_the_others(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.reset(_messages())
    settle(chat_view)
    bottom_keys = set(chat_view.list.live_rows())
    bar = chat_view.list.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)  # as the user dragging the scroll bar does
    settle(chat_view)
    live = chat_view.list.live_rows()
    assert not bottom_keys & set(live)  # the rows at the end were released
    assert 0 < len(live) < 40
    rows = sorted(r for key in live if (r := conversation.row_of(key)) is not None)
    assert rows[0] > COUNT // 4 and rows[-1] < 3 * COUNT // 4
    assert any(_visible(chat_view, row) for row in rows)
    bar.setValue(0)
    settle(chat_view)
    assert _visible(chat_view, 0)
    assert len(chat_view.list.live_rows()) < 40


def test_rows_scrolled_past_too_fast_are_previewed_then_created(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.reset(_messages())
    settle(chat_view)
    bar = chat_view.list.verticalScrollBar()
    created = chat_view.list.rows_created
    for step in range(1, 6):  # five long jumps, each in one turn
        bar.setValue(bar.maximum() * (5 - step) // 5)
    assert chat_view.list.rendering  # some rows on screen wait for a later turn
    image = chat_view.list.viewport().grab().toImage()
    background = image.pixelColor(2, 2)
    assert any(  # meanwhile their text is painted, not an empty pane
        image.pixelColor(x, y) != background
        for x in range(0, image.width(), 7)
        for y in range(0, image.height(), 7)
    )
    settle(chat_view)
    assert not chat_view.list.rendering
    assert _visible(chat_view, 0)
    assert chat_view.list.rows_created > created


def _highlighted(view: ChatView, row: int) -> list[str]:
    widget = view.list.row_widget(row)
    assert widget is not None
    return [
        selection.cursor.selectedText()
        for document_view in widget.findChildren(DocumentView)
        for selection in document_view.extraSelections()
    ]


def test_find_bar_finds_a_message_far_away_and_scrolls_to_it(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.reset(_messages())
    settle(chat_view)
    bar = chat_view.find_bar
    chat_view.open_find()
    assert bar.isVisible() and bar.field.hasFocus()
    qtbot.keyClicks(bar.field, WORD.upper())  # case does not matter
    qtbot.waitUntil(lambda: bar.matches == [FAR_ROW] and not bar.searching, timeout=5000)
    assert bar.count_label.text() == "1 of 1"
    assert chat_view.highlighted_row == FAR_ROW
    assert _visible(chat_view, FAR_ROW)
    assert _highlighted(chat_view, FAR_ROW) == [WORD]
    qtbot.keyClick(bar.field, Qt.Key.Key_Escape)
    assert not bar.isVisible()
    assert _highlighted(chat_view, FAR_ROW) == []


def test_find_bar_steps_through_matches_and_says_when_there_are_none(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.reset(_messages(200))
    settle(chat_view)
    bar = chat_view.find_bar
    chat_view.open_find()
    bar.search_now("Question 1")  # rows 10-19, 100-199 (even only: questions) and row 1x
    matches = bar.matches
    assert matches == [r for r in range(200) if r % 2 == 0 and str(r).startswith("1")]
    assert bar.current == len(matches) - 1  # the newest first
    assert _visible(chat_view, matches[-1])
    qtbot.keyClick(bar.field, Qt.Key.Key_Return)  # Enter: the older one
    assert chat_view.highlighted_row == matches[-2]
    assert bar.count_label.text() == f"{len(matches) - 1} of {len(matches)}"
    qtbot.keyClick(bar.field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert chat_view.highlighted_row == matches[-1]
    bar.search_now("no such words anywhere")
    assert bar.matches == [] and bar.count_label.text() == "No matches"


def test_the_find_index_follows_the_conversation(conversation: Conversation) -> None:
    conversation.reset(_messages(1_200))
    index = FindIndex(conversation)
    while not index.build_some(0.001):
        pass
    assert index.rows_with(WORD) == [FAR_ROW]
    reply = Msg("Friday", "", "assistant")
    conversation.upsert(reply, last=False)
    reply.content = f"Streaming about {WORD} too."
    conversation.upsert(reply, last=True)
    conversation.add_error(f"Error: no {WORD} left", False)
    assert not index.ready
    assert index.build_some(1.0)
    assert index.rows_with(WORD) == [FAR_ROW, 1_200, 1_201]
    conversation.reset(_messages(10))
    assert index.build_some(1.0)
    assert index.rows_with(WORD) == [FAR_ROW]
    assert index.rows_with("") == []
    index.close()
