"""Tool-use cards (name, arguments, live status) and tool-result cards (streamed output)."""

from __future__ import annotations

import json

from _chat_helpers import message_row, settle

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._tool_views import ToolResultCard, ToolUseCard

INTERRUPTED = "The tool call has been interrupted by the user."


def _call(call_id: str, name: str = "web_search", **arguments: object) -> dict[str, object]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def _result(call_id: str, output: object, name: str = "web_search") -> Msg:
    block = {"type": "tool_result", "id": call_id, "name": name, "output": output}
    return Msg("system", [block], "system")


def _card(view: ChatView, row: int, index: int = 0) -> ToolUseCard:
    card = message_row(view, row).block_widgets("tool_use")[index]
    assert isinstance(card, ToolUseCard)
    return card


def _result_card(view: ChatView, row: int) -> ToolResultCard:
    card = message_row(view, row).block_widgets("tool_result")[0]
    assert isinstance(card, ToolResultCard)
    return card


def test_tool_card_shows_name_and_pretty_arguments(
    chat_view: ChatView, conversation: Conversation
) -> None:
    call = _call("c1", query="qt chat", max_results=3)
    conversation.upsert(Msg("Friday", [call], "assistant"), last=True)
    card = _card(chat_view, 0)
    assert card.name_label.text() == "web_search"
    shown = card.arguments_view.document().toPlainText()
    assert shown == json.dumps({"query": "qt chat", "max_results": 3}, indent=2)


def test_tool_status_goes_running_then_done(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.upsert(Msg("Friday", [_call("c1", q="x")], "assistant"), last=True)
    assert _card(chat_view, 0).chip.text() == "running…"

    result = _result("c1", [])
    conversation.upsert(result, last=False)
    settle(chat_view)
    assert _card(chat_view, 0).chip.text() == "running…"

    result.content[0]["output"] = [{"type": "text", "text": "3 results"}]
    conversation.upsert(result, last=True)
    settle(chat_view)
    assert _card(chat_view, 0).chip.text() == "done"
    assert _result_card(chat_view, 1).chip.text() == "done"


def test_tool_status_error_and_interrupted(chat_view: ChatView, conversation: Conversation) -> None:
    calls = [_call("a", path="/x"), _call("b"), _call("c")]
    conversation.upsert(Msg("Friday", calls, "assistant"), last=True)
    conversation.upsert(_result("a", "Error: no such file '/x'"), last=True)
    conversation.upsert(_result("b", INTERRUPTED), last=True)
    streamed = [
        {"type": "text", "text": "partial"},
        {"type": "text", "text": f"<system-info>{INTERRUPTED}</system-info>"},
    ]
    conversation.upsert(_result("c", streamed), last=True)
    settle(chat_view)

    chips = [_card(chat_view, 0, i).chip.text() for i in range(3)]
    assert chips == ["error", "interrupted", "interrupted"]
    output = _result_card(chat_view, 3).output_text()
    assert "partial" in output
    assert INTERRUPTED in output
    assert "<system-info>" not in output


def test_a_call_without_result_is_interrupted_when_the_turn_stops(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.upsert(Msg("Friday", [_call("c1")], "assistant"), last=True)
    assert _card(chat_view, 0).chip.text() == "running…"
    conversation.finish_streaming()
    settle(chat_view)
    assert _card(chat_view, 0).chip.text() == "interrupted"


def test_tool_result_output_streams_into_its_card(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.upsert(Msg("Friday", [_call("c1")], "assistant"), last=True)
    result = _result("c1", "")
    for line in range(1, 30):
        result.content[0]["output"] = "".join(f"line {i}\n" for i in range(1, line + 1))
        conversation.upsert(result, last=False)
        settle(chat_view)
        assert _result_card(chat_view, 1).output_text().endswith(f"line {line}\n")
    conversation.upsert(result, last=True)
    settle(chat_view)
    assert _result_card(chat_view, 1).output_text().count("line") == 29


def test_a_streaming_tool_call_shows_its_raw_arguments(
    chat_view: ChatView, conversation: Conversation
) -> None:
    block = {"type": "tool_use", "id": "c1", "name": "run", "input": {}, "raw_input": '{"cmd": "l'}
    msg = Msg("Friday", [block], "assistant")
    conversation.upsert(msg, last=False)
    assert _card(chat_view, 0).arguments_text == '{"cmd": "l'
    msg.content = [{**block, "input": {"cmd": "ls"}, "raw_input": '{"cmd": "ls"}'}]
    conversation.upsert(msg, last=True)
    settle(chat_view)
    assert _card(chat_view, 0).arguments_text == json.dumps({"cmd": "ls"}, indent=2)
