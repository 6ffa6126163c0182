"""Parameters of one chat (the header's Parameters) against the loopback server: they reach
the request body, a new chat starts with the defaults, and an opened chat gets its own back."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from _window_helpers import send, turn_end
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.window import DesktopApp

pytestmark = pytest.mark.with_library  # the chat is saved: the library is open


async def _until(condition: object) -> None:
    assert callable(condition)
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met in time")


async def test_a_chats_own_parameters(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    dialog = desktop.open_chat_params()
    dialog.temperature.setValue(1.1)
    dialog.page.max_tokens.setValue(100)
    dialog.page.effort.setCurrentIndex(dialog.page.effort.findData("low"))
    dialog.accept()
    await send(qtbot, desktop, "first")
    body = server.chat_requests[-1].body
    assert (body["temperature"], body["max_tokens"], body["reasoning_effort"]) == (1.1, 100, "low")
    switcher = desktop.sessions.switcher
    await _until(lambda: switcher.active_id is not None)
    first = switcher.active_id
    assert first is not None
    await send(qtbot, desktop, "again")  # the chat became a session: still its parameters
    assert server.chat_requests[-1].body["max_tokens"] == 100

    await switcher.new_chat()
    await send(qtbot, desktop, "a new chat")
    body = server.chat_requests[-1].body
    assert body["temperature"] == 0.7 and "max_tokens" not in body  # the defaults

    await switcher.open(first)
    await send(qtbot, desktop, "back")
    assert server.chat_requests[-1].body["max_tokens"] == 100
    dialog = desktop.open_chat_params()
    assert dialog.page.max_tokens.value() == 100
    dialog.use_defaults()
    await send(qtbot, desktop, "defaults now")
    assert "max_tokens" not in server.chat_requests[-1].body


async def test_the_chats_context_budget_checks_its_documents(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, tmp_path: Path
) -> None:
    composer = desktop.window.composer
    assert composer.context_tokens == 128_000  # Settings → Parameters' default
    dialog = desktop.open_chat_params()
    dialog.page.context_budget.setValue(2_000)
    dialog.accept()
    assert composer.context_tokens == 2_000
    notes = tmp_path / "notes.md"
    notes.write_text("word " * 2_000)
    composer.add_files([notes])
    composer.document_chips()[0].wait()
    assert composer.budget_warning.isVisible()
    assert "about 2,000 tokens" in composer.budget_warning.text()
    ended = turn_end(desktop)
    qtbot.keyClicks(composer.input, "Summarize")
    qtbot.mouseClick(composer.send_button, Qt.MouseButton.LeftButton)
    assert not server.chat_requests  # refused once: "Press Send again"
    qtbot.mouseClick(composer.send_button, Qt.MouseButton.LeftButton)
    await ended
    assert "word word" in str(server.chat_requests[-1].body["messages"][-1]["content"])

    defaults = desktop.settings.settings.model_copy(update={"context_budget": 64_000})
    desktop.settings.apply(defaults)
    assert composer.context_tokens == 2_000  # the chat's own wins
    await desktop.sessions.switcher.new_chat()
    assert composer.context_tokens == 64_000  # a new chat: the default


async def test_enter_applies_the_parameters_dialog_every_time_it_opens(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    for tokens in (100, 200):  # opened twice: Enter applies each time
        dialog = desktop.open_chat_params()
        dialog.page.max_tokens.setValue(tokens)
        qtbot.keyClick(dialog.page.max_tokens, Qt.Key.Key_Return)
        assert not dialog.isVisible()
        await send(qtbot, desktop, f"at most {tokens}")
        assert server.chat_requests[-1].body["max_tokens"] == tokens
    dialog = desktop.open_chat_params()
    dialog.page.max_tokens.setValue(5)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)  # Esc leaves the chat's parameters as they were
    assert not dialog.isVisible()
    await send(qtbot, desktop, "unchanged")
    assert server.chat_requests[-1].body["max_tokens"] == 200
