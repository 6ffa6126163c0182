"""A chat in the Trash shows read-only, with a visible Restore; the composer is off there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _sidebar_helpers import click_row, open_desktop, save_session, titles
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.testing import OpenAICompatServer


async def test_a_trashed_chat_shows_read_only_and_restores(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: Any, desktop_agent_home: Path
) -> None:
    kept = await save_session(desktop_agent_home, ["Keep me", "Kept."])
    gone = await save_session(desktop_agent_home, ["Plan a trip to Lisbon", "Start at Alfama."])
    app = await open_desktop(qtbot, server, wait_until)
    window, sidebar = app.window, app.window.sidebar
    try:
        sidebar.delete_requested.emit(gone)
        await wait_until(lambda: "Plan a trip to Lisbon" not in titles(app))
        qtbot.mouseClick(sidebar.trash_button, Qt.MouseButton.LeftButton)
        await wait_until(lambda: sidebar.model.mode == "trash" and len(titles(app)) == 1)

        click_row(qtbot, app, gone)
        await wait_until(lambda: window.trash_preview_shown)
        preview = window.trash_preview
        assert preview.isVisible() and preview.restore_button.isVisible()
        assert preview.title.text() == "Plan a trip to Lisbon"
        texts = [e.msg.get_text_content() for e in preview.conversation.entries if e.msg]
        assert texts == ["Plan a trip to Lisbon", "Start at Alfama."]
        assert not window.composer.isEnabled()  # nothing can be sent into a trashed chat
        assert app.conversation.entries == [] or app.sessions.switcher.active_id != gone

        qtbot.mouseClick(preview.restore_button, Qt.MouseButton.LeftButton)
        await wait_until(lambda: app.sessions.switcher.active_id == gone, timeout=10)
        assert not window.trash_preview_shown
        assert window.composer.isEnabled()
        assert not sidebar.in_trash
        assert "Plan a trip to Lisbon" in titles(app) and kept
    finally:
        await app.aclose()


async def test_leaving_the_trash_leaves_the_preview(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: Any, desktop_agent_home: Path
) -> None:
    gone = await save_session(desktop_agent_home, ["Old chat", "Old answer."])
    app = await open_desktop(qtbot, server, wait_until)
    window, sidebar = app.window, app.window.sidebar
    try:
        sidebar.delete_requested.emit(gone)
        await wait_until(lambda: not titles(app))
        qtbot.mouseClick(sidebar.trash_button, Qt.MouseButton.LeftButton)
        await wait_until(lambda: sidebar.model.mode == "trash" and len(titles(app)) == 1)
        click_row(qtbot, app, gone)
        await wait_until(lambda: window.trash_preview_shown)
        qtbot.mouseClick(sidebar.trash_button, Qt.MouseButton.LeftButton)
        assert not window.trash_preview_shown
        assert window.composer.isEnabled()
    finally:
        await app.aclose()


async def test_the_empty_trash_question_opens_any_number_of_times(
    qtbot: QtBot,
    server: OpenAICompatServer,
    wait_until: Any,
    wait_signal: Any,
    desktop_agent_home: Path,
) -> None:
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QMessageBox

    gone = await save_session(desktop_agent_home, ["Old chat", "Old answer."])
    app = await open_desktop(qtbot, server, wait_until)
    sidebar = app.window.sidebar
    try:
        sidebar.delete_requested.emit(gone)
        await wait_until(lambda: not titles(app))
        qtbot.mouseClick(sidebar.trash_button, Qt.MouseButton.LeftButton)
        await wait_until(lambda: sidebar.model.mode == "trash" and len(titles(app)) == 1)
        for answer in ("Cancel", "Empty trash"):
            asked = wait_signal(app.sessions.dialog_opened)
            qtbot.mouseClick(sidebar.empty_trash_button, Qt.MouseButton.LeftButton)
            (box,) = await asked
            assert isinstance(box, QMessageBox) and box.isVisible()
            next(b for b in box.buttons() if b.text() == answer).click()
            await wait_until(lambda: app.sessions.dialog is None)
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
            assert app.window.focusWidget() is app.window.composer.input
        await wait_until(lambda: not titles(app))
    finally:
        await app.aclose()
