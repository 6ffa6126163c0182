"""Text from a model, a server or a session file is shown as text: markup in a tool name,
an error, a sender name or the permission summary never loads a local image."""

from __future__ import annotations

from pathlib import Path

import pytest
from _chat_helpers import message_row, png_bytes, row
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.tool import PermissionRequest
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._message_widget import ErrorRow
from desktop_agent.ui.chat._tool_views import ToolUseCard
from desktop_agent.ui.permissions import PermissionDialog


@pytest.fixture
def hostile(tmp_path: Path) -> str:
    """Markup showing a large local image, if a label took it for rich text."""
    image = tmp_path / "local.png"
    image.write_bytes(png_bytes(300, 300))
    return f'<img src="{image}"> <b>bold</b>'


def assert_shown_as_text(label: QLabel, text: str) -> None:
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert label.text() == text
    assert label.sizeHint().height() < 150  # no 300-pixel image


def test_a_tool_name_with_markup_is_shown_as_text(
    chat_view: ChatView, conversation: Conversation, hostile: str
) -> None:
    call = {"type": "tool_use", "id": "c1", "name": hostile, "input": {}}
    conversation.upsert(Msg("Friday", [call], "assistant"), last=True)
    card = message_row(chat_view, 0).block_widgets("tool_use")[0]
    assert isinstance(card, ToolUseCard)
    assert_shown_as_text(card.name_label, hostile)


def test_an_error_with_markup_is_shown_as_text(
    chat_view: ChatView, conversation: Conversation, hostile: str
) -> None:
    conversation.add_error(f"The server said: {hostile}", retryable=True)
    error = row(chat_view, 0)
    assert isinstance(error, ErrorRow)
    assert_shown_as_text(error.text_label, f"The server said: {hostile}")


def test_a_sender_name_with_markup_is_shown_as_text(
    chat_view: ChatView, conversation: Conversation, hostile: str
) -> None:
    conversation.upsert(Msg(hostile, "hello", "assistant"), last=True)
    message = message_row(chat_view, 0)
    assert_shown_as_text(message.name_label, hostile)
    assert "&lt;img" in message.bubble.toolTip()  # escaped, not an image


def test_the_permission_summary_is_shown_as_text(qtbot: QtBot, hostile: str) -> None:
    request = PermissionRequest("read_text_file", {"path": hostile}, f"Read the file {hostile}")
    dialog = PermissionDialog(request)
    qtbot.addWidget(dialog)
    assert_shown_as_text(dialog.summary_label, f"Read the file {hostile}")
