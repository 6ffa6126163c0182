"""Images written in Markdown replies: data URIs inline, remote ones only with consent."""

from __future__ import annotations

from typing import Any

from _chat_helpers import message_row, png_base64, settle
from PySide6.QtCore import QSize, QUrl
from PySide6.QtGui import QDesktopServices, QTextDocument
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._document_view import DocumentView


def _reply(text: str) -> Msg:
    return Msg("Friday", [{"type": "text", "text": text}], "assistant")


def _documents(view: ChatView) -> list[QTextDocument]:
    row = message_row(view, 0)
    return [doc for widget in row.findChildren(DocumentView) if (doc := widget.document())]


def _inline_images(view: ChatView) -> list[QSize]:
    sizes = []
    for doc in _documents(view):
        block = doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fmt = it.fragment().charFormat()
                if fmt.isImageFormat():
                    image = fmt.toImageFormat()
                    assert doc.resource(
                        QTextDocument.ResourceType.ImageResource.value, QUrl(image.name())
                    )
                    sizes.append(QSize(int(image.width()), int(image.height())))
                it += 1
            block = block.next()
    return sizes


def _text(view: ChatView) -> str:
    return "\n".join(doc.toPlainText() for doc in _documents(view))


def test_a_data_uri_image_renders_inline(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    data = png_base64(64, 48)
    conversation.upsert(_reply(f"Here:\n\n![a plot](data:image/png;base64,{data})"), last=True)

    def shown() -> bool:
        settle(chat_view)
        return bool(_inline_images(chat_view))

    qtbot.waitUntil(shown, timeout=10_000)
    assert _inline_images(chat_view) == [QSize(64, 48)]
    assert "[image:" not in _text(chat_view)


def test_a_large_data_uri_image_is_capped(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    data = png_base64(2000, 1000)
    conversation.upsert(_reply(f"![wide](data:image/png;base64,{data})"), last=True)

    def shown() -> bool:
        settle(chat_view)
        return bool(_inline_images(chat_view))

    qtbot.waitUntil(shown, timeout=10_000)
    (size,) = _inline_images(chat_view)
    assert size.width() <= 420 and size.height() <= 320


def test_a_remote_image_waits_for_a_click_and_never_opens_a_browser(
    qtbot: QtBot,
    chat_view: ChatView,
    conversation: Conversation,
    image_server: Any,
    monkeypatch: Any,
) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    url = f"http://127.0.0.1:{image_server.server_port}/chart.png"
    conversation.upsert(_reply(f"See ![the chart]({url})."), last=True)
    settle(chat_view)
    qtbot.wait(50)  # an eager fetch would have started by now
    assert "Load image from 127.0.0.1" in _text(chat_view)
    assert image_server.requests == []
    assert chat_view.context.images.network_requests == 0

    view = message_row(chat_view, 0).findChildren(DocumentView)[0]
    doc = view.document()
    view.anchorClicked.emit(QUrl(_load_link(doc)))

    def shown() -> bool:
        settle(chat_view)
        return bool(_inline_images(chat_view))

    qtbot.waitUntil(shown, timeout=10_000)
    assert image_server.requests == ["/chart.png"]
    assert _inline_images(chat_view) == [QSize(40, 30)]
    assert opened == []


def test_allowing_remote_images_loads_markdown_images(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation, image_server: Any
) -> None:
    url = f"http://127.0.0.1:{image_server.server_port}/a.png"
    conversation.upsert(_reply(f"![a]({url})"), last=True)
    settle(chat_view)
    assert image_server.requests == []
    chat_view.set_allow_remote_images(True)

    def shown() -> bool:
        settle(chat_view)
        return bool(_inline_images(chat_view))

    qtbot.waitUntil(shown, timeout=10_000)
    assert image_server.requests == ["/a.png"]


def _load_link(doc: QTextDocument) -> str:
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isAnchor() and fmt.anchorHref().startswith("loadimage:"):
                return fmt.anchorHref()
            it += 1
        block = block.next()
    raise AssertionError("no Load image link")
