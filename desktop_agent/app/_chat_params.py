"""Parameters of one chat: overrides of the Settings defaults (temperature, max output
tokens, top_p, reasoning effort, streaming), kept in ``chat_params.json`` (next to the
settings, owner-only) by session id, and restored when the chat is opened.

A new chat starts with the defaults; overrides set before its first message are kept
under its id once it becomes a session (:meth:`ChatParams.on_session`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from desktop_agent._logging import logger
from desktop_agent.app._files import config_dir, write_private_file
from desktop_agent.app._settings import Settings

CHAT_PARAMS_FILE = "chat_params.json"
FIELDS = ("temperature", "max_output_tokens", "top_p", "reasoning_effort", "stream")


class ChatParams:
    """The shown chat's parameter overrides, and every saved chat's.

    Args:
        path: The file (default: ``<config>/chat_params.json``).
    """

    def __init__(self, path: Path | None = None) -> None:
        self._path = path or config_dir() / CHAT_PARAMS_FILE
        self._saved: dict[str, dict[str, Any]] = _read(self._path)
        self.session_id: str | None = None
        self.current: dict[str, Any] = {}

    def set(self, overrides: dict[str, Any]) -> None:
        """Use ``overrides`` (only :data:`FIELDS`) for the shown chat; ``{}``: the defaults."""
        self.current = {k: v for k, v in overrides.items() if k in FIELDS}
        if self.session_id is not None:
            self._store(self.session_id)

    def on_session(self, session_id: str | None, *, created: bool = False) -> None:
        """Another chat is shown (``created``: the shown new chat just became a session)."""
        if created and session_id is not None:
            self.session_id = session_id
            if self.current:
                self._store(session_id)
            return
        self.session_id = session_id
        self.current = dict(self._saved.get(session_id, {})) if session_id else {}

    def apply(self, settings: Settings) -> Settings:
        """``settings`` with the chat's overrides (invalid ones are ignored)."""
        if not self.current:
            return settings
        try:
            return Settings.model_validate({**settings.model_dump(), **self.current})
        except ValidationError as exc:
            logger.warning("Ignoring invalid chat parameters: %s", exc)
            return settings

    def _store(self, session_id: str) -> None:
        if self.current:
            self._saved[session_id] = dict(self.current)
        else:
            self._saved.pop(session_id, None)
        try:
            write_private_file(self._path, json.dumps(self._saved, indent=2).encode())
        except OSError as exc:
            logger.warning("Could not save the chat parameters in %s: %s", self._path, exc)


def _read(path: Path) -> dict[str, dict[str, Any]]:
    try:
        document = json.loads(path.read_bytes())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        logger.warning("Ignoring the unreadable chat parameters file %s: %s", path, exc)
        return {}
    if not isinstance(document, dict):
        return {}
    return {str(k): v for k, v in document.items() if isinstance(v, dict)}
