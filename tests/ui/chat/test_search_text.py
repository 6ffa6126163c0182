"""Find-in-chat, opening a search hit and the sidebar's search read the same text of a
message: its text, its thinking and its tool results' output."""

from __future__ import annotations

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._find_index import FindIndex


def _messages() -> list[Msg]:
    return [
        Msg("User", "look the lighthouse up", "user"),
        Msg(
            "Friday",
            [
                {"type": "thinking", "thinking": "the cormorant colony is near"},
                {"type": "tool_use", "id": "c1", "name": "search", "input": {"q": "x"}},
            ],
            "assistant",
        ),
        Msg(
            "system",
            [
                {
                    "type": "tool_result",
                    "id": "c1",
                    "name": "search",
                    "output": [{"type": "text", "text": "Cabo da Roca, westernmost point"}],
                }
            ],
            "system",
        ),
        Msg("Friday", "It is at Cabo da Roca.", "assistant"),
    ]


def test_find_in_chat_reads_thinking_and_tool_output(conversation: Conversation) -> None:
    conversation.reset(_messages())
    index = FindIndex(conversation)
    while not index.build_some():
        pass
    assert index.rows_with("westernmost") == [2]
    assert index.rows_with("cormorant") == [1]
    assert index.rows_with("cabo da roca") == [2, 3]


def test_a_search_hit_in_a_tool_result_opens_there(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.reset(_messages())
    assert chat_view.reveal_match("Westernmost") == 2
    assert chat_view.highlighted_row == 2
