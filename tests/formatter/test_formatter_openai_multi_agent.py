"""OpenAIMultiAgentFormatter: history folded into <history> user messages."""

from __future__ import annotations

from pathlib import Path

from formatter_helpers import PNG_B64, PNG_BYTES, write

from desktop_agent.formatter import OpenAIMultiAgentFormatter
from desktop_agent.message import Msg

PROMPT = (
    "# Conversation History\n"
    "The content between <history></history> tags contains your conversation history\n"
)


async def test_history_groups_system_and_tool_sequences() -> None:
    msgs = [
        Msg("system", "You're Bob.", "system"),
        Msg("Alice", "Hi Bob", "user"),
        Msg("Bob", "Hello Alice", "assistant"),
        Msg(
            "Bob",
            [{"type": "tool_use", "id": "t1", "name": "clock", "input": {}}],
            "assistant",
        ),
        Msg(
            "system",
            [{"type": "tool_result", "id": "t1", "name": "clock", "output": "noon"}],
            "system",
        ),
        Msg("Bob", "It is noon.", "assistant"),
        Msg("Alice", "Thanks", "user"),
    ]
    assert await OpenAIMultiAgentFormatter().format(msgs) == [
        {"role": "system", "content": [{"type": "text", "text": "You're Bob."}]},
        {
            "role": "user",
            "content": [
                {
                    "type": "text",
                    "text": PROMPT + "<history>\nAlice: Hi Bob\nBob: Hello Alice\n</history>",
                }
            ],
        },
        {
            "role": "assistant",
            "name": "Bob",
            "content": None,
            "tool_calls": [
                {"id": "t1", "type": "function", "function": {"name": "clock", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "t1", "content": "noon", "name": "clock"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "<history>\nBob: It is noon.\nAlice: Thanks\n</history>"}
            ],
        },
    ]


async def test_media_follow_the_text_and_assistant_audio_is_skipped(tmp_path: Path) -> None:
    photo = write(tmp_path / "p.png", PNG_BYTES)
    msgs = [
        Msg(
            "Alice",
            [
                {"type": "text", "text": "See"},
                {"type": "image", "source": {"type": "url", "url": photo}},
                {
                    "type": "audio",
                    "source": {"type": "base64", "media_type": "audio/wav", "data": "UklG"},
                },
            ],
            "user",
        ),
        Msg(
            "Bob",
            [
                {"type": "text", "text": "Nice"},
                {
                    "type": "audio",
                    "source": {"type": "base64", "media_type": "audio/mp3", "data": "x"},
                },
            ],
            "assistant",
        ),
    ]
    formatter = OpenAIMultiAgentFormatter(conversation_history_prompt="## Chat\n")
    assert await formatter.format(msgs) == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "## Chat\n<history>\nAlice: See\nBob: Nice\n</history>"},
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG_B64}"}},
                {"type": "input_audio", "input_audio": {"data": "UklG", "format": "wav"}},
            ],
        }
    ]


async def test_system_message_list_content_keeps_only_text() -> None:
    system = Msg(
        "system",
        [
            {"type": "text", "text": "A"},
            {"type": "thinking", "thinking": "x"},
            {"type": "text", "text": "B"},
        ],
        "system",
    )
    assert await OpenAIMultiAgentFormatter().format([system]) == [
        {
            "role": "system",
            "content": [{"type": "text", "text": "A"}, {"type": "text", "text": "B"}],
        }
    ]
