"""The ``AskPermission`` callback the desktop tools call: a dialog, answered asynchronously.

The dialog is shown with ``open()`` and awaited through a future (never ``exec()`` inside
a coroutine). If the turn is stopped while the question is open, the awaiting task is
cancelled, the dialog closes and the call is denied. The dialog is window-modal, so it
has its own "Stop the answer" button (:attr:`PermissionController.stop_requested`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from desktop_agent.ui._qt_async import dialog_result
from desktop_agent.ui.permissions._permission_dialog import Decision, PermissionDialog

STOP_WAIT = 2.0
"""Seconds "Stop the answer" waits to be cancelled before it just denies."""


class PermissionController(QObject):
    """Asks the user about tool calls; ``dialog_opened`` lets tests (and hooks) answer."""

    dialog_opened = Signal(object)
    stop_requested = Signal()
    """The user chose "Stop the answer" in a dialog (the call itself is denied)."""
    answered = Signal(str)
    """A question was answered with this decision."""

    def __init__(self, parent_widget: QWidget | None = None) -> None:
        super().__init__()
        self._parent_widget = parent_widget

    def set_parent_widget(self, widget: QWidget) -> None:
        """The window the dialogs belong to."""
        self._parent_widget = widget

    async def ask(self, request: Any) -> Decision:
        """Show the question and return the user's decision (``"deny"`` if closed)."""
        dialog = PermissionDialog(request, self._parent_widget)
        future = dialog_result(dialog)
        self.dialog_opened.emit(dialog)
        try:
            await future
            self.answered.emit(dialog.decision)
            if dialog.stop_requested:
                self.stop_requested.emit()
                # The stop cancels the turn, and with it this question, here: the tool
                # then ends "interrupted", as when Stop is pressed while a tool runs.
                await asyncio.sleep(STOP_WAIT)
            return dialog.decision
        finally:
            dialog.hide()
            dialog.deleteLater()
