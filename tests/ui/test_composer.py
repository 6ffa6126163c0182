"""The composer: keys, attachments, Send/Stop, huge pastes."""

from __future__ import annotations

import base64
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, Qt, QUrl
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from desktop_agent.ui.composer import Composer


@pytest.fixture
def composer(qtbot: QtBot) -> Composer:
    widget = Composer()
    qtbot.addWidget(widget)
    widget.show()
    return widget


def _png(path: Path, size: int = 64) -> Path:
    image = QImage(size, size, QImage.Format.Format_RGB32)
    image.fill(QColor("#3366cc"))
    assert image.save(str(path))
    return path


def test_enter_sends_text_and_clears(qtbot: QtBot, composer: Composer) -> None:
    qtbot.keyClicks(composer.input, "hello there")
    with qtbot.waitSignal(composer.send_requested) as sent:
        qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    assert sent.args == ["hello there"]
    assert composer.input.toPlainText() == ""


def test_shift_enter_inserts_a_newline_and_does_not_send(qtbot: QtBot, composer: Composer) -> None:
    sent: list[object] = []
    composer.send_requested.connect(sent.append)
    qtbot.keyClicks(composer.input, "line one")
    qtbot.keyClick(composer.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(composer.input, "line two")
    assert composer.input.toPlainText() == "line one\nline two"
    assert sent == []
    qtbot.keyClick(composer.input, Qt.Key.Key_Enter)
    assert sent == ["line one\nline two"]


def test_empty_or_blank_input_sends_nothing(qtbot: QtBot, composer: Composer) -> None:
    sent: list[object] = []
    composer.send_requested.connect(sent.append)
    qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    qtbot.keyClicks(composer.input, "   ")
    qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    assert sent == []
    assert not composer.send_button.isEnabled()


def test_sending_disabled_without_provider(qtbot: QtBot, composer: Composer) -> None:
    sent: list[object] = []
    composer.send_requested.connect(sent.append)
    composer.set_can_send(False, "Connect a model in Settings first.")
    qtbot.keyClicks(composer.input, "hi")
    qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    assert sent == []
    assert not composer.send_button.isEnabled()
    assert composer.input.toPlainText() == "hi"  # nothing typed is lost
    composer.set_can_send(True)
    assert composer.send_button.isEnabled()


def test_busy_turns_send_into_stop(qtbot: QtBot, composer: Composer) -> None:
    composer.set_busy(True)
    assert composer.send_button.text() == "Stop"
    assert composer.send_button.isEnabled()
    with qtbot.waitSignal(composer.stop_requested):
        qtbot.mouseClick(composer.send_button, Qt.MouseButton.LeftButton)
    sent: list[object] = []
    composer.send_requested.connect(sent.append)
    qtbot.keyClicks(composer.input, "queued")
    qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    assert sent == []  # no second turn while one runs; the text waits
    composer.set_busy(False)
    assert composer.send_button.text() == "Send"


def test_attached_image_file_previews_and_sends_as_image_block(
    qtbot: QtBot, composer: Composer, tmp_path: Path
) -> None:
    image = _png(tmp_path / "photo.png", 400)
    assert composer.add_files([image]) == []
    chips = composer.attachment_chips()
    assert len(chips) == 1
    qtbot.waitUntil(
        lambda: chips[0].preview.pixmap() is not None and not chips[0].preview.pixmap().isNull()
    )
    assert max(chips[0].preview.pixmap().width(), chips[0].preview.pixmap().height()) <= 40
    qtbot.keyClicks(composer.input, "what is this?")
    with qtbot.waitSignal(composer.send_requested) as sent:
        qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    data = base64.b64encode(image.read_bytes()).decode("ascii")  # copied when attached
    assert sent.args[0] == [
        {"type": "text", "text": "what is this?"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}},
    ]
    assert composer.attachments() == []


def test_attachment_can_be_removed(qtbot: QtBot, composer: Composer, tmp_path: Path) -> None:
    composer.add_files([_png(tmp_path / "a.png"), _png(tmp_path / "b.png")])
    first = composer.attachment_chips()[0]
    qtbot.mouseClick(first.remove_button, Qt.MouseButton.LeftButton)
    assert [a.label for a in composer.attachments()] == ["b.png"]


def test_audio_file_attaches_as_audio_block_and_other_files_are_refused(
    composer: Composer, tmp_path: Path
) -> None:
    clip = tmp_path / "clip.wav"
    clip.write_bytes(b"RIFF0000WAVE")
    blob = tmp_path / "blob.bin"  # neither media nor a document (text files are: issue 16)
    blob.write_bytes(b"\0\1\2")
    assert composer.add_files([clip, blob]) == [blob]
    data = base64.b64encode(b"RIFF0000WAVE").decode("ascii")  # copied when attached
    assert composer.attachments()[0].block() == {
        "type": "audio",
        "source": {"type": "base64", "media_type": "audio/wav", "data": data},
    }


def test_image_only_message_can_be_sent(qtbot: QtBot, composer: Composer, tmp_path: Path) -> None:
    composer.add_files([_png(tmp_path / "only.png")])
    assert composer.send_button.isEnabled()
    with qtbot.waitSignal(composer.send_requested) as sent:
        qtbot.mouseClick(composer.send_button, Qt.MouseButton.LeftButton)
    assert [b["type"] for b in sent.args[0]] == ["image"]


def test_pasted_image_becomes_base64_png(composer: Composer) -> None:
    image = QImage(8, 8, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    mime = QMimeData()
    mime.setImageData(image)
    composer.input.insertFromMimeData(mime)
    (attachment,) = composer.attachments()
    source = attachment.block()["source"]
    assert source["type"] == "base64" and source["media_type"] == "image/png"
    assert base64.b64decode(source["data"]).startswith(b"\x89PNG")
    assert composer.input.toPlainText() == ""


def test_dropped_files_become_attachments(composer: Composer, tmp_path: Path) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(_png(tmp_path / "dropped.png")))])
    composer.input.insertFromMimeData(mime)
    assert [a.label for a in composer.attachments()] == ["dropped.png"]


def test_attach_button_opens_a_non_modal_file_dialog(
    qtbot: QtBot, composer: Composer, tmp_path: Path
) -> None:
    image = _png(tmp_path / "picked.png")
    qtbot.mouseClick(composer.attach_button, Qt.MouseButton.LeftButton)
    dialog = composer.findChild(QFileDialog)
    assert dialog is not None and dialog.isVisible()
    dialog.filesSelected.emit([str(image)])
    dialog.reject()
    assert [a.label for a in composer.attachments()] == ["picked.png"]


def test_huge_paste_stays_responsive(composer: Composer) -> None:
    mime = QMimeData()
    mime.setText(("lorem ipsum dolor sit amet " * 40 + "\n") * 5_000)  # ~5.4 MB
    started = time.perf_counter()
    composer.input.insertFromMimeData(mime)
    composer.input.repaint()
    elapsed = time.perf_counter() - started
    assert composer.input.document().characterCount() > 5_000_000
    assert elapsed < 1.5, f"pasting 5 MB took {elapsed:.2f} s"
