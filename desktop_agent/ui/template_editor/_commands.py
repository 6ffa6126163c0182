"""The undo stack's side: Qt undo commands over Qt-free edits, and undo keys.

:class:`EditCommand` wraps an :class:`~._edits.Edit`; runs of typing into one field merge
into one command. Text widgets have an undo history of their own, which would compete
with the stack's: :class:`UndoKeyRouter` sends Ctrl+Z / Ctrl+Shift+Z (and Ctrl+Y) typed
in the editor's text fields to the editor instead, so there is one history.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence, QUndoCommand

from desktop_agent.ui.template_editor._document import TemplateDocument
from desktop_agent.ui.template_editor._edits import Edit

_MERGE_ID = 0x7E4D  # any id other than -1: commands with a merge key may merge


class EditCommand(QUndoCommand):
    """An undoable edit of a template document."""

    def __init__(self, document: TemplateDocument, edit: Edit) -> None:
        """Wrap ``edit`` (applied when the command is pushed)."""
        super().__init__(QCoreApplication.translate("EditCommand", edit.label))
        self._document = document
        self.edit = edit
        self._inverse: Edit | None = None

    def redo(self) -> None:
        """Apply the edit."""
        self._inverse = self.edit.apply(self._document)

    def undo(self) -> None:
        """Apply the inverse edit."""
        assert self._inverse is not None
        self.edit = self._inverse.apply(self._document)

    def id(self) -> int:
        """Mergeable commands share one id; the merge key decides."""
        return _MERGE_ID if self.edit.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        """Absorb ``other`` when it continues this command's run of typing."""
        if not isinstance(other, EditCommand) or other.edit.merge_key != self.edit.merge_key:
            return False
        self.edit = other.edit  # keep our inverse: undo goes back to before the run
        if self.edit == self._inverse:  # typed back to where the run started
            self.setObsolete(True)  # the stack drops the command
        return True


def undo_keys() -> list[QKeySequence]:
    """The undo keys: the platform's, and Ctrl+Z everywhere.

    A function, not a constant: a standard key sequence needs the ``QGuiApplication``.
    """
    return _unique([*QKeySequence.keyBindings(QKeySequence.StandardKey.Undo), "Ctrl+Z"])


def redo_keys() -> list[QKeySequence]:
    """The redo keys: the platform's, Ctrl+Shift+Z and Ctrl+Y."""
    keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
    return _unique([*keys, "Ctrl+Shift+Z", "Ctrl+Y"])


def _unique(keys: list[QKeySequence | str]) -> list[QKeySequence]:
    found: list[QKeySequence] = []
    for key in keys:
        sequence = QKeySequence(key)
        if not sequence.isEmpty() and sequence not in found:
            found.append(sequence)
    return found


class UndoKeyRouter(QObject):
    """An event filter giving the undo/redo keys of text widgets to the editor."""

    def __init__(self, undo: Callable[[], None], redo: Callable[[], None], parent: QObject) -> None:
        """Call ``undo``/``redo`` for the keys typed in watched widgets."""
        super().__init__(parent)
        self._undo = undo
        self._redo = redo
        self._undo_keys = undo_keys()
        self._redo_keys = redo_keys()

    def watch(self, widget: QObject) -> None:
        """Route the undo keys typed in ``widget``."""
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Accept the override (so no shortcut fires) and act on the key press."""
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        assert isinstance(event, QKeyEvent)
        action = self._action_for(event)
        if action is None:
            return False
        event.accept()
        if kind == QEvent.Type.KeyPress:
            action()
        return True

    def _action_for(self, event: QKeyEvent) -> Callable[[], None] | None:
        combo = QKeySequence(event.keyCombination())
        if combo in self._undo_keys:
            return self._undo
        if combo in self._redo_keys:
            return self._redo
        return None
