"""``conversation_text`` joins its lines in one pass (a 20 MB answer is copied once) and
reads exactly as its ``"name: text"`` lines, one per message."""

from __future__ import annotations

from desktop_agent.context._conversation import conversation_text, message_line
from desktop_agent.message import Msg


def _messages() -> list[Msg]:
    return [
        Msg("User", "What is in the log?", "user"),
        Msg(
            "Friday",
            [
                {"type": "thinking", "thinking": "not shown"},
                {"type": "text", "text": "Two parts:"},
                {"type": "tool_use", "id": "c1", "name": "read", "input": {"path": "a.log"}},
                {"type": "text", "text": "and the end."},
            ],
            "assistant",
        ),
        Msg("Friday", "", "assistant"),
        Msg("User", "x" * 100_000, "user"),
    ]


def test_lines_are_the_message_lines() -> None:
    messages = _messages()
    assert conversation_text(messages) == "\n".join(message_line(m) for m in messages)
    assert conversation_text(messages).splitlines()[1].startswith("Friday: Two parts: [tool call")


def test_no_messages_no_text() -> None:
    assert conversation_text([]) == ""
    assert conversation_text(iter(_messages()[:1])) == "User: What is in the log?"
