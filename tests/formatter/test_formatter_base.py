"""FormatterBase: the input check and tool-result conversion."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from desktop_agent.formatter import FormatterBase, _formatter_base
from desktop_agent.message import Msg

convert = FormatterBase.convert_tool_result_to_string


def test_assert_list_of_msgs() -> None:
    FormatterBase.assert_list_of_msgs([Msg("a", "x", "user")])
    with pytest.raises(TypeError, match=r"^Input must be a list of Msg objects\.$"):
        FormatterBase.assert_list_of_msgs((Msg("a", "x", "user"),))
    with pytest.raises(TypeError, match=r"^Expected Msg object, got <class 'dict'> instead\.$"):
        FormatterBase.assert_list_of_msgs([{"role": "user"}])


async def test_format_is_abstract() -> None:
    with pytest.raises(NotImplementedError):
        await FormatterBase().format([])


def test_none_and_string_outputs() -> None:
    assert convert(None) == ("", [])
    assert convert("plain") == ("plain", [])


def test_text_blocks() -> None:
    assert convert([{"type": "text", "text": "only"}]) == ("only", [])
    assert convert([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]) == (
        "- a\n- b",
        [],
    )
    assert convert([]) == ("", [])


def test_url_media_are_referred_to() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://x.org/a.png"}}
    audio = {"type": "audio", "source": {"type": "url", "url": "/tmp/a.wav"}}
    text, media = convert([{"type": "text", "text": "Look:"}, image, audio])
    assert text == (
        "- Look:\n"
        "- The returned image can be found at: https://x.org/a.png\n"
        "- The returned audio can be found at: /tmp/a.wav"
    )
    assert media == [("https://x.org/a.png", image), ("/tmp/a.wav", audio)]


def test_base64_media_are_saved_through_the_patchable_helper(monkeypatch) -> None:
    saved = []

    def fake_save(media_type: str, data: str) -> str:
        saved.append((media_type, data))
        return "/saved/video.mp4"

    monkeypatch.setattr(_formatter_base, "_save_base64_data", fake_save)
    video = {
        "type": "video",
        "source": {"type": "base64", "media_type": "video/mp4", "data": "AA=="},
    }
    assert convert([video]) == (
        "The returned video can be found at: /saved/video.mp4",
        [("/saved/video.mp4", video)],
    )
    assert saved == [("video/mp4", "AA==")]


def test_save_base64_data_writes_a_temporary_file() -> None:
    path = Path(_formatter_base._save_base64_data("image/png", base64.b64encode(b"png!").decode()))
    try:
        assert path.suffix == ".png"
        assert path.read_bytes() == b"png!"
    finally:
        path.unlink()


def test_unknown_blocks_and_sources_raise() -> None:
    with pytest.raises(ValueError):
        convert([{"type": "thinking", "thinking": "x"}])
    with pytest.raises(ValueError):
        convert([{"type": "image", "source": {"type": "ftp", "url": "x"}}])
    with pytest.raises(ValueError):
        convert([{"type": "image"}])
