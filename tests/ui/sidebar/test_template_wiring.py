"""The template editor as the window opens it: Ctrl+T / the sidebar button, Apply, sessions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from _sidebar_helpers import send
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.app import TurnFinished
from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.window import DesktopApp

NEW_PERSONA = "You are Ada, a terse assistant who answers in haiku."


def _with_new_persona(data: dict[str, Any]) -> dict[str, Any]:
    first = data["context_template"][0]
    first["segments"] = [{"type": "text", "value": NEW_PERSONA}]
    return data


def _system_text(body: dict[str, Any]) -> str:
    parts = []
    for message in body["messages"]:
        if message["role"] == "system":
            content = message["content"]
            parts += [content] if isinstance(content, str) else [c["text"] for c in content]
    return "\n".join(parts)


async def test_ctrl_t_edits_the_active_sessions_template_and_apply_reaches_the_next_turn(
    qtbot: QtBot,
    desktop: DesktopApp,
    server: OpenAICompatServer,
    desktop_agent_home: Path,
    wait_until: Any,
) -> None:
    assert isinstance(await send(qtbot, desktop, "first question"), TurnFinished)
    assert NEW_PERSONA not in _system_text(server.chat_requests[-1].body)
    session_id = desktop.sessions.switcher.active_id
    assert session_id is not None

    qtbot.keyClick(desktop.window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    editor = desktop.template_editor.editor
    assert editor is not None and editor.isVisible()
    assert editor.input_module is desktop.service.input_module

    editor.document.replace(_with_new_persona(editor.document.to_data()))
    assert editor.apply()
    session_file = desktop_agent_home / "sessions" / f"{session_id}.json"

    def saved_persona() -> bool:
        return NEW_PERSONA.encode() in session_file.read_bytes()

    await wait_until(saved_persona, timeout=5)
    saved = orjson.loads(session_file.read_bytes())
    assert saved["agent"]["input_module"]["config"]["context_template"][0]["segments"] == [
        {"type": "text", "value": NEW_PERSONA}
    ]

    await send(qtbot, desktop, "second question")
    assert NEW_PERSONA in _system_text(server.chat_requests[-1].body)


async def test_the_sidebar_button_opens_an_editor_for_each_new_chat(
    qtbot: QtBot, desktop: DesktopApp, wait_until: Any
) -> None:
    qtbot.mouseClick(desktop.window.sidebar.template_button, Qt.MouseButton.LeftButton)
    first = desktop.template_editor.editor
    assert first is not None and first.input_module is desktop.service.input_module

    await send(qtbot, desktop, "hello")
    desktop.window.sidebar.new_chat_requested.emit()
    await wait_until(lambda: desktop.service.input_module is not first.input_module)
    await wait_until(lambda: not first.isVisible())  # the old session's editor closes
    qtbot.mouseClick(desktop.window.sidebar.template_button, Qt.MouseButton.LeftButton)
    second = desktop.template_editor.editor
    assert second is not None and second is not first and second.isVisible()
    assert second.input_module is desktop.service.input_module
