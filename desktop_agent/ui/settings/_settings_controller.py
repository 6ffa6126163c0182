"""Owns the settings and the resolved provider; runs the Settings dialog.

Provider resolution probes local servers in worker threads; the result comes back on the
GUI thread as ``provider_changed``. The dialog is shown with ``open()`` (non-modal for the
event loop), and its model-list requests run as tasks of this controller.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QWidget
from shiboken6 import isValid

from desktop_agent._logging import logger
from desktop_agent.app import (
    LoadedSettings,
    LocalServer,
    ModelListError,
    Provider,
    Settings,
    discover,
    fetch_model_ids,
    save_settings,
)
from desktop_agent.app._keyring_store import KeyStore, load_keys, save_keys
from desktop_agent.app._providers import LOCAL_SERVERS
from desktop_agent.ui._qt_async import TaskSet
from desktop_agent.ui.settings._settings_dialog import SettingsDialog


class SettingsController(QObject):
    """Settings, provider resolution and the Settings dialog.

    Args:
        loaded: The settings read at start (and the warning, if the file was bad).
        path: Where to save; the default settings path if ``None``.
        local_servers: The local servers to probe (tests inject loopback ports).
        environ: The environment to read provider variables from.
        parent_widget: Parent of the dialog.
    """

    settings_changed = Signal(object)
    provider_changed = Signal(object)
    searching_changed = Signal(bool)
    discovery_notes = Signal(list)
    """What the last search found worth saying, e.g. "LM Studio on port 1234 needs an API
    key: …" (an empty list when nothing)."""
    warning = Signal(str)
    dialog_opened = Signal(object)

    def __init__(
        self,
        loaded: LoadedSettings,
        *,
        path: Path | None = None,
        local_servers: Sequence[LocalServer] = LOCAL_SERVERS,
        environ: Mapping[str, str] | None = None,
        parent_widget: QWidget | None = None,
    ) -> None:
        super().__init__()
        self._settings = loaded.settings
        self._startup_warning = loaded.warning
        self._path = path
        self._local_servers = local_servers
        self._environ = environ
        self._parent_widget = parent_widget
        self._provider: Provider | None = None
        self._tasks = TaskSet()
        self._dialog: SettingsDialog | None = None
        self._page_factories: list[tuple[str, Callable[[], QWidget]]] = []
        self.key_store: KeyStore | None = None
        """Where API keys are kept (the OS keyring, else the file); ``None``: the file."""
        self._keys_loaded = False

    @property
    def settings(self) -> Settings:
        """The settings in force."""
        return self._settings

    @property
    def provider(self) -> Provider | None:
        """The resolved provider (``None`` until resolved, or when none was found)."""
        return self._provider

    @property
    def startup_warning(self) -> str | None:
        """Why the settings file could not be used at start, if it could not."""
        return self._startup_warning

    def set_parent_widget(self, widget: QWidget) -> None:
        """The window dialogs belong to."""
        self._parent_widget = widget

    async def resolve(self) -> Provider | None:
        """Find the provider (settings → environment → local server) and announce it."""
        self.searching_changed.emit(True)
        try:
            await self._load_keys()
            found = await discover(
                self._settings,
                environ=os.environ if self._environ is None else self._environ,
                local_servers=self._local_servers,
            )
        finally:
            self.searching_changed.emit(False)
        provider = found.provider
        self.discovery_notes.emit(found.notes)
        self._provider = provider
        self.provider_changed.emit(provider)
        return provider

    def search_again(self) -> None:
        """Resolve the provider again (the first-run panel's button)."""
        self._tasks.spawn(self.resolve(), "provider-search")

    def open_dialog(self) -> SettingsDialog:
        """Show the Settings dialog (or raise the one already open)."""
        if self._dialog is not None and isValid(self._dialog) and self._dialog.isVisible():
            self._dialog.raise_()
            return self._dialog
        dialog = SettingsDialog(self._settings, self._provider, self._parent_widget)
        for title, factory in self._page_factories:
            dialog.add_page(title, factory())
        dialog.saved.connect(self.apply)
        dialog.models_requested.connect(lambda url, key: self._fetch_models(dialog, url, key))
        dialog.finished.connect(dialog.deleteLater)
        if self.key_store is not None and self._keys_loaded:
            dialog.key_store_note.setText(self.key_store.note())
        self._dialog = dialog
        dialog.open()
        dialog.request_models()
        self.dialog_opened.emit(dialog)
        return dialog

    async def _load_keys(self) -> None:
        """Once: the keys from the keyring (moving any still in the file), in a thread."""
        store = self.key_store
        if store is None or self._keys_loaded:
            return
        self._keys_loaded = True
        try:
            self._settings = await asyncio.to_thread(load_keys, self._settings, store, self._path)
        except OSError as exc:  # the file could not be rewritten: the keys stay in it
            logger.warning("Could not move the API keys to the keyring: %s", exc.strerror)

    def add_page_factory(self, title: str, factory: Callable[[], QWidget]) -> None:
        """Give every Settings dialog opened from now on a tab made by ``factory``.

        The factory returns a new widget implementing
        :class:`~desktop_agent.ui.settings._settings_dialog.SettingsPage` each time a dialog
        opens (features that need services, e.g. the tools page, close over them).
        """
        self._page_factories.append((title, factory))

    def apply(self, settings: Settings) -> None:
        """Persist ``settings``, use them at once, and resolve the provider again."""
        try:
            if self.key_store is not None:  # keys in the OS keyring if it has one (issue 17)
                save_keys(settings, self.key_store, self._path)
            else:
                save_settings(settings, self._path)
        except OSError as exc:
            logger.warning("Could not save settings: %s", exc.strerror)
            text = QCoreApplication.translate(
                "SettingsController",
                "Settings could not be saved ({error}); they apply until you quit.",
            )
            self.warning.emit(text.format(error=exc.strerror))
        self._settings = settings
        self.settings_changed.emit(settings)
        self._tasks.spawn(self.resolve(), "provider-resolve")

    async def aclose(self) -> None:
        """Cancel model-list fetches and searches."""
        await self._tasks.cancel_all()

    def _fetch_models(self, dialog: SettingsDialog, base_url: str, api_key: str) -> None:
        self._tasks.spawn(self._fill_models(dialog, base_url, api_key), "model-list")

    async def _fill_models(self, dialog: SettingsDialog, base_url: str, api_key: str) -> None:
        try:
            ids = await fetch_model_ids(base_url, api_key)
        except ModelListError as exc:
            if _still_wanted(dialog, base_url):
                text = QCoreApplication.translate(
                    "SettingsController", "Model list unavailable: {error}"
                )
                dialog.set_models_error(text.format(error=exc))
            return
        if _still_wanted(dialog, base_url):
            dialog.set_models(ids)


def _still_wanted(dialog: SettingsDialog, base_url: str) -> bool:
    """The dialog is open and still shows the endpoint the answer is about."""
    return isValid(dialog) and dialog.base_url.text().strip() == base_url
