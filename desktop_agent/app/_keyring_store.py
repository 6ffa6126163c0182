"""API keys in the OS keyring (Secret Service / KWallet, macOS Keychain, Windows Credential
Locker) through the ``keyring`` library, with ``settings.json`` (mode 0600) as the fallback.

- When a keyring backend is available, saving the settings puts each preset's key in the
  keyring (service ``desktop-agent``, user = the preset's name) and writes the file
  without it; loading fills the keys back in.
- Keys already in ``settings.json`` (saved before, or while no keyring was available) are
  moved to the keyring the first time one is (:func:`load_keys`).
- Without a backend (``keyring``'s "fail" or "null" one, e.g. a headless Linux without
  Secret Service), keys stay in the owner-only file, as before. :meth:`KeyStore.note` says
  which is in use.

``keyring`` takes ~0.3 s to import and pick a backend, and a keyring call may wait on
D-Bus: every function here is blocking and meant for a worker thread
(``asyncio.to_thread``), never the GUI thread.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from desktop_agent._i18n import QT_TRANSLATE_NOOP, translate
from desktop_agent._logging import logger
from desktop_agent.app._settings import ProviderPreset, Settings, save_settings

SERVICE = "desktop-agent"
FILE_NOTE = QT_TRANSLATE_NOOP(
    "KeyStore",
    "No system keyring is available: API keys are kept in settings.json, readable only by you.",
)


class KeyStore:
    """The keyring backend, or none.

    Args:
        backend: A ``keyring`` backend to use (tests); default: the one ``keyring`` picks.
    """

    def __init__(self, backend: Any = None) -> None:
        self._backend = backend
        self._resolved = backend is not None
        # What the keyring holds, as far as this store read or wrote it: a save that
        # changes no key makes no keyring call (Settings saves on the GUI thread).
        self._known: dict[str, str] = {}

    def backend(self) -> Any | None:
        """The usable backend (``None``: keys stay in the file). Imports ``keyring``."""
        if not self._resolved:
            self._resolved = True
            try:
                import keyring  # ~0.27 s: loaded in a worker thread

                self._backend = keyring.get_keyring()
            except Exception as exc:  # no keyring, a broken backend: the file it is
                logger.info("No keyring: %s", exc)
                self._backend = None
        return self._backend if _usable(self._backend) else None

    @property
    def available(self) -> bool:
        """Whether keys go to the keyring."""
        return self.backend() is not None

    def note(self) -> str:
        """A sentence for Settings saying where the keys are kept."""
        backend = self.backend()
        if backend is None:
            return translate("KeyStore", FILE_NOTE)
        name = getattr(backend, "name", "") or type(backend).__name__
        return translate("KeyStore", "API keys are kept in the system keyring ({name}).").format(
            name=name
        )

    def get(self, preset: str) -> str:
        """The key of ``preset`` ("" if none or no keyring)."""
        backend = self.backend()
        if backend is None:
            return ""
        key = str(backend.get_password(SERVICE, preset) or "")
        self._known[preset] = key
        return key

    def set(self, preset: str, key: str) -> None:
        """Keep ``key`` for ``preset`` (raises what the backend raises)."""
        backend = self.backend()
        if backend is not None and self._known.get(preset) != key:
            backend.set_password(SERVICE, preset, key)
            self._known[preset] = key

    def forget(self, preset: str) -> None:
        """Remove the key of ``preset`` the keyring holds (the user cleared it). Only a key
        this store read or wrote: a preset whose key was never read (Settings saved before
        the keys were loaded, or reading failed) has nothing the user could have cleared."""
        backend = self.backend()
        if backend is not None and self._known.get(preset):
            with contextlib.suppress(Exception):  # none stored, or a backend that cannot
                backend.delete_password(SERVICE, preset)
            self._known[preset] = ""


def load_keys(settings: Settings, store: KeyStore, path: Path | None = None) -> Settings:
    """``settings`` with each preset's key filled from the keyring; keys still in the file
    are moved to the keyring (the file is rewritten without them). Blocking."""
    if not store.available:
        return settings
    in_file = [p for p in settings.providers if p.api_key.get_secret_value()]
    providers = [_with_stored_key(p, store) for p in settings.providers]
    settings = settings.model_copy(update={"providers": providers})
    if in_file:
        save_keys(settings, store, path)
        logger.info("Moved %d API key(s) from the settings file to the keyring", len(in_file))
    return settings


def save_keys(settings: Settings, store: KeyStore, path: Path | None = None) -> Path:
    """Save ``settings``: keys in the keyring when there is one (the file without them;
    a key the keyring refuses stays in the file), else all in the file. Blocking."""
    if not store.available:
        return save_settings(settings, path)
    providers = []
    for preset in settings.providers:
        key = preset.api_key.get_secret_value()
        if not key:
            store.forget(preset.name)  # cleared: it must not come back from the keyring
        else:
            try:
                store.set(preset.name, key)
                preset = preset.model_copy(update={"api_key": SecretStr("")})
            except Exception as exc:
                logger.warning("The keyring refused the key of %s: %s", preset.name, exc)
        providers.append(preset)
    return save_settings(settings.model_copy(update={"providers": providers}), path)


def _with_stored_key(preset: ProviderPreset, store: KeyStore) -> ProviderPreset:
    if preset.api_key.get_secret_value():
        return preset
    try:
        key = store.get(preset.name)
    except Exception as exc:
        logger.warning("Could not read the key of %s from the keyring: %s", preset.name, exc)
        return preset
    return preset.model_copy(update={"api_key": SecretStr(key)}) if key else preset


def _usable(backend: Any) -> bool:
    if backend is None:
        return False
    module = type(backend).__module__
    if module.endswith((".fail", ".null")):
        return False
    if module.endswith(".chainer"):
        return bool(getattr(backend, "backends", ()))
    return True
