"""Which model the active chat talks to: chosen in the chat header, saved with the chat.

The provider (from Settings, the environment or a local server) names a default model;
the user may pick another of its models, or a model of another configured provider
(several are active at once: :func:`configured_providers`), for the chat at hand. The
model is saved in the session (its ``SessionMeta.model``, written by the session switcher
from the service's provider), the provider's name in the session's chat setup; both are
restored when the session is opened, and a new chat starts with the model (and provider)
used last. Models used recently are remembered in ``models.json`` (next to the settings,
owner-only) so the picker lists them first.

If the user changes the provider's model in Settings, that wins: the chat's own choice
is dropped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from desktop_agent._logging import logger
from desktop_agent.app._files import config_dir, read_json, write_private_file
from desktop_agent.app._providers import Provider

MODELS_FILE = "models.json"
MAX_RECENT = 8


class ModelChoice:
    """The chat's model and the recently used ones.

    Args:
        path: Where the recent models are kept (default: ``<config>/models.json``).
    """

    def __init__(self, path: Path | None = None) -> None:
        self._path = path or config_dir() / MODELS_FILE
        self.recent, self.last_provider = _read_recent(self._path)
        self.chosen = ""
        """The active chat's model, ``""`` for the provider's own."""
        self.chosen_provider = ""
        """The name of the active chat's provider, ``""`` for the default one."""
        self.providers: Callable[[], list[Provider]] = list
        """Every configured provider (the app sets it; :func:`configured_providers`)."""
        self._base: tuple[str, str] | None = None  # (provider name, model) last applied

    @property
    def last_used(self) -> str:
        """The model used most recently (``""`` if none yet)."""
        return self.recent[0] if self.recent else ""

    def choose(self, model: str, provider: str | None = None) -> None:
        """The user picked ``model`` (of the provider named ``provider``; ``None``: the
        chat's current one) for the active chat: use it and remember it first."""
        self.chosen = model.strip()
        if provider is not None:
            self.chosen_provider = provider
        if self.chosen:
            self.remember(self.chosen, self.chosen_provider)

    def remember(self, model: str, provider: str = "") -> None:
        """Put ``model`` first in the recent list (and save the list)."""
        self.recent = [model, *(m for m in self.recent if m != model)][:MAX_RECENT]
        self.last_provider = provider
        try:
            document = {"recent": self.recent, "last_provider": self.last_provider}
            data = json.dumps(document, indent=2).encode()
            write_private_file(self._path, data)
        except OSError as exc:
            logger.warning("Could not save the recent models in %s: %s", self._path, exc)

    def restore(self, model: str, provider: str = "") -> None:
        """A saved chat was opened: use the model (and provider) it was saved with
        (``""``: the default)."""
        self.chosen = model.strip()
        self.chosen_provider = provider

    def new_chat(self) -> None:
        """A new chat starts with the model (and provider) used last."""
        self.chosen = self.last_used
        self.chosen_provider = self.last_provider if self.chosen else ""

    def apply(self, provider: Provider | None) -> Provider | None:
        """``provider`` talking to the chat's model.

        A provider whose default model changed since the last call (the user chose another
        in Settings) drops the chat's own choice.
        """
        if provider is None:
            return None
        base = (provider.name, provider.model)
        if self._base is not None and base != self._base and provider.source == "settings":
            self.chosen = self.chosen_provider = ""  # and new chats start with it too:
            self.remember(provider.model)
        self._base = base
        if self.chosen_provider and self.chosen_provider != provider.name:
            other = next((p for p in self.providers() if p.name == self.chosen_provider), None)
            if other is not None:  # (a provider removed since: the default one)
                return replace(other, model=self.chosen or other.model)
            self.chosen = self.chosen_provider = ""
        if not self.chosen or self.chosen == provider.model:
            return provider
        return replace(provider, model=self.chosen)

    def ordered(self, models: Iterable[str]) -> list[str]:
        """``models`` with the recently used ones first (most recent first), then by name."""
        available = list(dict.fromkeys(models))
        recent = [m for m in self.recent if m in available]
        rest = sorted((m for m in available if m not in recent), key=str.casefold)
        return [*recent, *rest]


def _read_recent(path: Path) -> tuple[list[str], str]:
    """The recent models and the provider of the last one."""
    document = read_json(path, "recent-models")
    if not isinstance(document, dict):
        return [], ""
    recent, provider = document.get("recent"), document.get("last_provider")
    provider = provider if isinstance(provider, str) else ""
    if not isinstance(recent, list):
        return [], provider
    return [str(m) for m in recent if isinstance(m, str) and m.strip()][:MAX_RECENT], provider
