"""The chat pane and the composer speak the installed language (issue 21): Chinese words
from ``translations/chat_zh_CN.ts``, English plural forms from ``chat_en.ts``."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from _chat_helpers import message_row
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QApplication

from desktop_agent.app import Conversation
from desktop_agent.app._documents import ExtractedDocument
from desktop_agent.message import Msg
from desktop_agent.ui._plain import sentence
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._tool_views import ToolUseCard
from desktop_agent.ui.composer._documents import document_summary

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def chat_catalogs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``chat_<lang>.qm`` compiled from the chat area's current .ts files."""
    folder = tmp_path_factory.mktemp("chat-i18n")
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = script
    spec.loader.exec_module(script)
    catalogs = {}
    for language in ("en", "zh_CN"):
        out = folder / f"chat_{language}.qm"
        source = str(script.ts_path("chat", language))
        subprocess.run([script._tool("lrelease"), "-silent", source, "-qm", str(out)], check=True)
        catalogs[language] = out
    return catalogs


@pytest.fixture
def speak(chat_catalogs: dict[str, Path], qapp: QApplication) -> Iterator[Callable[[str], None]]:
    """``speak("zh_CN")`` installs that language's chat catalog until the test ends."""
    installed: list[QTranslator] = []

    def install(language: str) -> None:
        translator = QTranslator(qapp)
        assert translator.load(str(chat_catalogs[language]))
        QCoreApplication.installTranslator(translator)
        installed.append(translator)

    yield install
    for translator in installed:
        QCoreApplication.removeTranslator(translator)


def test_a_cut_off_answer_with_a_tool_call_reads_in_chinese(
    speak: Callable[[str], None], chat_view: ChatView, conversation: Conversation
) -> None:
    speak("zh_CN")
    blocks: list[Any] = [
        {"type": "thinking", "thinking": "The user wants a list."},
        {"type": "tool_use", "id": "call_1", "name": "list_files", "input": {"path": "."}},
        {"type": "text", "text": "Here are the fi"},
    ]
    msg = Msg("Friday", blocks, "assistant", metadata={"finish_reason": None})
    conversation.upsert(msg, last=True)
    conversation.set_actions(msg.id, ("retry", "continue"))
    row = message_row(chat_view, 0)
    assert row.ending_mark.text() == "被截断"
    bar = row.ending_bar
    assert bar is not None
    assert bar.text_label.text() == "回答被截断：连接在回答完成前断开了。"
    assert (bar.retry_button.text(), bar.continue_button.text()) == ("重试", "继续")
    card = row.findChildren(ToolUseCard)[0]
    assert "工具调用" in [label.text() for label in card.findChildren(type(bar.text_label))]
    assert row.name_label is not None and row.name_label.property("i18n_data")


def test_english_plurals_come_from_the_english_catalog(speak: Callable[[str], None]) -> None:
    speak("en")
    one = ExtractedDocument("a.pdf", "pdf", "application/pdf", 2048, "text", pages=1, tokens=5)
    two = ExtractedDocument("b.pdf", "pdf", "application/pdf", 2048, "text", pages=2, tokens=5)
    assert document_summary(one, images=1).split(" · ")[::3] == ["1 page", "1 page image"]
    assert document_summary(two, images=2).split(" · ")[::3] == ["2 pages", "2 page images"]


def test_a_translated_error_ends_with_a_chinese_full_stop() -> None:
    assert sentence("无法加载音频：音频数据为空") == "无法加载音频：音频数据为空。"
    assert sentence("Could not load audio: empty") == "Could not load audio: empty."
    assert sentence("已保存。") == "已保存。"
