"""A long session's rows come in two steps: its last rows first (``adopt`` with
``older_pending``), then the older ones in front of them (``prepend``), built a slice at a
time (``extend_unobserved``)."""

from __future__ import annotations

import pytest

from desktop_agent.app import Conversation, ConversationEvent, Inserted, Reset, ToolStatus
from desktop_agent.app._session_restore import TAIL_ROWS, tail_start
from desktop_agent.message import Msg


def _recording(conversation: Conversation) -> list[ConversationEvent]:
    events: list[ConversationEvent] = []
    conversation.subscribe(events.append)
    return events


def _turns(count: int) -> list[Msg]:
    """``count`` question/answer pairs."""
    messages: list[Msg] = []
    for number in range(count):
        messages.append(Msg("User", f"question {number}", "user"))
        messages.append(Msg("Friday", f"answer {number}", "assistant"))
    return messages


def _built(messages: list[Msg]) -> Conversation:
    built = Conversation()
    built.extend_unobserved(messages)
    return built


def test_older_rows_go_in_front_with_one_event() -> None:
    messages = _turns(10)
    conversation = Conversation()
    conversation.adopt(_built(messages[12:]), older_pending=True)
    assert conversation.older_pending and len(conversation) == 8
    events = _recording(conversation)
    generation = conversation.generation
    older = _built(messages[:12])

    conversation.prepend(older)

    assert events == [Inserted(0, 12)]
    assert [entry.msg for entry in conversation.entries] == messages
    assert all(conversation.row_of(msg.id) == row for row, msg in enumerate(messages))
    assert not conversation.older_pending
    assert conversation.generation == generation  # not a reset: rows shown stay
    assert len(older) == 0


def test_a_message_sent_before_the_older_rows_come_stays_last() -> None:
    messages = _turns(6)
    conversation = Conversation()
    conversation.adopt(_built(messages[6:]), older_pending=True)
    sent = Msg("User", "a new question", "user")
    conversation.upsert(sent, True)
    conversation.prepend(_built(messages[:6]))
    assert [entry.msg for entry in conversation.entries] == [*messages, sent]
    assert conversation.row_of(sent.id) == len(messages)


def test_a_tool_call_in_the_older_rows_finds_its_result_in_the_last_ones() -> None:
    call = Msg(
        "Friday",
        [{"type": "tool_use", "id": "call-7", "name": "search", "input": {"q": "x"}}],
        "assistant",
    )
    result = Msg(
        "system",
        [{"type": "tool_result", "id": "call-7", "name": "search", "output": "found it"}],
        "system",
    )
    conversation = Conversation()
    conversation.adopt(_built([result]), older_pending=True)
    conversation.prepend(_built([Msg("User", "look it up", "user"), call]))
    assert conversation.tool_status("call-7") is ToolStatus.DONE
    assert conversation.tool_result("call-7") == result.content[0]  # type: ignore[index]


def test_prepend_refuses_what_it_cannot_put_in_front() -> None:
    messages = _turns(2)
    conversation = Conversation()
    conversation.adopt(_built(messages[2:]))
    observed = _built(messages[:2])
    observed.subscribe(lambda _event: None)
    with pytest.raises(ValueError, match="nobody observes"):
        conversation.prepend(observed)
    with pytest.raises(ValueError, match="observed"):
        observed.extend_unobserved(messages)
    assert [entry.msg for entry in conversation.entries] == messages[2:]


def test_a_message_shown_already_is_not_put_in_front_again() -> None:
    messages = _turns(3)
    conversation = Conversation()
    conversation.adopt(_built(messages[3:]), older_pending=True)
    events = _recording(conversation)
    conversation.prepend(_built(messages[:4]))  # the fourth is shown already
    assert [entry.msg for entry in conversation.entries] == messages
    assert events == [Inserted(0, 3)]
    assert conversation.row_of(messages[3].id) == 3


def test_every_reset_is_a_new_generation() -> None:
    conversation = Conversation()
    events = _recording(conversation)
    first = conversation.generation
    conversation.reset(_turns(1))
    second = conversation.generation
    conversation.adopt(_built(_turns(1)))
    assert first < second < conversation.generation
    assert events == [Reset(), Reset()]


def test_the_rows_shown_first_start_at_a_question() -> None:
    short = _turns(TAIL_ROWS // 2)
    assert tail_start(short) == 0
    # Twice as many messages as shown first, and one more: the cut would fall on an answer.
    messages = [*_turns(TAIL_ROWS), Msg("Friday", "one more thing", "assistant")]
    assert messages[len(messages) - TAIL_ROWS].role == "assistant"
    start = tail_start(messages)
    assert start == len(messages) - TAIL_ROWS - 1 and messages[start].role == "user"
    answers_only = [Msg("Friday", f"step {n}", "assistant") for n in range(TAIL_ROWS * 20)]
    assert tail_start(answers_only) == 0  # no turn starts within reach: every row at once
