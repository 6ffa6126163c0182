"""The ``AskPermission`` callback the desktop tools call: a dialog, answered asynchronously.

The dialog is shown with ``open()`` and awaited through a future (never ``exec()`` inside
a coroutine). If the turn is stopped while the question is open, the awaiting task is
cancelled, the dialog closes and the call is denied.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from desktop_agent.ui._qt_async import dialog_result
from desktop_agent.ui.permissions._permission_dialog import Decision, PermissionDialog


class PermissionController(QObject):
    """Asks the user about tool calls; ``dialog_opened`` lets tests (and hooks) answer."""

    dialog_opened = Signal(object)

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
            return dialog.decision
        finally:
            dialog.hide()
            dialog.deleteLater()
