"""Undoable changes of a :class:`TemplateDocument`, without Qt.

An :class:`Edit` applies itself to a document and returns its inverse, so the Qt undo
command (``_commands.EditCommand``) is a thin wrapper: ``redo`` applies the edit and
keeps the inverse, ``undo`` applies the inverse and keeps *its* inverse. Edits name
modules and segments by index; that is sound because an undo stack replays edits in
exact reverse order, so every index means the same thing when it is replayed.

Typing into one field produces one edit per keystroke; edits with the same
:attr:`Edit.merge_key` in a row are merged into one undo step.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.ui.template_editor._document import (
    DraftModule,
    DraftSegment,
    SegmentType,
    TemplateDocument,
)


class Edit(ABC):
    """One undoable change."""

    label: str
    """The undo stack's name for it, in English (marked for translation; shown translated)."""
    merge_key: Hashable | None = None

    @abstractmethod
    def apply(self, document: TemplateDocument) -> Edit:
        """Change ``document`` and return the edit that undoes the change."""


@dataclass(frozen=True)
class SetModuleField(Edit):
    """Set a field (name, role, importance function, note) of one module."""

    index: int
    name: str
    value: Any
    label: str = QT_TRANSLATE_NOOP("EditCommand", "Edit module")
    merge_key: Hashable | None = None

    def apply(self, document: TemplateDocument) -> Edit:
        """Set the field; the inverse sets the old value back."""
        old = document.set_module_field(self.index, self.name, self.value)
        return replace(self, value=old)


@dataclass(frozen=True)
class InsertModule(Edit):
    """Insert a module."""

    index: int
    module: DraftModule
    label: str = QT_TRANSLATE_NOOP("EditCommand", "Add module")

    def apply(self, document: TemplateDocument) -> Edit:
        """Insert it; the inverse removes it."""
        document.insert_module(self.index, self.module)
        return RemoveModule(self.index, self.label)


@dataclass(frozen=True)
class RemoveModule(Edit):
    """Remove a module."""

    index: int
    label: str = QT_TRANSLATE_NOOP("EditCommand", "Delete module")

    def apply(self, document: TemplateDocument) -> Edit:
        """Remove it; the inverse inserts it again."""
        removed = document.remove_module(self.index)
        return InsertModule(self.index, removed, self.label)


@dataclass(frozen=True)
class MoveModule(Edit):
    """Move a module to another position (``destination`` is its final index)."""

    source: int
    destination: int
    label: str = QT_TRANSLATE_NOOP("EditCommand", "Move module")

    def apply(self, document: TemplateDocument) -> Edit:
        """Move it; the inverse moves it back."""
        document.move_module(self.source, self.destination)
        return MoveModule(self.destination, self.source, self.label)


@dataclass(frozen=True)
class SetSegments(Edit):
    """Replace a module's segments (adding, removing and reordering segments)."""

    index: int
    segments: tuple[DraftSegment, ...]
    label: str = QT_TRANSLATE_NOOP("EditCommand", "Edit segments")

    def apply(self, document: TemplateDocument) -> Edit:
        """Replace them; the inverse puts the old list back."""
        old = document.set_segments(self.index, list(self.segments))
        return SetSegments(self.index, tuple(old), self.label)


@dataclass(frozen=True)
class SetSegment(Edit):
    """Replace one segment (its text, or the variable it names)."""

    index: int
    position: int
    segment: DraftSegment
    label: str = QT_TRANSLATE_NOOP("EditCommand", "Edit segment")
    merge_key: Hashable | None = None

    def apply(self, document: TemplateDocument) -> Edit:
        """Replace it; the inverse puts the old segment back."""
        old = document.set_segment(self.index, self.position, self.segment)
        return replace(self, segment=old)


@dataclass(frozen=True)
class ReplaceTemplate(Edit):
    """Replace the whole template (JSON tab, import, library, revert, reset)."""

    data: Mapping[str, Any] = field(hash=False)
    label: str = QT_TRANSLATE_NOOP("EditCommand", "Replace template")
    merge_key: Hashable | None = None

    def apply(self, document: TemplateDocument) -> Edit:
        """Replace it; the inverse puts the old template back."""
        old = document.replace(self.data)
        return replace(self, data=old)


# ------------------------------------------------------------------------- factories
# What the editor's gestures mean, as edits of a given document.


def rename_module(index: int, name: str) -> Edit:
    """Typing a module's name (a run of typing is one undo step)."""
    return SetModuleField(
        index,
        "module_name",
        name,
        QT_TRANSLATE_NOOP("EditCommand", "Rename module"),
        ("name", index),
    )


def set_description(index: int, text: str) -> Edit:
    """Typing a module's note; an empty note is removed from the JSON."""
    return SetModuleField(
        index,
        "description",
        text or None,
        QT_TRANSLATE_NOOP("EditCommand", "Edit module note"),
        ("description", index),
    )


def set_role(index: int, role: str) -> Edit:
    """Choosing a module's role."""
    return SetModuleField(index, "role", role, QT_TRANSLATE_NOOP("EditCommand", "Change role"))


def set_importance(index: int, value: bool | str) -> Edit:
    """Choosing when a module is included (``True``, ``False`` or a function name)."""
    if value is True or value is False:
        label = (
            QT_TRANSLATE_NOOP("EditCommand", "Enable module")
            if value
            else QT_TRANSLATE_NOOP("EditCommand", "Disable module")
        )
    else:
        label = QT_TRANSLATE_NOOP("EditCommand", "Change inclusion")
    return SetModuleField(index, "importance_func", value, label)


def add_module(document: TemplateDocument, index: int) -> Edit:
    """A new module (one empty text segment) at ``index``, with a fresh name."""
    module = DraftModule(document.unique_name("new_module"), [DraftSegment("text", "")])
    return InsertModule(index, module, QT_TRANSLATE_NOOP("EditCommand", "Add module"))


def duplicate_module(document: TemplateDocument, index: int) -> Edit:
    """A copy of the module at ``index``, right after it, with a fresh name."""
    module = document.modules[index].copy()
    module.module_name = document.unique_name(f"{module.module_name}_copy")
    return InsertModule(index + 1, module, QT_TRANSLATE_NOOP("EditCommand", "Duplicate module"))


def delete_module(index: int) -> Edit:
    """Deleting a module."""
    return RemoveModule(index, QT_TRANSLATE_NOOP("EditCommand", "Delete module"))


def move_module(source: int, destination: int) -> Edit:
    """Reordering modules (drag and drop, up/down)."""
    return MoveModule(source, destination, QT_TRANSLATE_NOOP("EditCommand", "Move module"))


def _segments(document: TemplateDocument, index: int) -> list[DraftSegment]:
    return [DraftSegment(s.type, s.value) for s in document.modules[index].segments]


def add_segment(document: TemplateDocument, index: int, kind: SegmentType, value: str = "") -> Edit:
    """A new segment at the end of the module at ``index``."""
    segments = [*_segments(document, index), DraftSegment(kind, value)]
    label = (
        QT_TRANSLATE_NOOP("EditCommand", "Add text segment")
        if kind == "text"
        else QT_TRANSLATE_NOOP("EditCommand", "Add variable segment")
    )
    return SetSegments(index, tuple(segments), label)


def remove_segment(document: TemplateDocument, index: int, position: int) -> Edit:
    """Removing one segment."""
    segments = _segments(document, index)
    del segments[position]
    return SetSegments(index, tuple(segments), QT_TRANSLATE_NOOP("EditCommand", "Remove segment"))


def move_segment(document: TemplateDocument, index: int, source: int, destination: int) -> Edit:
    """Moving one segment within its module."""
    segments = _segments(document, index)
    segments.insert(destination, segments.pop(source))
    return SetSegments(index, tuple(segments), QT_TRANSLATE_NOOP("EditCommand", "Move segment"))


def set_segment_text(index: int, position: int, text: str) -> Edit:
    """Typing into a text segment (a run of typing is one undo step)."""
    segment = DraftSegment("text", text)
    return SetSegment(
        index,
        position,
        segment,
        QT_TRANSLATE_NOOP("EditCommand", "Edit text"),
        ("text", index, position),
    )


def set_segment_variable(index: int, position: int, name: str) -> Edit:
    """Choosing the variable of a variable segment."""
    return SetSegment(
        index,
        position,
        DraftSegment("variable", name),
        QT_TRANSLATE_NOOP("EditCommand", "Choose variable"),
    )


def replace_template(data: Mapping[str, Any], label: str, *, merge: bool = False) -> Edit:
    """Replacing the whole template; ``merge`` joins a run of JSON-tab edits."""
    return ReplaceTemplate(dict(data), label, "json" if merge else None)
