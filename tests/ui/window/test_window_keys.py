"""Keyboard and focus: Tab order, shortcuts (one registry, an overlay), focus after
Stop and dialogs, Enter without a model, the "System" theme."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from _window_helpers import env_for, send
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QDialog
from pytestqt.qtbot import QtBot

from desktop_agent.message import Msg
from desktop_agent.testing import OpenAICompatServer, ScriptedReply
from desktop_agent.ui import theme
from desktop_agent.ui.settings import SettingsDialog
from desktop_agent.ui.window import DesktopApp
from desktop_agent.ui.window._shortcuts import SHORTCUTS, Shortcut, ShortcutMap


@pytest.fixture
async def desktop(qtbot: QtBot, server: OpenAICompatServer) -> AsyncIterator[DesktopApp]:
    app = DesktopApp(environ=env_for(server), local_servers=[])
    qtbot.addWidget(app.window)
    await app.start()
    app.window.activateWindow()
    yield app
    await app.aclose()


def _press(qtbot: QtBot, desktop: DesktopApp, keys: str) -> None:
    """Trigger the window shortcut bound to ``keys`` as a key press would."""
    for shortcuts in desktop.window.shortcuts.bound.values():
        for shortcut in shortcuts:
            if shortcut.key().toString() == keys:
                shortcut.activated.emit()
                return
    raise AssertionError(f"{keys} is not bound")


async def test_tab_goes_composer_send_chat_sidebar(qtbot: QtBot, desktop: DesktopApp) -> None:
    window = desktop.window
    desktop.conversation.reset([Msg("user", "hi", "user"), Msg("Friday", "Hello!", "assistant")])
    desktop.chat_view.flush()
    qtbot.keyClicks(window.composer.input, "draft")
    stops = window.tab_stops()
    order = [
        window.composer.input,
        window.composer.send_button,
        desktop.chat_view.list,
        window.sidebar.new_chat_button,
        window.sidebar.search,
    ]
    positions = [stops.index(widget) for widget in order]
    assert positions == sorted(positions)
    assert all(widget.isVisible() for widget in stops)  # no invisible stops
    window.composer.input.setFocus()
    visited = []
    for _ in range(len(stops)):
        window.focusNextPrevChild(True)
        visited.append(QApplication.focusWidget())
    assert visited[-1] is window.composer.input  # around again
    assert desktop.chat_view.list in visited and window.sidebar.search in visited


async def test_message_texts_are_not_tab_stops(qtbot: QtBot, desktop: DesktopApp) -> None:
    desktop.conversation.reset([Msg("Friday", "Some *text*.", "assistant")])
    desktop.chat_view.flush()
    from desktop_agent.ui.chat._document_view import DocumentView

    views = desktop.chat_view.findChildren(DocumentView)
    assert views
    assert all(not (v.focusPolicy().value & Qt.FocusPolicy.TabFocus.value) for v in views)
    assert not any(v in desktop.window.tab_stops() for v in views)


@pytest.mark.parametrize("dark", [False, True])
async def test_the_focused_send_button_looks_different(
    qtbot: QtBot, desktop: DesktopApp, dark: bool
) -> None:
    window = desktop.window
    theme_name = "dark" if dark else "light"
    desktop.settings.apply(desktop.settings.settings.model_copy(update={"theme": theme_name}))
    qtbot.keyClicks(window.composer.input, "draft")
    button = window.composer.send_button
    plain = button.grab().toImage()
    button.setFocus(Qt.FocusReason.TabFocusReason)
    assert button.hasFocus()
    ringed = button.grab().toImage()
    assert plain != ringed
    window.composer.input.setFocus()
    assert window.composer.property("focused") is True
    desktop.settings.apply(desktop.settings.settings.model_copy(update={"theme": "light"}))


async def test_shortcuts_open_settings_search_and_the_overlay(
    qtbot: QtBot, desktop: DesktopApp, wait_signal: Any
) -> None:
    window = desktop.window
    opened = wait_signal(desktop.settings.dialog_opened)
    _press(qtbot, desktop, "Ctrl+,")
    (dialog,) = await opened
    assert isinstance(dialog, SettingsDialog)
    dialog.reject()
    await asyncio.sleep(0)
    assert window.focusWidget() is window.composer.input  # back to typing
    for keys in ("Ctrl+K", "Ctrl+Shift+F"):
        window.composer.input.setFocus()
        _press(qtbot, desktop, keys)
        assert window.focusWidget() is window.sidebar.search
    for keys in ("F1", "Ctrl+/"):
        _press(qtbot, desktop, keys)
        overlay = window.shortcut_overlay
        assert overlay.isVisible()
        described = [what for _keys, what in overlay.rows]
        assert described == [s.description for s in SHORTCUTS]
        qtbot.keyClick(overlay, Qt.Key.Key_Escape)
        assert not overlay.isVisible()


def test_the_registry_is_one_list_others_append_to(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QWidget

    widget = QWidget()
    qtbot.addWidget(widget)
    extra = [*SHORTCUTS, Shortcut(("Ctrl+Alt+J",), "Jump somewhere", "example_action")]
    shortcuts = ShortcutMap(widget, extra)
    fired: list[str] = []
    (bound,) = shortcuts.connect("example_action", lambda: fired.append("example"))
    bound.activated.emit()
    assert fired == ["example"]
    assert shortcuts.listed()[-1].description == "Jump somewhere"
    with pytest.raises(ValueError, match="'nothing'"):
        shortcuts.connect("nothing", lambda: None)
    keys = [k for s in SHORTCUTS for k in s.keys]
    assert "Ctrl+R" in keys and "Up" in keys  # the conversation controls (issue 13)


async def test_copy_last_answer(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    server.add_reply(ScriptedReply("The answer is 42."))
    await asyncio.wait_for(send(qtbot, desktop, "question"), 10)
    QGuiApplication.clipboard().setText("")
    _press(qtbot, desktop, "Ctrl+Shift+C")
    assert QGuiApplication.clipboard().text() == "The answer is 42."


async def test_focus_returns_to_the_composer_after_stop(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: Any
) -> None:
    server.add_reply(ScriptedReply("slow", first_chunk_delay=30))
    send(qtbot, desktop, "go")
    await server.wait_for_request()
    window = desktop.window
    window.composer.send_button.setFocus()
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)  # Stop
    assert not window.composer.busy
    assert window.focusWidget() is window.composer.input


async def test_focus_returns_after_the_attach_dialog(qtbot: QtBot, desktop: DesktopApp) -> None:
    window = desktop.window
    for _ in range(2):
        window.composer.attach_button.setFocus()
        dialog = window.composer.open_file_dialog()
        assert isinstance(dialog, QDialog)
        dialog.reject()
        assert window.focusWidget() is window.composer.input


async def test_enter_without_a_model_says_why_and_leads_to_settings(
    qtbot: QtBot, wait_signal: Any
) -> None:
    desktop = DesktopApp(environ={}, local_servers=[])
    qtbot.addWidget(desktop.window)
    await desktop.start()
    window = desktop.window
    qtbot.keyClicks(window.composer.input, "hello")
    qtbot.keyClick(window.composer.input, Qt.Key.Key_Return)
    assert window.banner.isVisible()
    assert "Connect a model in Settings" in window.banner.label.text()
    assert window.banner.settings_button.isVisible()
    opened = wait_signal(desktop.settings.dialog_opened)
    qtbot.mouseClick(window.banner.settings_button, Qt.MouseButton.LeftButton)
    (dialog,) = await opened
    dialog.reject()
    await desktop.aclose()


async def test_the_system_theme_follows_the_desktop(
    qtbot: QtBot, desktop: DesktopApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    desktop_dark = [True]
    monkeypatch.setattr(theme, "system_prefers_dark", lambda: desktop_dark[0])
    desktop.settings.apply(desktop.settings.settings.model_copy(update={"theme": "system"}))
    assert desktop.chat_view.dark
    desktop_dark[0] = False
    desktop._on_color_scheme(Qt.ColorScheme.Light)  # what the style hints' signal calls
    assert not desktop.chat_view.dark
    desktop.settings.apply(desktop.settings.settings.model_copy(update={"theme": "light"}))


async def test_the_settings_dialog_opens_any_number_of_times(
    qtbot: QtBot, desktop: DesktopApp, wait_signal: Any
) -> None:
    from PySide6.QtCore import QCoreApplication, QEvent

    for _ in range(2):
        opened = wait_signal(desktop.settings.dialog_opened)
        _press(qtbot, desktop, "Ctrl+,")
        (dialog,) = await opened
        assert dialog.isVisible()
        dialog.reject()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        assert desktop.window.focusWidget() is desktop.window.composer.input


async def test_focus_returns_after_the_template_editor_closes(
    qtbot: QtBot, desktop: DesktopApp
) -> None:
    window = desktop.window
    for _ in range(2):
        window.sidebar.template_button.setFocus()
        _press(qtbot, desktop, "Ctrl+T")
        editor = desktop.template_editor.editor
        assert editor is not None and editor.isVisible()
        editor.close()
        assert window.focusWidget() is window.composer.input
