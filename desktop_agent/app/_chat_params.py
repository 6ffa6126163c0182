"""Parameters of one chat: overrides of the Settings defaults (temperature, max output
tokens, top_p, reasoning effort, context budget, streaming).

They are kept in the chat's session (its ``"chat"`` part, :class:`ChatSetup`), so they
are saved, exported, backed up and imported with the chat. Earlier versions kept them in
``chat_params.json`` (next to the settings) by session id: a session opened without its
own parameters takes them from there once (:meth:`ChatParams.migrate`), and the entry is
dropped from the file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from desktop_agent._logging import logger
from desktop_agent.app._chat_setup import ChatSetup
from desktop_agent.app._files import config_dir, read_json, write_private_file
from desktop_agent.app._settings import Settings

CHAT_PARAMS_FILE = "chat_params.json"
FIELDS = (
    "temperature",
    "max_output_tokens",
    "top_p",
    "reasoning_effort",
    "context_budget",
    "stream",
)


class ChatParams:
    """The shown chat's parameter overrides.

    Args:
        setup: The shown chat's setup (it changes when another chat is shown).
        path: The old sidecar file to migrate from (default: ``<config>/chat_params.json``).
    """

    def __init__(self, setup: Callable[[], ChatSetup], path: Path | None = None) -> None:
        self._setup = setup
        self._path = path or config_dir() / CHAT_PARAMS_FILE
        self._legacy: dict[str, dict[str, Any]] | None = None  # read on first use
        self.changed: Callable[[], None] = lambda: None
        """Called after :meth:`set` (the app saves the chat)."""

    @property
    def current(self) -> dict[str, Any]:
        """The shown chat's overrides (``{}``: the defaults)."""
        return self._setup().params

    def set(self, overrides: dict[str, Any]) -> None:
        """Use ``overrides`` (only :data:`FIELDS`) for the shown chat; ``{}``: the defaults."""
        self._setup().params = {k: v for k, v in overrides.items() if k in FIELDS}
        self.changed()

    def migrate(self, session_id: str) -> bool:
        """A saved chat was opened: if it has no parameters of its own, take the ones the
        old sidecar file kept for it (once). Whether any were taken."""
        setup = self._setup()
        if self._legacy is None:
            self._legacy = _read(self._path)
        old = self._legacy.pop(session_id, None)
        if old is None:
            return False
        if not setup.params:
            setup.params = {k: v for k, v in old.items() if k in FIELDS}
        try:
            write_private_file(self._path, json.dumps(self._legacy, indent=2).encode())
        except OSError as exc:
            logger.warning("Could not update the old chat parameters in %s: %s", self._path, exc)
        return bool(setup.params)

    def apply(self, settings: Settings) -> Settings:
        """``settings`` with the chat's overrides (invalid ones are ignored)."""
        current = self.current
        if not current:
            return settings
        try:
            return Settings.model_validate({**settings.model_dump(), **current})
        except ValidationError as exc:
            logger.warning("Ignoring invalid chat parameters: %s", exc)
            return settings


def _read(path: Path) -> dict[str, dict[str, Any]]:
    document = read_json(path, "chat parameters")
    if not isinstance(document, dict):
        return {}
    return {str(k): v for k, v in document.items() if isinstance(v, dict)}
