"""OpenAIChatFormatter: exact output for each block type."""

from __future__ import annotations

import base64
import logging
from pathlib import Path

import pytest
from formatter_helpers import PNG_B64, PNG_BYTES, WAV_BYTES, write

from desktop_agent.formatter import OpenAIChatFormatter, _formatter_base
from desktop_agent.message import Msg

PNG_DATA_URL = f"data:image/png;base64,{PNG_B64}"


def _tool_use(call_id: str, name: str, arguments: dict) -> dict:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def _tool_result(call_id: str, name: str, output: object) -> dict:
    return {"type": "tool_result", "id": call_id, "name": name, "output": output}


async def test_a_conversation_with_a_tool_call() -> None:
    msgs = [
        Msg("system", "You're a helpful assistant.", "system"),
        Msg("user", "What is the capital of France?", "user"),
        Msg(
            "Friday",
            [
                {"type": "text", "text": "Let me check."},
                _tool_use("call_1", "get_capital", {"country": "France"}),
            ],
            "assistant",
        ),
        Msg(
            "system",
            [_tool_result("call_1", "get_capital", [{"type": "text", "text": "Paris"}])],
            "system",
        ),
        Msg("Friday", "The capital of France is Paris.", "assistant"),
    ]
    assert await OpenAIChatFormatter().format(msgs) == [
        {
            "role": "system",
            "name": "system",
            "content": [{"type": "text", "text": "You're a helpful assistant."}],
        },
        {
            "role": "user",
            "name": "user",
            "content": [{"type": "text", "text": "What is the capital of France?"}],
        },
        {
            "role": "assistant",
            "name": "Friday",
            "content": [{"type": "text", "text": "Let me check."}],
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_capital", "arguments": '{"country": "France"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "Paris", "name": "get_capital"},
        {
            "role": "assistant",
            "name": "Friday",
            "content": [{"type": "text", "text": "The capital of France is Paris."}],
        },
    ]


async def test_tool_call_only_message_has_null_content_and_unescaped_arguments() -> None:
    msg = Msg("Friday", [_tool_use("c", "weather", {"city": "北京"})], "assistant")
    assert await OpenAIChatFormatter().format([msg]) == [
        {
            "role": "assistant",
            "name": "Friday",
            "content": None,
            "tool_calls": [
                {
                    "id": "c",
                    "type": "function",
                    "function": {"name": "weather", "arguments": '{"city": "北京"}'},
                }
            ],
        }
    ]


async def test_tool_results_come_before_the_message_holding_them() -> None:
    msg = Msg(
        "system",
        [
            {"type": "text", "text": "Results:"},
            _tool_result("a", "f", "one"),
            _tool_result("b", "g", [{"type": "text", "text": "x"}, {"type": "text", "text": "y"}]),
        ],
        "system",
    )
    assert await OpenAIChatFormatter().format([msg]) == [
        {"role": "tool", "tool_call_id": "a", "content": "one", "name": "f"},
        {"role": "tool", "tool_call_id": "b", "content": "- x\n- y", "name": "g"},
        {"role": "system", "name": "system", "content": [{"type": "text", "text": "Results:"}]},
    ]


async def test_thinking_is_skipped_quietly_and_video_with_a_warning(caplog) -> None:
    msg = Msg(
        "Friday",
        [
            {"type": "thinking", "thinking": "hmm"},
            {"type": "text", "text": "Hi"},
            {"type": "video", "source": {"type": "url", "url": "https://x.org/v.mp4"}},
        ],
        "assistant",
    )
    with caplog.at_level(logging.WARNING, logger="desktop_agent"):
        formatted = await OpenAIChatFormatter().format([msg])
    assert formatted == [
        {"role": "assistant", "name": "Friday", "content": [{"type": "text", "text": "Hi"}]}
    ]
    assert "block type thinking" not in caplog.text  # dropping reasoning is normal
    assert "Unsupported block type video in the message, skipped." in caplog.text


async def test_empty_user_messages_are_not_sent() -> None:
    assert await OpenAIChatFormatter().format([Msg("u", [], "user")]) == []


@pytest.mark.parametrize(
    "content", [[{"type": "thinking", "thinking": "hmm"}], []], ids=["thinking-only", "empty"]
)
async def test_a_reply_with_nothing_to_send_keeps_its_turn(content, caplog) -> None:
    msgs = [
        Msg("user", "Question?", "user"),
        Msg("Friday", content, "assistant"),
        Msg("user", "And now?", "user"),
    ]
    with caplog.at_level(logging.WARNING, logger="desktop_agent"):
        formatted = await OpenAIChatFormatter().format(msgs)
    assert [m["role"] for m in formatted] == ["user", "assistant", "user"]
    assert formatted[1]["content"] == ""
    assert caplog.text == ""


async def test_images_from_web_local_file_and_base64(tmp_path: Path) -> None:
    local = write(tmp_path / "pic.png", PNG_BYTES)
    unnamed = write(tmp_path / "picture.bin", PNG_BYTES)
    msg = Msg(
        "user",
        [
            {"type": "image", "source": {"type": "url", "url": "https://x.org/cat.jpg"}},
            {"type": "image", "source": {"type": "url", "url": local}},
            {"type": "image", "source": {"type": "url", "url": "file://" + local}},
            {"type": "image", "source": {"type": "url", "url": unnamed}},
            {
                "type": "image",
                "source": {"type": "base64", "media_type": "image/gif", "data": "R0lG"},
            },
        ],
        "user",
    )
    formatted = await OpenAIChatFormatter().format([msg])
    urls = [part["image_url"]["url"] for part in formatted[0]["content"]]
    assert urls == [
        "https://x.org/cat.jpg",
        PNG_DATA_URL,
        PNG_DATA_URL,
        PNG_DATA_URL,
        "data:image/gif;base64,R0lG",
    ]
    assert formatted[0]["content"][0] == {
        "type": "image_url",
        "image_url": {"url": "https://x.org/cat.jpg"},
    }


async def test_jpg_extension_is_used_as_the_subtype(tmp_path: Path) -> None:
    path = write(tmp_path / "photo.JPG", b"\xff\xd8\xff\xe0data")
    msg = Msg("user", [{"type": "image", "source": {"type": "url", "url": path}}], "user")
    formatted = await OpenAIChatFormatter().format([msg])
    expected = "data:image/jpg;base64," + base64.b64encode(b"\xff\xd8\xff\xe0data").decode()
    assert formatted[0]["content"][0]["image_url"]["url"] == expected


@pytest.mark.parametrize("name", ["missing.png", "notes.txt"])
async def test_invalid_image_urls(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    if name.endswith(".txt"):
        path.write_text("not an image")
    msg = Msg("user", [{"type": "image", "source": {"type": "url", "url": str(path)}}], "user")
    with pytest.raises(ValueError, match="Invalid image URL"):
        await OpenAIChatFormatter().format([msg])


async def test_user_audio_from_file_and_base64(tmp_path: Path) -> None:
    wav = write(tmp_path / "voice.wav", WAV_BYTES)
    msg = Msg(
        "user",
        [
            {"type": "text", "text": "Listen"},
            {"type": "audio", "source": {"type": "url", "url": wav}},
            {
                "type": "audio",
                "source": {"type": "base64", "media_type": "audio/mp3", "data": "//s="},
            },
        ],
        "user",
    )
    assert await OpenAIChatFormatter().format([msg]) == [
        {
            "role": "user",
            "name": "user",
            "content": [
                {"type": "text", "text": "Listen"},
                {
                    "type": "input_audio",
                    "input_audio": {"data": base64.b64encode(WAV_BYTES).decode(), "format": "wav"},
                },
                {"type": "input_audio", "input_audio": {"data": "//s=", "format": "mp3"}},
            ],
        }
    ]


async def test_assistant_audio_is_skipped_but_the_turn_kept() -> None:
    audio = {"type": "audio", "source": {"type": "base64", "media_type": "audio/mp3", "data": "x"}}
    assert await OpenAIChatFormatter().format([Msg("Friday", [audio], "assistant")]) == [
        {"role": "assistant", "name": "Friday", "content": ""}
    ]


async def test_unsupported_audio_raises_type_error(tmp_path: Path) -> None:
    ogg = write(tmp_path / "voice.ogg", b"OggS")
    for source in (
        {"type": "url", "url": ogg},
        {"type": "base64", "media_type": "audio/ogg", "data": "T2dnUw=="},
    ):
        msg = Msg("user", [{"type": "audio", "source": source}], "user")
        with pytest.raises(TypeError):
            await OpenAIChatFormatter().format([msg])


async def test_tool_result_images_are_promoted_to_a_user_message(
    tmp_path: Path, monkeypatch
) -> None:
    chart = write(tmp_path / "chart.png", PNG_BYTES)
    monkeypatch.setattr(
        _formatter_base,
        "_save_base64_data",
        lambda media_type, data: write(tmp_path / "s.png", PNG_BYTES),
    )
    output = [
        {"type": "text", "text": "Here"},
        {"type": "image", "source": {"type": "url", "url": chart}},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_B64}},
    ]
    msgs = [
        Msg("system", [_tool_result("c1", "plot", output)], "system"),
        Msg("user", "Thanks", "user"),
    ]
    saved = str(tmp_path / "s.png")
    formatted = await OpenAIChatFormatter(promote_tool_result_images=True).format(msgs)
    assert formatted == [
        {
            "role": "tool",
            "tool_call_id": "c1",
            "content": (
                "- Here\n"
                f"- The returned image can be found at: {chart}\n"
                f"- The returned image can be found at: {saved}"
            ),
            "name": "plot",
        },
        {
            "role": "user",
            "name": "user",
            "content": [
                {
                    "type": "text",
                    "text": "<system-info>The following are the image contents from the tool "
                    "result of 'plot':",
                },
                {"type": "text", "text": f"\n- The image from '{chart}': "},
                {"type": "image_url", "image_url": {"url": PNG_DATA_URL}},
                {"type": "text", "text": f"\n- The image from '{saved}': "},
                {"type": "image_url", "image_url": {"url": PNG_DATA_URL}},
                {"type": "text", "text": "</system-info>"},
            ],
        },
        {"role": "user", "name": "user", "content": [{"type": "text", "text": "Thanks"}]},
    ]
    # Without the option, only the tool message is produced.
    plain = await OpenAIChatFormatter().format(msgs[:1])
    assert plain == formatted[:1]


async def test_format_checks_its_input() -> None:
    with pytest.raises(TypeError):
        await OpenAIChatFormatter().format("hello")  # type: ignore[arg-type]
