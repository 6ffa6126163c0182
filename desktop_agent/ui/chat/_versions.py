"""The conversation controls in a message's header: ``‹ 2/3 ›``, Edit, Regenerate, Delete.

- A user message offers **Edit** (an inline editor, its text selected: Enter resends it as
  a new version, Esc cancels) and, when it has other versions, a ``‹ 2/3 ›`` switcher.
- An answer (the final message of a turn) offers **Regenerate** (its menu: with another of
  the provider's models), **Delete** (the turn, with Undo) and a switcher of its versions.

The widgets only ask and report: :class:`VersionActions` (one per chat pane, in its
``RenderContext``) answers which version a message is and carries the requests to the
window, which runs them on the chat service. It is off until the window enables it (the
trash preview shows a chat without controls).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QMenu, QToolButton, QWidget
from shiboken6 import isValid

from desktop_agent.app import Conversation, ConversationEntry, VersionInfo
from desktop_agent.ui._plain import plain_label
from desktop_agent.ui._qt_async import TaskSet
from desktop_agent.ui.chat._inline_editor import InlineEditor

if TYPE_CHECKING:
    from desktop_agent.ui.chat._message_widget import MessageRow

SINGLE = VersionInfo(0, 1)


class VersionActions(QObject):
    """What a chat pane's rows ask about versions, and the requests they make.

    Signals:
        edit_submitted(str, str): A user message (id) resent with new text.
        regenerate_requested(str, str): The turn of a message (id) answered again, with a
            model (``""``: the current one).
        delete_requested(str): The turn of a message (id) deleted.
        switch_requested(str, int, bool): The user message (id) of a turn: show the version
            ``delta`` steps away of it (``False``) or of its answer (``True``).
    """

    edit_submitted = Signal(str, str)
    regenerate_requested = Signal(str, str)
    delete_requested = Signal(str)
    switch_requested = Signal(str, int, bool)

    def __init__(self, conversation: Conversation, parent: QObject | None = None) -> None:
        """Controls for the rows of ``conversation``; off until :meth:`enable`."""
        super().__init__(parent)
        self.conversation = conversation
        self.enabled = False
        self.user_info: Callable[[str], VersionInfo] = lambda _msg_id: SINGLE
        self.answer_info: Callable[[str], VersionInfo] = lambda _msg_id: SINGLE
        self.models: Callable[[], Awaitable[list[str]]] | None = None
        self.current_model: Callable[[], str] = lambda: ""
        self.tasks = TaskSet()
        self.editing: dict[str, str] = {}
        """Messages being edited (id → draft): an editor outlives its row widget."""

    def enable(
        self,
        user_info: Callable[[str], VersionInfo],
        answer_info: Callable[[str], VersionInfo],
    ) -> None:
        """Offer the controls, with these sources of version counts."""
        self.user_info, self.answer_info = user_info, answer_info
        self.enabled = True

    def turn_user(self, msg_id: str) -> str | None:
        """The user message (id) that starts the turn of the shown message ``msg_id``."""
        entries = self.conversation.entries
        row = self.conversation.row_of(msg_id)
        while row is not None and row >= 0:
            msg = entries[row].msg
            if msg is not None and msg.role == "user":
                return msg.id
            row -= 1
        return None


def is_final_answer(entry: ConversationEntry) -> bool:
    """An assistant message that ends a turn: finished, with no tool call to run."""
    msg = entry.msg
    return (
        msg is not None
        and msg.role == "assistant"
        and not entry.streaming
        and not msg.has_content_blocks("tool_use")
    )


def _tool_button(text: str, name: str, tip: str, parent: QWidget) -> QToolButton:
    button = QToolButton(parent)
    button.setText(text)
    button.setObjectName(name)
    button.setToolTip(tip)
    button.setCursor(Qt.CursorShape.PointingHandCursor)
    if text in ("‹", "›", "↻"):  # symbols: big enough to see and aim at
        font = button.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        button.setFont(font)
    return button


class VersionBar(QWidget):
    """The switcher and the Edit / Regenerate / Delete buttons of one message's header."""

    def __init__(self, row: MessageRow, actions: VersionActions, parent: QWidget) -> None:
        """Create the controls of ``row`` (hidden until :meth:`update_entry` shows some)."""
        super().__init__(parent)
        self.setObjectName("versionBar")
        self.setStyleSheet(
            "QToolButton#versionPrev, QToolButton#versionNext, QToolButton#regenerateAnswer"
            " { padding: 0px 4px; }"
        )
        self._row = row
        self._actions = actions
        self._turn: str | None = None
        self._answer = False
        self.editor: InlineEditor | None = None
        line = QHBoxLayout(self)
        line.setContentsMargins(0, 0, 0, 0)
        line.setSpacing(2)
        self.prev_button = _tool_button(
            "‹", "versionPrev", QCoreApplication.translate("VersionBar", "Previous version"), self
        )
        self.label = plain_label("", self)
        self.label.setObjectName("versionLabel")
        self.next_button = _tool_button(
            "›", "versionNext", QCoreApplication.translate("VersionBar", "Next version"), self
        )
        self.edit_button = _tool_button(
            QCoreApplication.translate("VersionBar", "Edit"),
            "editMessage",
            QCoreApplication.translate("VersionBar", "Edit and resend (Up)"),
            self,
        )
        self.regenerate_button = _tool_button(
            "↻",
            "regenerateAnswer",
            QCoreApplication.translate("VersionBar", "Regenerate: answer again (Ctrl+R)"),
            self,
        )
        self.model_button = _tool_button(
            "▾",
            "regenerateWith",
            QCoreApplication.translate("VersionBar", "Regenerate with another model"),
            self,
        )
        self.model_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.model_button.setStyleSheet(
            "QToolButton { padding: 0px 2px; }"
            " QToolButton::menu-indicator { image: none; width: 0; }"
        )
        self.model_button.setMenu(self._model_menu())
        self.delete_button = _tool_button(
            QCoreApplication.translate("VersionBar", "Delete"),
            "deleteTurn",
            QCoreApplication.translate("VersionBar", "Delete this exchange"),
            self,
        )
        for widget in (
            self.prev_button,
            self.label,
            self.next_button,
            self.edit_button,
            self.regenerate_button,
            self.model_button,
            self.delete_button,
        ):
            line.addWidget(widget)
        self.prev_button.clicked.connect(lambda: self.switch(-1))
        self.next_button.clicked.connect(lambda: self.switch(1))
        self.edit_button.clicked.connect(self.start_edit)
        self.regenerate_button.clicked.connect(lambda: self._regenerate(""))
        self.delete_button.clicked.connect(self._delete)
        self.hide()

    # -- state -------------------------------------------------------------------------

    def update_entry(self, entry: ConversationEntry) -> None:
        """Show what ``entry`` offers now (cheap: called on every streamed chunk)."""
        msg, actions = entry.msg, self._actions
        if not actions.enabled or msg is None:
            self.setVisible(False)
            return
        if msg.role == "user":
            self._turn, self._answer = msg.id, False
            info = actions.user_info(msg.id)
        elif is_final_answer(entry):
            self._turn, self._answer = actions.turn_user(msg.id), True
            info = actions.answer_info(self._turn) if self._turn is not None else SINGLE
        else:
            self.setVisible(False)
            return
        many = info.count > 1
        for widget in (self.prev_button, self.label, self.next_button):
            widget.setVisible(many)
        self.label.setText(f"{info.index + 1}/{info.count}")
        self.prev_button.setEnabled(info.index > 0)
        self.next_button.setEnabled(info.index + 1 < info.count)
        self.edit_button.setVisible(not self._answer)
        self.regenerate_button.setVisible(self._answer and self._turn is not None)
        self.model_button.setVisible(self._answer and self._turn is not None)
        self.delete_button.setVisible(self._answer and self._turn is not None)
        self.setVisible(True)
        if not self._answer and msg.id in actions.editing and self.editor is None:
            self.start_edit()

    @property
    def version(self) -> str:
        """The switcher's text, e.g. ``"2/3"`` (``""`` when hidden)."""
        return self.label.text() if self.label.isVisibleTo(self) else ""

    def switch(self, delta: int) -> bool:
        """Ask for the version ``delta`` steps away; whether there is one."""
        if self._turn is None:
            return False
        info = (
            self._actions.answer_info(self._turn)
            if self._answer
            else self._actions.user_info(self._turn)
        )
        if not 0 <= info.index + delta < info.count:
            return False
        self._actions.switch_requested.emit(self._turn, delta, self._answer)
        return True

    # -- editing -----------------------------------------------------------------------

    def start_edit(self) -> None:
        """Replace the message's text by an editor holding it, all selected."""
        row = self._row
        if self.editor is not None:
            self.editor.focus()
            return
        if self._answer:
            return
        msg_id = row.msg.id
        draft = self._actions.editing.get(msg_id, row.msg.get_text_content() or "")
        self._actions.editing[msg_id] = draft
        self.editor = InlineEditor(draft, row.bubble)
        column = row.bubble.layout()
        assert column is not None
        for _kind, widget in row.blocks:
            if _kind == "text":
                widget.hide()
        column.insertWidget(1, self.editor)  # type: ignore[attr-defined]
        self.edit_button.setEnabled(False)
        self.editor.submitted.connect(self._submit_edit)
        self.editor.cancelled.connect(self.cancel_edit)
        self.editor.field.textChanged.connect(self._keep_draft)
        row.invalidate_width()
        row.size_changed.emit()
        self.editor.focus()

    def cancel_edit(self) -> None:
        """Close the editor; the message shows as it was."""
        editor, self.editor = self.editor, None
        self._actions.editing.pop(self._row.msg.id, None)
        if editor is None:
            return
        editor.hide()
        editor.deleteLater()
        for _kind, widget in self._row.blocks:
            widget.show()
        self.edit_button.setEnabled(True)
        self._row.invalidate_width()
        self._row.size_changed.emit()

    def _keep_draft(self) -> None:
        if self.editor is not None:
            self._actions.editing[self._row.msg.id] = self.editor.text()

    def _submit_edit(self, text: str) -> None:
        msg_id = self._row.msg.id
        self.cancel_edit()
        self._actions.edit_submitted.emit(msg_id, text)

    # -- answers -----------------------------------------------------------------------

    def _regenerate(self, model: str) -> None:
        self._actions.regenerate_requested.emit(self._row.msg.id, model)

    def _delete(self) -> None:
        self._actions.delete_requested.emit(self._row.msg.id)

    def _model_menu(self) -> QMenu:
        """ "Regenerate with" each of the provider's models, listed when the menu opens."""
        menu = QMenu(self)
        menu.setObjectName("regenerateMenu")
        menu.aboutToShow.connect(lambda: self._fill_models(menu))
        return menu

    def _fill_models(self, menu: QMenu) -> None:
        menu.clear()
        source = self._actions.models
        if source is None:
            menu.addAction(QCoreApplication.translate("VersionBar", "No model list")).setEnabled(
                False
            )
            return
        menu.addAction(QCoreApplication.translate("VersionBar", "Loading models…")).setEnabled(
            False
        )
        self._actions.tasks.spawn(self._list_models(menu, source), "regenerate-models")

    async def _list_models(self, menu: QMenu, source: Callable[[], Awaitable[list[str]]]) -> None:
        try:
            models = await source()
        except Exception as exc:  # the server cannot list them: say so in the menu
            models, error = [], str(exc)
        else:
            error = ""
        if not isValid(menu):  # the row was scrolled away meanwhile
            return
        menu.clear()
        current = self._actions.current_model()
        for model in models:
            text = QCoreApplication.translate("VersionBar", "Regenerate with {model}")
            action = menu.addAction(text.format(model=model))
            action.setCheckable(model == current)
            action.setChecked(model == current)
            action.triggered.connect(lambda _checked=False, m=model: self._regenerate(m))
        if not models:
            menu.addAction(
                error or QCoreApplication.translate("VersionBar", "No other models")
            ).setEnabled(False)
