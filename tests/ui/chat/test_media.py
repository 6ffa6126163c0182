"""Images (off-thread decode, remote consent), audio (duration, errors), video placeholder."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from _chat_helpers import message_row, png_base64, png_bytes, settle, wav_bytes
from PySide6.QtCore import QSize, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat import _audio_view as audio_module
from desktop_agent.ui.chat._audio_view import AudioView
from desktop_agent.ui.chat._media_views import ImageView, VideoView


def _image_msg(source: dict[str, Any], role: str = "assistant") -> Msg:
    content = [{"type": "text", "text": "Look:"}, {"type": "image", "source": source}]
    return Msg("user" if role == "user" else "Friday", content, role)  # type: ignore[arg-type]


def _image(view: ChatView, row: int = 0) -> ImageView:
    widget = message_row(view, row).block_widgets("image")[0]
    assert isinstance(widget, ImageView)
    return widget


def _audio(view: ChatView, row: int = 0) -> AudioView:
    widget = message_row(view, row).block_widgets("audio")[0]
    assert isinstance(widget, AudioView)
    return widget


def test_base64_png_is_decoded_and_shown(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    source = {"type": "base64", "media_type": "image/png", "data": png_base64(64, 48)}
    conversation.upsert(_image_msg(source), last=True)
    image = _image(chat_view)
    qtbot.waitUntil(lambda: image.state == "image")
    assert image.decoded_size == QSize(64, 48)
    assert not image.canvas.pixmap.isNull()
    settle(chat_view)
    assert image.canvas.height() == 48


def test_a_large_image_is_decoded_as_a_thumbnail(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    source = {"type": "base64", "media_type": "image/png", "data": png_base64(2000, 1000)}
    conversation.upsert(_image_msg(source), last=True)
    image = _image(chat_view)
    qtbot.waitUntil(lambda: image.state == "image")
    assert image.decoded_size == QSize(640, 320)


@pytest.mark.parametrize("as_url", [False, True])
def test_local_file_image_is_shown(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation, tmp_path: Path, as_url: bool
) -> None:
    path = tmp_path / "picture.png"
    path.write_bytes(png_bytes(30, 20))
    url = QUrl.fromLocalFile(str(path)).toString() if as_url else str(path)
    conversation.upsert(_image_msg({"type": "url", "url": url}, role="user"), last=True)
    image = _image(chat_view)
    qtbot.waitUntil(lambda: image.state == "image")
    assert image.decoded_size == QSize(30, 20)
    assert message_row(chat_view, 0).role == "user"


def test_broken_base64_image_shows_could_not_load(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    source = {"type": "base64", "media_type": "image/png", "data": "bm90IGFuIGltYWdl!!"}
    conversation.upsert(_image_msg(source), last=True)
    image = _image(chat_view)
    qtbot.waitUntil(lambda: image.state == "error")
    assert image.caption.text().startswith("Could not load image")
    assert image.caption.isVisible()


def test_remote_image_is_fetched_only_after_load_is_clicked(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation, image_server: Any
) -> None:
    url = f"http://127.0.0.1:{image_server.server_port}/plot.png"
    conversation.upsert(_image_msg({"type": "url", "url": url}), last=True)
    image = _image(chat_view)
    settle(chat_view)
    qtbot.wait(50)  # give an eager fetch every chance to happen
    assert image.state == "remote"
    assert url in image.caption.text()
    assert image.load_button.isVisible()
    assert image_server.requests == []
    assert chat_view.context.images.network_requests == 0

    qtbot.mouseClick(image.load_button, Qt.MouseButton.LeftButton)

    qtbot.waitUntil(lambda: image.state == "image", timeout=10_000)
    assert image_server.requests == ["/plot.png"]
    assert image.decoded_size == QSize(40, 30)


def test_allowing_remote_images_loads_them(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation, image_server: Any
) -> None:
    url = f"http://127.0.0.1:{image_server.server_port}/a.png"
    conversation.upsert(_image_msg({"type": "url", "url": url}), last=True)
    image = _image(chat_view)
    assert image.state == "remote"
    chat_view.set_allow_remote_images(True)
    qtbot.waitUntil(lambda: image.state == "image", timeout=10_000)
    assert image_server.requests == ["/a.png"]


def _audio_msg(data: str, media_type: str = "audio/wav") -> Msg:
    source = {"type": "base64", "media_type": media_type, "data": data}
    return Msg("Friday", [{"type": "audio", "source": source}], "assistant")


def test_audio_reports_its_duration(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    data = base64.b64encode(wav_bytes(2.0)).decode()
    conversation.upsert(_audio_msg(data), last=True)
    audio = _audio(chat_view)
    qtbot.waitUntil(lambda: audio.duration_ms > 0, timeout=10_000)
    assert abs(audio.duration_ms - 2000) < 100
    assert audio.time_label.text() == "0:00 / 0:02"
    assert audio.play_button.isEnabled()


def test_broken_audio_shows_could_not_load(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    garbage = base64.b64encode(b"RIFF....WAVEfmt this is not audio at all" * 20).decode()
    conversation.upsert(_audio_msg(garbage), last=True)
    audio = _audio(chat_view)
    qtbot.waitUntil(lambda: audio.state == "error", timeout=10_000)
    assert audio.caption.text().startswith("Could not load audio")
    assert not audio.play_button.isEnabled()


def test_empty_audio_data_shows_could_not_load(
    chat_view: ChatView, conversation: Conversation
) -> None:
    conversation.upsert(_audio_msg(""), last=True)
    audio = _audio(chat_view)
    assert audio.state == "error"
    assert audio.caption.text().startswith("Could not load audio")


def test_audio_degrades_to_open_externally_without_qtmultimedia(
    monkeypatch: pytest.MonkeyPatch, chat_view: ChatView, conversation: Conversation
) -> None:
    monkeypatch.setattr(audio_module, "multimedia", lambda: None)
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    conversation.upsert(_audio_msg(base64.b64encode(wav_bytes(0.2)).decode()), last=True)
    audio = _audio(chat_view)
    assert audio.state == "unavailable"
    assert audio.open_button.isVisible()
    assert not audio.play_button.isVisible()
    audio.open_button.click()
    assert len(opened) == 1 and opened[0].isLocalFile()
    assert Path(opened[0].toLocalFile()).read_bytes()[:4] == b"RIFF"


def test_video_is_a_placeholder_that_opens_externally(
    monkeypatch: pytest.MonkeyPatch, chat_view: ChatView, conversation: Conversation
) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    source = {"type": "url", "url": "https://example.com/demo.mp4"}
    conversation.upsert(Msg("Friday", [{"type": "video", "source": source}], "assistant"), True)
    video = message_row(chat_view, 0).block_widgets("video")[0]
    assert isinstance(video, VideoView)
    assert video.caption.text() == "Video · https://example.com/demo.mp4"
    video.open_button.click()
    assert opened == [QUrl("https://example.com/demo.mp4")]


def test_tool_results_can_return_images(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                         "data": png_base64(20, 10)}}  # fmt: skip
    output = [{"type": "text", "text": "rendered"}, image]
    block = {"type": "tool_result", "id": "c1", "name": "plot", "output": output}
    conversation.upsert(Msg("system", [block], "system"), last=True)
    card = message_row(chat_view, 0).block_widgets("tool_result")[0]
    images = card.findChildren(ImageView)
    assert len(images) == 1
    qtbot.waitUntil(lambda: images[0].state == "image")
    assert images[0].decoded_size == QSize(20, 10)
