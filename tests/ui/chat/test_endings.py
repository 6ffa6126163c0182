"""Answers that did not end normally say so under the text (cut off, token limit, thinking
only, stopped), with Retry/Continue; tool cards say waiting / denied / not run truthfully."""

from __future__ import annotations

from _chat_helpers import message_row, settle
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._tool_views import ToolUseCard


def _answer(text: str, finish_reason: str | None, *, thinking: str = "") -> Msg:
    blocks: list[dict[str, str]] = []
    if thinking:
        blocks.append({"type": "thinking", "thinking": thinking})
    if text:
        blocks.append({"type": "text", "text": text})
    return Msg("Friday", blocks, "assistant", metadata={"finish_reason": finish_reason})


def test_a_cut_off_answer_offers_retry_and_continue(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    msg = _answer("The capital of France is Pa", None)
    conversation.upsert(msg, last=True)
    conversation.set_actions(msg.id, ("retry", "continue"))
    widget = message_row(chat_view, 0)
    assert widget.ending_mark.isVisible() and widget.ending_mark.text() == "cut off"
    bar = widget.ending_bar
    assert bar is not None and bar.isVisible()
    assert bar.text_label.text().startswith("Cut off")
    assert bar.retry_button.isVisible() and bar.continue_button.isVisible()
    with qtbot.waitSignal(chat_view.continue_requested, timeout=1000):
        bar.continue_button.click()
    with qtbot.waitSignal(chat_view.retry_requested, timeout=1000):
        bar.retry_button.click()
    conversation.clear_actions()  # a new turn started: the buttons go, the words stay
    settle(chat_view)
    assert not bar.continue_button.isVisible() and bar.isVisible()


def test_a_length_stop_says_so_with_continue(
    chat_view: ChatView, conversation: Conversation
) -> None:
    msg = _answer("Once upon a time", "length")
    conversation.upsert(msg, last=True)
    conversation.set_actions(msg.id, ("continue",))
    bar = message_row(chat_view, 0).ending_bar
    assert bar is not None
    assert "token limit" in bar.text_label.text()
    assert bar.continue_button.isVisible() and not bar.retry_button.isVisible()


def test_a_thinking_only_reply_at_the_limit_says_so(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.upsert(_answer("", "length", thinking="Let me think..."), last=True)
    bar = message_row(chat_view, 0).ending_bar
    assert bar is not None and bar.isVisible()
    assert bar.text_label.text() == (
        "Stopped at the token limit while thinking: no answer was written yet."
    )


def test_a_finished_thinking_only_reply_says_there_is_no_answer(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.upsert(_answer("", "stop", thinking="Hmm."), last=True)
    widget = message_row(chat_view, 0)
    assert widget.ending_bar is not None
    assert widget.ending_bar.text_label.text().startswith("No answer: the model only thought")
    assert not widget.ending_mark.isVisible()


def test_a_normal_answer_has_no_ending_line(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.upsert(_answer("Hello.", "stop"), last=True)
    widget = message_row(chat_view, 0)
    assert widget.ending_bar is None and not widget.ending_mark.isVisible()


def test_the_mark_appears_when_the_answer_is_stopped_later(
    chat_view: ChatView, conversation: Conversation
) -> None:
    msg = Msg("Friday", [{"type": "text", "text": "Partial"}], "assistant")
    conversation.upsert(msg, last=False)
    widget = message_row(chat_view, 0)
    assert not widget.ending_mark.isVisible()
    msg.metadata = {"_is_interrupted": True}
    conversation.upsert(msg, last=True)
    settle(chat_view)
    assert widget.ending_mark.text() == "interrupted" and widget.ending_mark.isVisible()
    assert widget.bubble.property("interrupted") == "true"


def _call(call_id: str) -> dict[str, object]:
    return {"type": "tool_use", "id": call_id, "name": "write_text_file", "input": {}}


def _result(call_id: str, text: str) -> Msg:
    block = {"type": "tool_result", "id": call_id, "name": "write_text_file", "output": text}
    return Msg("system", [block], "system")


def test_tool_cards_waiting_denied_not_run(chat_view: ChatView, conversation: Conversation) -> None:
    conversation.upsert(Msg("Friday", [_call("a"), _call("b"), _call("c")], "assistant"), True)
    conversation.set_waiting("write_text_file")
    settle(chat_view)
    cards = message_row(chat_view, 0).block_widgets("tool_use")
    assert all(isinstance(card, ToolUseCard) for card in cards)
    assert [c.chip.text() for c in cards] == ["waiting for permission", "running…", "running…"]
    conversation.set_waiting(None)
    conversation.upsert(_result("a", "PermissionDenied: the user did not allow it."), True)
    conversation.upsert(_result("b", "The tool call was not executed: cut off."), True)
    conversation.upsert(_result("c", "FunctionNotFoundError: no such tool"), True)
    settle(chat_view)
    cards = message_row(chat_view, 0).block_widgets("tool_use")
    assert [c.chip.text() for c in cards] == ["denied", "not run", "error"]
    assert [c.chip.property("status") for c in cards] == ["denied", "not_run", "error"]
