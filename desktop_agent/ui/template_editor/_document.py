"""The template being edited: a plain Python object that announces its changes.

The editor's Qt model and widgets are views of a :class:`TemplateDocument`; nothing in
this module imports Qt. The document holds what the form can show — a *structurally*
valid config, as ``ContextConfig`` accepts it — while everything the engine decides
(unknown variables, duplicate module names, empty names) is kept exactly as typed, so
the editor can flag it instead of silently dropping it.

Only :mod:`._edits` calls the mutating methods, so every change can be undone. Each
mutation tells the listeners twice: ``about_to_change`` before (what a Qt model needs
for ``beginInsertRows``…) and ``changed`` after.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from desktop_agent.context import ContextConfig

SegmentType = Literal["text", "variable"]
Role = Literal["system", "user", "assistant"]
ROLES: tuple[Role, ...] = ("system", "user", "assistant")
MODULE_FIELDS = ("module_name", "role", "importance_func", "description")

ChangeKind = Literal[
    "reset",
    "module_inserted",
    "module_removed",
    "module_moved",
    "module_changed",
    "segments_changed",
    "segment_changed",
]


@dataclass
class DraftSegment:
    """A segment being edited: fixed text, or the name of a variable."""

    type: SegmentType
    value: str

    def to_data(self) -> dict[str, str]:
        """The segment as JSON data."""
        return {"type": self.type, "value": self.value}


@dataclass
class DraftModule:
    """A template module being edited (the fields of ``ContextModule``)."""

    module_name: str
    segments: list[DraftSegment] = field(default_factory=list)
    importance_func: bool | str = True
    role: Role = "system"
    description: str | None = None

    @property
    def enabled(self) -> bool:
        """Whether the module can be included (its ``importance_func`` is not ``false``)."""
        return self.importance_func is not False

    def copy(self) -> DraftModule:
        """A deep copy."""
        return copy.deepcopy(self)

    def to_data(self) -> dict[str, Any]:
        """The module as JSON data, keys in ``ContextModule`` order."""
        data: dict[str, Any] = {
            "module_name": self.module_name,
            "segments": [segment.to_data() for segment in self.segments],
            "importance_func": self.importance_func,
            "role": self.role,
        }
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass(frozen=True)
class Change:
    """What changed in a document.

    Attributes:
        kind: The kind of change.
        module: The module's index (``-1`` for ``reset``).
        segment: The segment's index for ``segment_changed`` (else ``-1``).
        to: The destination index of ``module_moved``.
        field: The field of ``module_changed``.
    """

    kind: ChangeKind
    module: int = -1
    segment: int = -1
    to: int = -1
    field: str = ""


Listener = Callable[[Change], None]


class TemplateDocument:
    """An editable context template: ordered modules plus the config's other settings."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        """Start from template data: ``ContextConfig`` JSON data, or :meth:`to_data`'s.

        The data must have the config's *shape* (a ``context_template`` list of module
        objects with ``module_name`` and ``segments``); names and lengths are not checked.
        """
        self.modules: list[DraftModule] = []
        self.settings: dict[str, Any] = {}
        self._load(data)
        self._before: list[Listener] = []
        self._after: list[Listener] = []

    @classmethod
    def from_config(cls, config: ContextConfig) -> TemplateDocument:
        """A document holding a validated config."""
        return cls(config.model_dump(mode="json", exclude_none=True))

    # ----------------------------------------------------------------------- reading

    def to_data(self) -> dict[str, Any]:
        """The template as JSON data, as ``ContextConfig.model_dump`` would give it."""
        return {
            "context_template": [module.to_data() for module in self.modules],
            **self.settings,
        }

    def module_names(self) -> list[str]:
        """The modules' names, in order."""
        return [module.module_name for module in self.modules]

    def unique_name(self, base: str) -> str:
        """``base``, or ``base_2``, ``base_3``… — the first name no module has."""
        taken = set(self.module_names())
        if base not in taken:
            return base
        number = 2
        while f"{base}_{number}" in taken:
            number += 1
        return f"{base}_{number}"

    # --------------------------------------------------------------------- listeners

    def subscribe(
        self, changed: Listener, about_to_change: Listener | None = None
    ) -> Callable[[], None]:
        """Call ``changed`` after each change (and ``about_to_change`` before it).

        Returns:
            A function that unsubscribes both.
        """
        self._after.append(changed)
        if about_to_change is not None:
            self._before.append(about_to_change)

        def unsubscribe() -> None:
            if changed in self._after:
                self._after.remove(changed)
            if about_to_change is not None and about_to_change in self._before:
                self._before.remove(about_to_change)

        return unsubscribe

    def _notify(self, listeners: Iterable[Listener], change: Change) -> None:
        for listener in list(listeners):
            listener(change)

    def _mutate(self, change: Change, action: Callable[[], Any]) -> Any:
        self._notify(self._before, change)
        result = action()
        self._notify(self._after, change)
        return result

    # ---------------------------------------------------------------------- mutating

    def replace(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Replace everything with ``data`` (see :meth:`from_data`); return the old data."""
        previous = self.to_data()
        self._mutate(Change("reset"), lambda: self._load(data))
        return previous

    def _load(self, data: Mapping[str, Any]) -> None:
        self.modules = [_draft_module(module) for module in data["context_template"]]
        self.settings = {
            key: copy.deepcopy(value) for key, value in data.items() if key != "context_template"
        }

    def insert_module(self, index: int, module: DraftModule) -> None:
        """Insert a copy of ``module`` at ``index``."""
        self._mutate(
            Change("module_inserted", index), lambda: self.modules.insert(index, module.copy())
        )

    def remove_module(self, index: int) -> DraftModule:
        """Remove the module at ``index`` and return it."""
        removed: DraftModule = self._mutate(
            Change("module_removed", index), lambda: self.modules.pop(index)
        )
        return removed

    def move_module(self, source: int, destination: int) -> None:
        """Move the module at ``source`` so that it ends up at index ``destination``."""

        def move() -> None:
            self.modules.insert(destination, self.modules.pop(source))

        self._mutate(Change("module_moved", source, to=destination), move)

    def set_module_field(self, index: int, name: str, value: Any) -> Any:
        """Set one of :data:`MODULE_FIELDS` of the module at ``index``; return the old value."""
        if name not in MODULE_FIELDS:
            raise ValueError(f"Unknown module field {name!r}; expected one of {MODULE_FIELDS}.")
        module = self.modules[index]
        old = getattr(module, name)
        self._mutate(
            Change("module_changed", index, field=name), lambda: setattr(module, name, value)
        )
        return old

    def set_segments(self, index: int, segments: list[DraftSegment]) -> list[DraftSegment]:
        """Replace the segments of the module at ``index``; return the old ones."""
        module = self.modules[index]
        old = module.segments
        new = [DraftSegment(s.type, s.value) for s in segments]
        self._mutate(Change("segments_changed", index), lambda: setattr(module, "segments", new))
        return old

    def set_segment(self, index: int, position: int, segment: DraftSegment) -> DraftSegment:
        """Replace one segment; return the old one."""
        segments = self.modules[index].segments
        old = segments[position]

        def put() -> None:
            segments[position] = DraftSegment(segment.type, segment.value)

        self._mutate(Change("segment_changed", index, segment=position), put)
        return old


def _draft_module(data: Mapping[str, Any]) -> DraftModule:
    return DraftModule(
        module_name=data["module_name"],
        segments=[DraftSegment(s["type"], s["value"]) for s in data["segments"]],
        importance_func=data.get("importance_func", True),
        role=data.get("role", "system"),
        description=data.get("description"),
    )
