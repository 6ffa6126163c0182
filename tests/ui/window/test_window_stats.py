"""An answer's figures in the real window: the status line keeps the last turn's figures,
the answer names its model and figures on hover, and a turn with a tool shows its steps."""

from __future__ import annotations

from _window_helpers import send
from pytestqt.qtbot import QtBot

from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall
from desktop_agent.ui.chat._message_widget import MessageRow
from desktop_agent.ui.window import DesktopApp


def _last_row(desktop: DesktopApp) -> MessageRow:
    view = desktop.chat_view
    view.flush()
    index = len(desktop.conversation) - 1
    view.list.scroll_to_row(index)
    view.flush()
    row = view.list.row_widget(index)
    assert isinstance(row, MessageRow)
    return row


async def test_status_line_and_answer_show_the_figures(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    server.add_reply(
        ScriptedReply("Plain answer.", usage={"prompt_tokens": 310, "completion_tokens": 84})
    )
    await send(qtbot, desktop, "hi")
    usage = desktop.window.status_line.usage_label.text()
    assert "to first token" in usage and "310 in · 84 out" in usage
    row = _last_row(desktop)
    assert row.answer_stats is not None
    details = row.answer_stats.details
    assert not details.isHidden()
    assert details.text().startswith("test-model · ")
    assert "310 in · 84 out" in details.text()
    assert "Steps" not in details.text()  # no tools: no steps to show
    assert "Tokens: 310 in · 84 out" in row.bubble.toolTip()
    assert "Model: test-model" in row.bubble.toolTip()


async def test_a_turn_with_a_tool_shows_its_steps(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    server.add_reply(  # a tool that does not exist: an error result at once, no dialog
        ScriptedReply(tool_calls=[ScriptedToolCall("no_such_tool", {"path": "."})]),
        ScriptedReply("Listed."),
    )
    await send(qtbot, desktop, "list it")
    row = _last_row(desktop)
    assert row.answer_stats is not None
    steps = row.answer_stats.details.text().splitlines()[1]
    assert steps.startswith("Steps: reasoning ")
    assert " → no_such_tool " in steps and " → answer " in steps
