"""The window's side of the conversation controls: runs Edit, Regenerate, Delete (with an
Undo bar) and version switches on the chat service, and binds their keys.

Keys (listed in the F1 overlay from the shortcut registry): Up in an empty composer edits
the last user message, Ctrl+R regenerates the last answer, Alt+Left / Alt+Right show the
previous / next version of the focused message pair (the last one when none has focus).
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QFrame, QHBoxLayout, QPushButton, QWidget

from desktop_agent._logging import logger
from desktop_agent.app import ChatService, Conversation, fetch_model_ids
from desktop_agent.ui._plain import plain_label
from desktop_agent.ui._qt_async import TaskSet
from desktop_agent.ui.chat._message_widget import MessageRow

if TYPE_CHECKING:
    from desktop_agent.ui.chat import ChatView
    from desktop_agent.ui.window._main_window import MainWindow

UNDO_SECONDS = 10


class UndoBar(QFrame):
    """ "Exchange deleted · Undo", floating at the bottom of the chat for a few seconds."""

    def __init__(self, parent: QWidget) -> None:
        """Create it hidden over ``parent`` (the chat pane)."""
        super().__init__(parent)
        self.setObjectName("undoBar")
        self.setStyleSheet(
            "#undoBar { background: #333; border-radius: 8px; }"
            "#undoBar QLabel { color: white; }"
            "#undoBar QPushButton { color: #9cf; background: transparent; border: none;"
            " font-weight: 600; padding: 2px 6px; }"
        )
        row = QHBoxLayout(self)
        row.setContentsMargins(14, 6, 8, 6)
        self.label = plain_label(QCoreApplication.translate("UndoBar", "Exchange deleted"), self)
        self.undo_button = QPushButton(QCoreApplication.translate("UndoBar", "Undo"), self)
        self.undo_button.setObjectName("undoDelete")
        self.undo_button.setCursor(Qt.CursorShape.PointingHandCursor)
        row.addWidget(self.label)
        row.addWidget(self.undo_button)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.hide)
        self.hide()

    def show_for(self, seconds: int = UNDO_SECONDS) -> None:
        """Show it at the bottom centre of the pane; it hides after ``seconds``."""
        self.adjustSize()
        parent = self.parentWidget()
        if parent is not None:
            x = (parent.width() - self.width()) // 2
            self.move(max(0, x), max(0, parent.height() - self.height() - 56))
        self.show()
        self.raise_()
        self._timer.start(seconds * 1000)


class VersionsController(QObject):
    """Wires a chat pane's version controls to the chat service's versions."""

    def __init__(self, service: ChatService, chat_view: ChatView, window: MainWindow) -> None:
        super().__init__()
        self.service = service
        self.chat_view = chat_view
        self.window = window
        self.conversation: Conversation = chat_view.conversation
        self._tasks = TaskSet()
        versions = service.versions
        actions = chat_view.context.versions
        actions.enable(versions.user_versions, versions.answer_versions)
        actions.models = self._models
        actions.current_model = lambda: service.provider.model if service.provider else ""
        actions.edit_submitted.connect(self.edit)
        actions.regenerate_requested.connect(self.regenerate)
        actions.delete_requested.connect(self.delete)
        actions.switch_requested.connect(self.switch)
        self.undo_bar = UndoBar(chat_view)
        self.undo_bar.undo_button.clicked.connect(self.undo_delete)
        window.shortcuts.connect("regenerate", self.regenerate_last)
        window.shortcuts.connect("version_previous", lambda: self.switch_focused(-1))
        window.shortcuts.connect("version_next", lambda: self.switch_focused(1))
        window.composer.input.installEventFilter(self)

    # -- requests from the rows --------------------------------------------------------

    def edit(self, msg_id: str, text: str) -> None:
        """Resend the user message ``msg_id`` with ``text`` (a new version of it)."""
        self.chat_view.scroll_to_latest()
        self._run(self.service.versions.edit(msg_id, text), "versions-edit")

    def regenerate(self, msg_id: str, model: str = "") -> None:
        """Answer the turn of ``msg_id`` again (with ``model``, if given)."""
        self.chat_view.scroll_to_latest()
        self._run(self.service.versions.regenerate(msg_id, model or None), "versions-regenerate")

    def delete(self, msg_id: str) -> None:
        """Delete the turn of ``msg_id``; the Undo bar offers it back."""
        self._run(self._delete(msg_id), "versions-delete")

    async def _delete(self, msg_id: str) -> None:
        if await self.service.versions.delete(msg_id):
            self.undo_bar.show_for()

    def undo_delete(self) -> None:
        """Put the deleted turn back."""
        self.undo_bar.hide()
        self._run(self.service.versions.undo_delete(), "versions-undo")

    def switch(self, user_id: str, delta: int, answer: bool) -> None:
        """Show another version of a turn's user message (or of its answer)."""
        self._run(self.service.versions.switch(user_id, delta, answer=answer), "versions-switch")

    # -- keys --------------------------------------------------------------------------

    def edit_last(self) -> bool:
        """Open the editor on the last user message; whether there is one."""
        entries = self.conversation.entries
        for row in range(len(entries) - 1, -1, -1):
            msg = entries[row].msg
            if msg is not None and msg.role == "user":
                actions = self.chat_view.context.versions
                actions.editing.setdefault(msg.id, msg.get_text_content() or "")
                self.chat_view.list.scroll_to_row(row)
                self.chat_view.flush()
                widget = self.chat_view.list.row_widget(row)
                if isinstance(widget, MessageRow) and widget.version_bar is not None:
                    widget.version_bar.start_edit()
                return True
        return False

    def regenerate_last(self) -> bool:
        """Ctrl+R: answer the last user message again; whether there is one."""
        for entry in reversed(self.conversation.entries):
            msg = entry.msg
            if msg is not None and msg.role == "user":
                self.regenerate(msg.id)
                return True
        return False

    def switch_focused(self, delta: int) -> bool:
        """Alt+Left/Right: another version of the focused pair (else the last pair): of
        the message with focus, or of the answer when it has versions."""
        versions = self.service.versions
        msg_id, on_user = self._focused_message()
        turn = versions.turn_of(msg_id) if msg_id is not None else self._last_turn()
        if turn is None:
            return False
        answers = versions.answer_versions(turn)
        answer = not on_user and answers.count > 1
        info = answers if answer else versions.user_versions(turn)
        if not 0 <= info.index + delta < info.count:
            return False
        self.switch(turn, delta, answer)
        return True

    def _focused_message(self) -> tuple[str | None, bool]:
        focus = QApplication.focusWidget()
        if focus is None:
            return None, False
        for widget in self.chat_view.list.live_rows().values():
            if isinstance(widget, MessageRow) and widget.isAncestorOf(focus):
                return widget.msg.id, widget.msg.role == "user"
        return None, False

    def _last_turn(self) -> str | None:
        for entry in reversed(self.conversation.entries):
            if entry.msg is not None and entry.msg.role == "user":
                return entry.msg.id
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Up in the empty composer edits the last user message."""
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Up
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
            and watched is self.window.composer.input
            and not self.window.composer.input.toPlainText()
        ):
            return self.edit_last()
        return False

    # -- internals ---------------------------------------------------------------------

    async def _models(self) -> list[str]:
        provider = self.service.provider
        if provider is None:
            return []
        return await fetch_model_ids(provider.base_url, provider.api_key.get_secret_value())

    def _run(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        self.chat_view.context.versions.editing.clear()  # the rows edited may go away
        self._tasks.spawn(self._guarded(work), name)

    async def _guarded(self, work: Coroutine[Any, Any, Any]) -> None:
        try:
            await work
        except RuntimeError as exc:  # no provider: the composer says so already
            logger.info("Conversation control refused: %s", exc)
            self.window.status_line.set_state(str(exc))

    async def aclose(self) -> None:
        """Cancel what is still running."""
        await self._tasks.cancel_all()
