"""No key pressed by reflex grants a tool: Deny is focused and default, Enter/Space/Esc
deny, allowing takes a click or its own key; Stop from the dialog stops the turn; the
dialog works twice in a row."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop_agent.tool import PermissionRequest
from desktop_agent.ui.permissions import PermissionController, PermissionDialog

REQUEST = PermissionRequest(
    "write_text_file",
    {"path": "notes.txt", "content": "x", "working_folder": "/home/ada"},
    "Write 1 characters to the file /home/ada/notes.txt, replacing it if it exists.",
)


async def _open(
    controller: PermissionController, wait_signal: Callable[..., Any]
) -> tuple[asyncio.Task[str], PermissionDialog]:
    opened = wait_signal(controller.dialog_opened)
    task = asyncio.create_task(controller.ask(REQUEST))
    (dialog,) = await opened
    return task, dialog


@pytest.mark.parametrize(
    "key", [Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space, Qt.Key.Key_Escape, Qt.Key.Key_Y]
)
async def test_reflex_keys_deny(qtbot: QtBot, wait_signal: Callable[..., Any], key: Qt.Key) -> None:
    controller = PermissionController()
    task, dialog = await _open(controller, wait_signal)
    await asyncio.sleep(0.05)  # shown and focused
    assert dialog.focusWidget() is dialog.deny_button
    assert dialog.deny_button.isDefault()
    assert not dialog.allow_once_button.autoDefault()
    assert not dialog.allow_always_button.autoDefault()
    target = QApplication.focusWidget() or dialog
    qtbot.keyClick(target, key)
    if key == Qt.Key.Key_Y:
        assert not task.done()  # a letter does nothing at all
        dialog.reject()
    assert await asyncio.wait_for(task, 2) == "deny"


async def test_tab_never_lands_on_an_allow_button(
    qtbot: QtBot, wait_signal: Callable[..., Any]
) -> None:
    controller = PermissionController()
    task, dialog = await _open(controller, wait_signal)
    await asyncio.sleep(0.05)
    for _ in range(4):
        qtbot.keyClick(QApplication.focusWidget() or dialog, Qt.Key.Key_Tab)
        assert QApplication.focusWidget() not in (
            dialog.allow_once_button,
            dialog.allow_always_button,
        )
    dialog.reject()
    assert await asyncio.wait_for(task, 2) == "deny"


async def test_allowing_takes_its_own_key(qtbot: QtBot, wait_signal: Callable[..., Any]) -> None:
    controller = PermissionController()
    task, dialog = await _open(controller, wait_signal)
    await asyncio.sleep(0.05)
    qtbot.keyClick(dialog, Qt.Key.Key_O, Qt.KeyboardModifier.AltModifier)
    assert await asyncio.wait_for(task, 2) == "allow_once"


async def test_the_dialog_works_twice_in_a_row(
    qtbot: QtBot, wait_signal: Callable[..., Any]
) -> None:
    controller = PermissionController()
    answers = []
    for button in ("allow_always_button", "deny_button"):
        task, dialog = await _open(controller, wait_signal)
        assert dialog.isVisible()
        qtbot.mouseClick(getattr(dialog, button), Qt.MouseButton.LeftButton)
        answers.append(await asyncio.wait_for(task, 2))
    assert answers == ["allow_always", "deny"]


async def test_stop_in_the_dialog_asks_to_stop_the_turn(
    qtbot: QtBot, wait_signal: Callable[..., Any]
) -> None:
    controller = PermissionController()
    stops: list[bool] = []
    task, dialog = await _open(controller, wait_signal)

    def on_stop() -> None:  # what the window does: stop the turn, which cancels the question
        stops.append(True)
        task.cancel()

    controller.stop_requested.connect(on_stop)
    qtbot.mouseClick(dialog.stop_button, Qt.MouseButton.LeftButton)
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 2)
    assert stops == [True]
