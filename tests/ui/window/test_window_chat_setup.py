"""A chat's setup against the loopback server: an assistant's tools and context template
reach the request, "New chat" offers the assistants, and the chat's assistant and
parameters travel in the session file — through export and import too — while parameters
kept by an older version in ``chat_params.json`` still load."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from _window_helpers import send
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from desktop_agent.app._template_library import TemplateLibrary
from desktop_agent.app._tool_selection import DESKTOP_TOOLS
from desktop_agent.app.transfer import import_files, read_conversation, render, write_rendered
from desktop_agent.context import ContextConfig
from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.window import DesktopApp
from desktop_agent.ui.window._assistant_picker import EDIT_ITEM, AssistantMenu

pytestmark = pytest.mark.with_library  # the chat is saved: the library is open


def _pick(desktop: DesktopApp, assistant_id: str) -> None:
    picker = desktop.window.assistant_picker
    index = picker.findData(assistant_id)
    assert index >= 0, assistant_id
    picker.setCurrentIndex(index)
    picker.activated.emit(index)


async def _until(condition: Callable[[], object]) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met in time")


def _tool_names(body: dict[str, object]) -> set[str]:
    tools = body.get("tools") or []
    assert isinstance(tools, list)
    return {tool["function"]["name"] for tool in tools}


def _pirate_template() -> ContextConfig:
    return ContextConfig.model_validate(
        {
            "context_template": [
                {
                    "module_name": "rules",
                    "segments": [{"type": "text", "value": "Talk like a pirate."}],
                },
                {
                    "module_name": "input",
                    "segments": [{"type": "variable", "value": "current_user_input"}],
                    "role": "user",
                },
            ]
        }
    )


async def test_an_assistants_tools_and_template_reach_the_request(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    TemplateLibrary().save("Pirate", _pirate_template())
    await send(qtbot, desktop, "with every tool")
    assert _tool_names(server.chat_requests[-1].body) >= set(DESKTOP_TOOLS)

    for _ in range(2):  # the editor opened twice shows the same form
        _pick(desktop, EDIT_ITEM)
        editor = desktop.assistants.editor
        assert editor is not None and editor.isVisible()
        assert list(editor.tool_boxes) == list(DESKTOP_TOOLS)
        assert [editor.template.itemData(i) for i in range(editor.template.count())] == [
            "",
            "Pirate",
        ]
        editor.reject()
    _pick(desktop, EDIT_ITEM)
    editor = desktop.assistants.editor
    assert editor is not None
    editor.new()
    editor.name.setText("Reviewer")
    editor.tool_boxes["execute_shell_command"].setChecked(False)
    editor.tool_boxes["write_text_file"].setChecked(False)
    editor.template.setCurrentIndex(editor.template.findData("Pirate"))
    editor.save()
    editor.reject()
    picker = desktop.window.assistant_picker
    _pick(desktop, picker.itemData(picker.findText("✨ Reviewer")))
    await _until(
        lambda: desktop.service.input_module.config.context_template[0].module_name == "rules"
    )
    await send(qtbot, desktop, "review this")
    body = server.chat_requests[-1].body
    tools = _tool_names(body)
    assert "read_text_file" in tools
    assert not tools & {"execute_shell_command", "write_text_file"}
    assert "Talk like a pirate." in json.dumps(body["messages"])

    _pick(desktop, "writer")  # tools off: no tool at all
    await send(qtbot, desktop, "a sentence, please")
    assert _tool_names(server.chat_requests[-1].body) == set()


async def test_new_chat_offers_the_assistants(
    qtbot: QtBot,
    desktop: DesktopApp,
    server: OpenAICompatServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown: list[bool] = []
    show_under = AssistantMenu.show_under

    def recording(menu: AssistantMenu, widget: QWidget) -> None:
        show_under(menu, widget)
        shown.append(menu.isVisible())

    monkeypatch.setattr(AssistantMenu, "show_under", recording)
    _pick(desktop, "translator")
    await send(qtbot, desktop, "Bonjour")
    button = desktop.window.sidebar.new_chat_button
    for count in (1, 2):  # offered each time the button starts a chat
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        await _until(lambda: len(shown) == count)  # noqa: B023
        assert shown[-1]  # popped up
        menu = desktop.assistants.menu
        assert menu is not None
        default = menu.defaultAction()
        assert default is not None and default.data() == "translator"  # the last one
        assert menu.activeAction() is default  # Enter keeps it
        labels = [a.text() for a in menu.actions() if a.data()]
        assert labels[:4] == ["🤖 Assistant", "💻 Coder", "✍️ Writer", "🌐 Translator"]
        menu.close()
    assert menu is not None
    coder = next(a for a in menu.actions() if a.data() == "coder")
    coder.trigger()
    await send(qtbot, desktop, "a new chat")
    assert "expert programmer" in str(server.chat_requests[-1].messages[0]["content"])
    assert desktop.conversation.entries[-1].msg is not None
    assert desktop.conversation.entries[-1].msg.name == "Coder"


async def test_assistant_and_parameters_travel_with_an_exported_chat(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, tmp_path: Path
) -> None:
    _pick(desktop, "coder")
    dialog = desktop.open_chat_params()
    dialog.page.max_tokens.setValue(321)
    dialog.accept()
    await send(qtbot, desktop, "export me")
    switcher = desktop.sessions.switcher
    await _until(lambda: switcher.active_id is not None)
    original = switcher.active_id
    assert original is not None and switcher.library is not None
    await switcher.save_now()
    parts = await switcher.library.read_parts(original)
    assert parts["chat"]["assistant"] == "coder"
    assert parts["chat"]["params"] == {"max_output_tokens": 321}

    exported = tmp_path / "chat.json"
    conversation = await read_conversation(switcher.library, original)
    write_rendered(render(conversation, "json"), exported)
    await switcher.new_chat()
    _pick(desktop, "writer")
    report = await import_files(switcher.library, [exported], duplicates="copy")
    (imported,) = report.files[0].imported
    await switcher.open(imported.session_id)
    assert desktop.window.assistant_picker.currentData() == "coder"
    assert desktop.chat_params.current == {"max_output_tokens": 321}
    await send(qtbot, desktop, "after the import")
    body = server.chat_requests[-1].body
    assert body["max_tokens"] == 321 and "expert programmer" in str(body["messages"][0])


async def test_parameters_of_the_old_sidecar_file_still_load(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    await send(qtbot, desktop, "an old chat")
    switcher = desktop.sessions.switcher
    await _until(lambda: switcher.active_id is not None)
    old = switcher.active_id
    assert old is not None
    sidecar = desktop_agent_home / "chat_params.json"
    sidecar.write_text(json.dumps({old: {"max_output_tokens": 77, "top_p": 0.5}}))
    await switcher.new_chat()
    await switcher.open(old)
    assert desktop.chat_params.current == {"max_output_tokens": 77, "top_p": 0.5}
    await send(qtbot, desktop, "migrated")
    body = server.chat_requests[-1].body
    assert (body["max_tokens"], body["top_p"]) == (77, 0.5)
    assert json.loads(sidecar.read_text()) == {}  # moved into the session
    assert switcher.library is not None
    await switcher.save_now()
    parts = await switcher.library.read_parts(old)
    assert parts["chat"]["params"] == {"max_output_tokens": 77, "top_p": 0.5}


async def test_the_header_is_in_the_tab_order_and_has_shortcuts(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    from desktop_agent.ui.window._shortcuts import SHORTCUTS

    window = desktop.window
    stops = window.tab_stops()
    header = [window.assistant_picker, window.model_picker, window.params_button]
    positions = [stops.index(widget) for widget in header]
    assert positions == sorted(positions)
    assert stops.index(window.composer.input) < positions[0]
    window.composer.input.setFocus()
    window.focusNextPrevChild(True)  # the composer's buttons, then the header
    while not window.assistant_picker.hasFocus():
        assert window.focusNextPrevChild(True)
    window.focusNextPrevChild(True)
    assert window.model_picker.hasFocus()

    listed = {s.action: s.keys for s in SHORTCUTS}
    assert listed["model_picker"] == ("Ctrl+Shift+L",)
    assert listed["assistant_picker"] == ("Ctrl+Shift+A",)
    assert listed["chat_params"] == ("Ctrl+Shift+P",)
    for action in ("model_picker", "assistant_picker", "chat_params"):
        assert window.shortcuts.bound[action]  # bound on the window
    window.shortcuts.bound["model_picker"][0].activated.emit()
    assert window.model_picker.popup.isVisible()
    await _until(lambda: window.model_picker.popup.list.count() > 1)
    window.model_picker.popup.hide()
    window.shortcuts.bound["chat_params"][0].activated.emit()
    from desktop_agent.ui.window._chat_params_dialog import ChatParamsDialog

    dialogs = [d for d in window.findChildren(ChatParamsDialog) if d.isVisible()]
    assert len(dialogs) == 1
    dialogs[0].reject()
