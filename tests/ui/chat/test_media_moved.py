"""Media of older sessions whose file is gone show a clear "file moved" caption; remote
audio in a message is not fetched before the user presses play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _chat_helpers import message_row, png_bytes, settle, wav_bytes
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._audio_view import AudioView
from desktop_agent.ui.chat._media_views import ImageView


def _user_msg(kind: str, url: str) -> Msg:
    content = [
        {"type": "text", "text": "see"},
        {"type": kind, "source": {"type": "url", "url": url}},
    ]
    return Msg("User", content, "user")  # type: ignore[arg-type]


def test_a_moved_image_file_says_so(
    chat_view: ChatView, conversation: Conversation, tmp_path: Path
) -> None:
    gone = tmp_path / "holiday.png"
    conversation.upsert(_user_msg("image", str(gone)), last=True)
    image = message_row(chat_view, 0).block_widgets("image")[0]
    assert isinstance(image, ImageView)
    assert image.state == "moved"
    assert image.caption.text().startswith("File moved or deleted: holiday.png")
    assert image.caption.isVisible()


def test_a_moved_audio_file_says_so(
    chat_view: ChatView, conversation: Conversation, tmp_path: Path
) -> None:
    gone = tmp_path / "memo.wav"
    conversation.upsert(_user_msg("audio", str(gone)), last=True)
    audio = message_row(chat_view, 0).block_widgets("audio")[0]
    assert isinstance(audio, AudioView)
    if audio.state == "unavailable":  # no QtMultimedia here: nothing to load anyway
        return
    assert audio.state == "moved"
    assert audio.caption.text().startswith("File moved or deleted: memo.wav")
    assert not audio.open_button.isVisible()


def test_remote_audio_is_not_fetched_before_play(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation, image_server: Any
) -> None:
    image_server.body = wav_bytes(1.0)
    url = f"http://127.0.0.1:{image_server.server_address[1]}/clip.wav"
    conversation.upsert(_user_msg("audio", url), last=True)
    audio = message_row(chat_view, 0).block_widgets("audio")[0]
    assert isinstance(audio, AudioView)
    settle(chat_view)
    qtbot.wait(200)  # time for a fetch that must not happen
    assert image_server.requests == []
    assert audio.duration_ms == 0


def test_an_image_reference_leaving_its_folder_is_not_read(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation, tmp_path: Path
) -> None:
    outside = tmp_path / "outside" / "x.png"
    outside.parent.mkdir()
    outside.write_bytes(png_bytes(30, 20))
    (tmp_path / "s1.blobs").mkdir()
    reference = str(tmp_path / "s1.blobs" / ".." / "outside" / "x.png")
    conversation.upsert(_user_msg("image", reference), last=True)
    image = message_row(chat_view, 0).block_widgets("image")[0]
    assert isinstance(image, ImageView)
    assert image.state == "refused"
    assert image.caption.text().startswith("Not shown: x.png")
