"""The tool permission question: allow once, allow always, deny, closed, cancelled."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from shiboken6 import isValid

from desktop_agent.tool import PermissionRequest
from desktop_agent.ui.permissions import PermissionController, PermissionDialog

REQUEST = PermissionRequest(
    "execute_shell_command", {"command": "ls -la", "timeout": 30}, "Run the shell command: ls -la"
)


async def _ask(
    controller: PermissionController, wait_signal: Callable[..., Any]
) -> tuple[asyncio.Task[str], PermissionDialog]:
    opened = wait_signal(controller.dialog_opened)
    task = asyncio.create_task(controller.ask(REQUEST))
    (dialog,) = await opened
    return task, dialog


@pytest.mark.parametrize(
    ("button", "decision"),
    [
        ("allow_once_button", "allow_once"),
        ("allow_always_button", "allow_always"),
        ("deny_button", "deny"),
    ],
)
async def test_buttons_answer(
    qtbot: QtBot, wait_signal: Callable[..., Any], button: str, decision: str
) -> None:
    controller = PermissionController()
    task, dialog = await _ask(controller, wait_signal)
    assert dialog.isVisible()
    qtbot.mouseClick(getattr(dialog, button), Qt.MouseButton.LeftButton)
    assert await asyncio.wait_for(task, 2) == decision


async def test_closing_the_dialog_denies(wait_signal: Callable[..., Any]) -> None:
    controller = PermissionController()
    task, dialog = await _ask(controller, wait_signal)
    dialog.close()
    assert await asyncio.wait_for(task, 2) == "deny"


async def test_cancelled_question_closes_the_dialog(wait_signal: Callable[..., Any]) -> None:
    controller = PermissionController()
    task, dialog = await _ask(controller, wait_signal)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not isValid(dialog) or not dialog.isVisible()


def test_dialog_shows_tool_summary_and_arguments(qtbot: QtBot) -> None:
    dialog = PermissionDialog(REQUEST)
    qtbot.addWidget(dialog)
    texts = " ".join(label.text() for label in dialog.findChildren(type(dialog.summary_label)))
    assert "execute_shell_command" in texts and "Run the shell command: ls -la" in texts
    assert '"command": "ls -la"' in dialog.arguments_view.toPlainText()
    assert dialog.deny_button.isDefault()
