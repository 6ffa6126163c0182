"""Saved context templates: the user's small library of template JSON files.

Each template is one plain JSON file, ``<data root>/templates/<name>.json``, holding a
context config exactly as ``InputModule.load_config`` reads it, so a saved template can
be exported, shared and imported elsewhere unchanged. Import and export are the same
format at a path the user picks.

The design decision: this module checks *structure* only (what ``ContextConfig``
accepts: types, required fields, unknown keys). Whether the variables and importance
functions a template names exist depends on the session that uses it, so that check
belongs to the caller (the template editor shows an unknown name at its field instead
of dropping it). Every read error is a ``ContextConfigError`` whose ``faults`` name the
offending JSON path, or ``(file)`` / ``(json)`` with the reason and line/column.

The files are a few kilobytes: the methods are synchronous.
"""

from __future__ import annotations

import builtins
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from desktop_agent._i18n import translate
from desktop_agent.app.library import data_root
from desktop_agent.context import ContextConfig, ContextConfigError
from desktop_agent.context._config import json_path, read_config_file
from desktop_agent.session._atomic_write import atomic_write_bytes

TEMPLATES_FOLDER = "templates"
TEMPLATE_SUFFIX = ".json"
_MAX_NAME_LENGTH = 100
_FORBIDDEN_NAME_CHARS = frozenset('/\\:*?"<>|\0')


@dataclass(frozen=True)
class SavedTemplate:
    """One template of the library.

    Attributes:
        name: The name the user gave it (the file name without ``.json``).
        path: The file.
        modified: The file's modification time (seconds since the epoch).
    """

    name: str
    path: Path
    modified: float


class TemplateLibrary:
    """The saved templates in ``<root>/templates``."""

    def __init__(self, root: str | Path | None = None) -> None:
        """Use the library under ``root``.

        Args:
            root: The data root; default ``$DESKTOP_AGENT_HOME`` or the platform's user
                data folder. The ``templates`` folder is created on the first save.
        """
        base = Path(root) if root is not None else data_root()
        self.folder = base / TEMPLATES_FOLDER

    def list(self) -> list[SavedTemplate]:
        """The saved templates, sorted by name (case-insensitively)."""
        if not self.folder.is_dir():
            return []
        found = []
        for path in self.folder.glob(f"*{TEMPLATE_SUFFIX}"):
            name = path.name[: -len(TEMPLATE_SUFFIX)]
            if is_template_name(name) and path.is_file():
                found.append(SavedTemplate(name, path, path.stat().st_mtime))
        return sorted(found, key=lambda saved: (saved.name.casefold(), saved.name))

    def names(self) -> builtins.list[str]:
        """The names of the saved templates, in :meth:`list` order."""
        return [saved.name for saved in self.list()]

    def path_of(self, name: str) -> Path:
        """The file of the template ``name`` (which need not exist).

        Raises:
            ValueError: ``name`` is not a usable template name.
        """
        return self.folder / f"{check_template_name(name)}{TEMPLATE_SUFFIX}"

    def exists(self, name: str) -> bool:
        """Whether a template called ``name`` is saved."""
        return is_template_name(name) and self.path_of(name).is_file()

    def save(self, name: str, config: ContextConfig | Mapping[str, Any]) -> SavedTemplate:
        """Save (or replace) the template ``name``, atomically.

        Raises:
            ValueError: ``name`` is not a usable template name.
            ContextConfigError: ``config`` is not a structurally valid config.
            OSError: The file could not be written.
        """
        path = self.path_of(name)
        self.folder.mkdir(parents=True, exist_ok=True)
        write_template_file(path, config)
        return SavedTemplate(name, path, path.stat().st_mtime)

    def load(self, name: str) -> ContextConfig:
        """Read the template ``name``.

        Raises:
            ValueError: ``name`` is not a usable template name.
            ContextConfigError: It is missing, unreadable, not JSON, or not a valid config.
        """
        return read_template_file(self.path_of(name))

    def delete(self, name: str) -> None:
        """Delete the template ``name``.

        Raises:
            ValueError: ``name`` is not a usable template name.
            FileNotFoundError: No template of that name is saved.
        """
        path = self.path_of(name)
        if not path.is_file():
            raise FileNotFoundError(
                translate("TemplateLibrary", "No saved template named {name} in {folder}.").format(
                    name=repr(name), folder=self.folder
                )
            )
        path.unlink()


def is_template_name(name: object) -> bool:
    """Whether ``name`` can name a saved template (and so a file)."""
    return (
        isinstance(name, str)
        and 0 < len(name) <= _MAX_NAME_LENGTH
        and name == name.strip()
        and not name.startswith(".")
        and not _FORBIDDEN_NAME_CHARS.intersection(name)
        and all(ch.isprintable() for ch in name)
    )


def check_template_name(name: object) -> str:
    """Return ``name`` if it can name a saved template.

    Raises:
        ValueError: It is empty, longer than 100 characters, starts with ``.``, has
            leading/trailing blanks, control characters or one of ``/\\:*?"<>|``.
    """
    if not is_template_name(name):
        raise ValueError(
            translate(
                "TemplateLibrary",
                "Invalid template name {name}: use 1-100 printable characters, without "
                '/ \\ : * ? " < > |, not starting with a dot or a blank.',
            ).format(name=repr(name))
        )
    assert isinstance(name, str)
    return name


def parse_template(data: Any, source: str | None = None) -> ContextConfig:
    """Check that decoded JSON data is a structurally valid context config.

    Args:
        data: The decoded JSON.
        source: Where it came from, named in the error.

    Raises:
        ContextConfigError: One fault per structural error, each with its JSON path.
    """
    try:
        return ContextConfig.model_validate(data)
    except ValidationError as exc:
        faults = [(json_path(tuple(error["loc"])), error["msg"]) for error in exc.errors()]
        raise ContextConfigError(faults, source) from exc


def template_data(config: ContextConfig | Mapping[str, Any]) -> dict[str, Any]:
    """The JSON-ready data of a template (what its file holds).

    Raises:
        ContextConfigError: ``config`` is a mapping that is not a valid config.
    """
    if not isinstance(config, ContextConfig):
        config = parse_template(config)
    return config.model_dump(mode="json", exclude_none=True)


def template_json_text(config: ContextConfig | Mapping[str, Any]) -> str:
    """A template as indented JSON text, ending with a newline."""
    return json.dumps(template_data(config), indent=2, ensure_ascii=False) + "\n"


def read_template_file(path: str | Path) -> ContextConfig:
    """Import a template file.

    Raises:
        ContextConfigError: The file is missing or unreadable (``(file)``), not JSON
            (``(json)`` with line and column), or not a valid config (JSON paths).
    """
    path = Path(path)
    return parse_template(read_config_file(path), str(path))


def write_template_file(path: str | Path, config: ContextConfig | Mapping[str, Any]) -> None:
    """Export a template to ``path`` (replaced atomically; readable by others).

    Raises:
        ContextConfigError: ``config`` is not a structurally valid config.
        OSError: The file could not be written.
    """
    text = template_json_text(config)
    atomic_write_bytes(os.fspath(path), text.encode("utf-8"), mode=0o644)
