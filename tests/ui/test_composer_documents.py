"""Documents attached in the composer: extraction off the GUI thread, limits, the chat chip."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, Qt, QUrl
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.app._documents import parse_document_part
from desktop_agent.message import Msg
from desktop_agent.testing import text_pdf
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._document_chip import DocumentPartView
from desktop_agent.ui.composer import Composer


@pytest.fixture
def composer(qtbot: QtBot) -> Composer:
    widget = Composer()
    qtbot.addWidget(widget)
    widget.show()
    return widget


def _pdf(tmp_path: Path, name: str = "paper.pdf") -> Path:
    path = tmp_path / name
    path.write_bytes(text_pdf(["Page one text", "Page two text"]))
    return path


def test_a_pdf_attaches_as_a_chip_and_is_sent_as_a_delimited_text_part(
    qtbot: QtBot, composer: Composer, tmp_path: Path
) -> None:
    assert composer.add_files([_pdf(tmp_path)]) == []
    (chip,) = composer.document_chips()
    chip.wait()
    assert chip.state == "ready"
    assert chip.status.text().startswith("2 pages · ")
    assert "tokens" in chip.status.text()
    qtbot.keyClicks(composer.input, "Summarize this")
    with qtbot.waitSignal(composer.send_requested) as sent:
        qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    document, question = sent.args[0]
    part = parse_document_part(document["text"])
    assert part is not None and part.name == "paper.pdf" and part.pages == 2
    assert "Page two text" in part.text
    assert question == {"type": "text", "text": "Summarize this"}
    assert composer.document_chips() == []


def test_a_broken_document_shows_why_and_sends_nothing(
    qtbot: QtBot, composer: Composer, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 garbage")
    composer.add_files([broken])
    (chip,) = composer.document_chips()
    chip.wait()
    assert chip.state == "failed"
    assert "not a readable PDF" in chip.status.text()
    assert not composer.send_button.isEnabled()
    qtbot.keyClicks(composer.input, "hello")
    with qtbot.waitSignal(composer.send_requested) as sent:
        qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    assert sent.args == ["hello"]


def test_sending_waits_for_extraction(qtbot: QtBot, composer: Composer, tmp_path: Path) -> None:
    composer.add_files([_pdf(tmp_path)])
    (chip,) = composer.document_chips()
    chip.state = "reading"  # as if the worker were still busy
    refused: list[str] = []
    composer.send_refused.connect(refused.append)
    qtbot.keyClicks(composer.input, "go")
    qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    assert refused == ["Still reading paper.pdf…"]


def test_the_token_budget_warns_before_sending(
    qtbot: QtBot, composer: Composer, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("word " * 400)
    composer.context_tokens = 300
    composer.add_files([notes])
    composer.document_chips()[0].wait()
    assert composer.budget_warning.isVisible()
    assert "more than fits the model's context" in composer.budget_warning.text()
    sent: list[object] = []
    refused: list[str] = []
    composer.send_requested.connect(sent.append)
    composer.send_refused.connect(refused.append)
    qtbot.mouseClick(composer.send_button, Qt.MouseButton.LeftButton)
    assert sent == [] and "Press Send again" in refused[0]
    qtbot.mouseClick(composer.send_button, Qt.MouseButton.LeftButton)
    assert len(sent) == 1


def test_removing_a_chip_cancels_and_drops_the_document(composer: Composer, tmp_path: Path) -> None:
    composer.add_files([_pdf(tmp_path)])
    (chip,) = composer.document_chips()
    composer.remove_attachment(chip)
    assert composer.document_chips() == [] and chip._cancel.is_set()
    assert composer.content() == ""


def test_dropped_text_files_become_documents(composer: Composer, tmp_path: Path) -> None:
    code = tmp_path / "main.py"
    code.write_text("print('hi')\n")
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(code))])
    composer.input.insertFromMimeData(data)
    (chip,) = composer.document_chips()
    chip.wait()
    assert chip.state == "ready" and composer.input.toPlainText() == ""


def test_the_chat_shows_a_sent_document_as_a_chip(qtbot: QtBot, tmp_path: Path) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    composer.add_files([_pdf(tmp_path)])
    composer.document_chips()[0].wait()
    composer.input.setPlainText("What is on page two?")
    conversation = Conversation()
    conversation.upsert(Msg("user", composer.content(), "user"), last=True)  # type: ignore[arg-type]
    view = ChatView(conversation)
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.show()
    view.flush()
    chips = view.findChildren(DocumentPartView)
    assert len(chips) == 1 and chips[0].part.name == "paper.pdf"
    preview = chips[0].open_preview()
    (text,) = preview.findChildren(QPlainTextEdit)
    assert "[page 2]\nPage two text" in text.toPlainText()
    preview.close()


def test_pdf_pages_can_also_go_as_images_for_vision_models(
    composer: Composer, tmp_path: Path
) -> None:
    composer.add_files([_pdf(tmp_path)])
    (chip,) = composer.document_chips()
    chip.wait()
    assert chip.pages_button.isVisibleTo(chip)
    text_tokens = chip.tokens
    chip.pages_button.setChecked(True)
    chip.wait()
    assert chip.state == "ready" and chip.status.text().endswith("· 2 page images")
    assert chip.tokens > text_tokens
    composer.input.setPlainText("What does the figure show?")
    document, page_1, page_2, question = composer.content()  # type: ignore[misc]
    assert parse_document_part(document["text"]) is not None
    for page in (page_1, page_2):
        assert page["type"] == "image" and page["source"]["media_type"] == "image/jpeg"
        image = QImage.fromData(base64.b64decode(page["source"]["data"]))
        assert image.width() == 1024 and image.height() > 1024
    assert question["text"] == "What does the figure show?"
    chip.pages_button.setChecked(False)
    assert len(composer.content()) == 2  # type: ignore[arg-type]


def test_a_scanned_pdf_can_only_go_as_page_images(composer: Composer, tmp_path: Path) -> None:
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(text_pdf(["", ""]))  # pages without a text layer
    composer.add_files([scan])
    (chip,) = composer.document_chips()
    chip.wait()
    assert chip.state == "failed" and "send the pages as images" not in chip.error
    assert chip.pages_button.isVisibleTo(chip)
    assert composer.content() == ""
    chip.pages_button.setChecked(True)
    chip.wait()
    assert chip.state == "ready"
    document, *pages = composer.content()  # type: ignore[misc]
    part = parse_document_part(document["text"])
    assert part is not None and part.pages == 2 and "no text layer" in part.text
    assert [page["type"] for page in pages] == ["image", "image"]


def test_a_long_document_is_estimated_as_a_chip_not_as_its_text(tmp_path: Path) -> None:
    from desktop_agent.app import ConversationEntry, EntryKind
    from desktop_agent.app._documents import extract_document
    from desktop_agent.ui.chat._estimate import estimate_height

    notes = tmp_path / "notes.md"
    notes.write_text("a long line of text\n" * 20_000)
    part = {"type": "text", "text": extract_document(notes).part()}
    entry = ConversationEntry(EntryKind.MESSAGE, Msg("user", [part], "user"))  # type: ignore[list-item]
    assert estimate_height(entry, 800) < 200
