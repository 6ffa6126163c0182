"""The assistant picker in the chat header against the loopback server: the chosen
assistant's prompt goes with the next request, its name is on the answer, a new chat starts
with it, and an opened chat shows the assistant it was saved with."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from _window_helpers import send
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.window import DesktopApp
from desktop_agent.ui.window._assistant_picker import EDIT_ITEM

pytestmark = pytest.mark.with_library  # the chat is saved: the library is open


def _pick(desktop: DesktopApp, assistant_id: str) -> None:
    picker = desktop.window.assistant_picker
    index = picker.findData(assistant_id)
    picker.setCurrentIndex(index)
    picker.activated.emit(index)


async def _until(condition: object) -> None:
    assert callable(condition)
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met in time")


async def test_picking_an_assistant_and_getting_it_back(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    picker = desktop.window.assistant_picker
    assert picker.currentText() == "🤖 Assistant"
    _pick(desktop, "translator")
    await send(qtbot, desktop, "Guten Morgen")
    system = server.chat_requests[-1].messages[0]
    assert "You translate" in str(system["content"])
    answer = [e.msg for e in desktop.conversation.entries if e.msg is not None][-1]
    assert answer.name == "Translator"
    switcher = desktop.sessions.switcher
    await _until(lambda: switcher.active_id is not None)
    first = switcher.active_id
    assert first is not None

    await switcher.new_chat()  # a new chat starts with the assistant chosen last
    assert picker.currentData() == "translator"
    _pick(desktop, "coder")
    await send(qtbot, desktop, "hi")
    assert "expert programmer" in str(server.chat_requests[-1].messages[0]["content"])
    assert server.chat_requests[-1].body["temperature"] == 0.2  # the Coder's temperature
    await switcher.new_chat()
    assert picker.currentData() == "coder"

    await switcher.open(first)
    assert picker.currentData() == "translator"
    await send(qtbot, desktop, "Gute Nacht")
    assert "You translate" in str(server.chat_requests[-1].messages[0]["content"])


async def test_the_editor_creates_edits_exports_and_imports(
    qtbot: QtBot, desktop: DesktopApp, tmp_path: Path
) -> None:
    picker = desktop.window.assistant_picker
    _pick(desktop, EDIT_ITEM)
    editor = desktop.assistants.editor
    assert editor is not None and editor.isVisible()
    editor.new()
    editor.name.setText("Chef")
    editor.icon.setText("🍳")
    editor.prompt.setPlainText("You cook.")
    editor.model.setText("alpha-small")
    editor.save()
    assert picker.findText("🍳 Chef") >= 0  # the header lists it at once
    editor.duplicate()
    assert editor.selected() is not None and editor.selected().name == "Chef (copy)"  # type: ignore[union-attr]
    exported = tmp_path / "chef.json"
    editor.export_file(exported)
    assert json.loads(exported.read_text())["system_prompt"] == "You cook."
    editor.import_file(exported)
    assert picker.findText("🍳 Chef (copy) (copy)") >= 0
    editor.reject()
    _pick(desktop, picker.itemData(picker.findText("🍳 Chef")))
    assert desktop.service.provider is not None
    assert desktop.service.provider.model == "alpha-small"  # its default model


async def test_enter_in_the_editor_saves_and_keeps_it_open_every_time(
    qtbot: QtBot, desktop: DesktopApp
) -> None:
    picker = desktop.window.assistant_picker
    for name in ("Chef", "Baker"):  # the editor opened twice
        _pick(desktop, EDIT_ITEM)
        editor = desktop.assistants.editor
        assert editor is not None and editor.isVisible()
        editor.new()
        editor.name.setText(name)
        qtbot.keyClick(editor.name, Qt.Key.Key_Return)  # Enter: Save, not Close
        assert editor.isVisible()
        assert picker.findText(f"✨ {name}") >= 0
        editor.reject()
