"""The plan checklist row: a PlanNotebook's plan, refreshed in place as it changes."""

from __future__ import annotations

import asyncio
from typing import Any

from _chat_helpers import row, settle
from PySide6.QtCore import Qt

from desktop_agent.app import Conversation
from desktop_agent.app._plan_card import attach_plan_card
from desktop_agent.message import Msg
from desktop_agent.plan import PlanNotebook
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._message_widget import MessageRow
from desktop_agent.ui.chat._plan_view import PlanRow

SUBTASKS = [
    {"name": "Book the flight", "description": "d", "expected_outcome": "o"},
    {"name": "<b>Find</b> a hotel", "description": "d", "expected_outcome": "o"},
    {"name": "Pack", "description": "d", "expected_outcome": "o"},
]


class PrintingAgent:
    """What the plan card needs of an agent: a name and ``print`` into the chat."""

    name = "Assistant"

    def __init__(self, conversation: Conversation) -> None:
        self.conversation = conversation

    async def print(self, msg: Msg, last: bool = True, speech: Any = None) -> None:
        self.conversation.upsert(msg, last)


def notebook_for(conversation: Conversation) -> PlanNotebook:
    notebook = PlanNotebook()
    attach_plan_card(notebook, PrintingAgent(conversation))
    return notebook


def plan_row(view: ChatView, index: int) -> PlanRow:
    widget = row(view, index)
    assert isinstance(widget, PlanRow)
    return widget


def test_the_checklist_follows_the_plan(chat_view: ChatView, conversation: Conversation) -> None:
    notebook = notebook_for(conversation)
    conversation.upsert(Msg("User", "Plan my trip", "user"), last=True)
    asyncio.run(notebook.create_plan("Trip to Rome", "d", "o", SUBTASKS))  # type: ignore[arg-type]
    card = plan_row(chat_view, 1)
    assert card.name_label.text() == "Trip to Rome"
    assert card.shown_subtasks() == [
        ("Book the flight", "todo"),
        ("<b>Find</b> a hotel", "todo"),
        ("Pack", "todo"),
    ]
    assert card.progress.text() == "0/3" and not card.chip.isVisibleTo(card)
    assert all(line.name.textFormat() == Qt.TextFormat.PlainText for line in card.lines)

    asyncio.run(notebook.update_subtask_state(0, "in_progress"))
    settle(chat_view)
    assert plan_row(chat_view, 1) is card  # the same row, refreshed in place
    assert card.shown_subtasks()[0] == ("Book the flight", "in_progress")
    assert card.lines[0].name.font().bold()
    assert card.chip.text() == "in progress"

    asyncio.run(notebook.finish_subtask(0, "Booked"))
    asyncio.run(notebook.revise_current_plan(2, "delete"))
    settle(chat_view)
    assert card.shown_subtasks() == [
        ("Book the flight", "done"),
        ("<b>Find</b> a hotel", "in_progress"),
    ]
    assert card.progress.text() == "1/2"
    assert len(conversation) == 2

    asyncio.run(notebook.finish_plan("abandoned", "No time"))
    settle(chat_view)
    assert card.chip.text() == "abandoned"


def test_a_replaced_plan_keeps_its_row_and_says_so(
    chat_view: ChatView, conversation: Conversation
) -> None:
    notebook = notebook_for(conversation)
    asyncio.run(notebook.create_plan("First", "d", "o", SUBTASKS[:1]))  # type: ignore[arg-type]
    asyncio.run(notebook.create_plan("Second", "d", "o", SUBTASKS[1:]))  # type: ignore[arg-type]
    settle(chat_view)
    first, second = plan_row(chat_view, 0), plan_row(chat_view, 1)
    assert (first.name_label.text(), first.chip.text()) == ("First", "replaced")
    assert second.name_label.text() == "Second"
    assert len(second.lines) == 2


def test_other_messages_stay_message_rows(chat_view: ChatView, conversation: Conversation) -> None:
    conversation.upsert(Msg("Assistant", "Plan: not a checklist", "assistant"), last=True)
    assert isinstance(row(chat_view, 0), MessageRow)


def test_a_rebuilt_agent_keeps_updating_the_same_row(
    chat_view: ChatView, conversation: Conversation
) -> None:
    notebook = notebook_for(conversation)
    asyncio.run(notebook.create_plan("Trip", "d", "o", SUBTASKS))  # type: ignore[arg-type]
    attach_plan_card(notebook, PrintingAgent(conversation))  # e.g. after a settings change
    asyncio.run(notebook.update_subtask_state(0, "in_progress"))
    settle(chat_view)
    assert len(conversation) == 1
    assert plan_row(chat_view, 0).shown_subtasks()[0] == ("Book the flight", "in_progress")
