"""Settings → Model: the well-known providers in the Preset list.

Choosing one that is not saved yet fills in its base URL and a model to start with, and
says where its API keys come from (a link) or that a local server needs none. Saving
stores it as a preset like any other; several can be saved and switched between.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit

from desktop_agent.app._provider_catalog import KNOWN_PROVIDERS, known_provider

CATALOG_ROLE = Qt.ItemDataRole.UserRole + 17


class ProviderCatalog:
    """Adds the catalog to ``preset`` and fills the fields when one of its entries is chosen.

    Args:
        preset: The dialog's Preset combo box (its saved presets are listed already).
        base_url, api_key, model: The fields to fill.
        note: The caption under the key field (where keys come from).
    """

    def __init__(
        self,
        preset: QComboBox,
        base_url: QLineEdit,
        api_key: QLineEdit,
        model: QComboBox,
        note: QLabel,
    ) -> None:
        self.preset, self.base_url, self.api_key, self.model = preset, base_url, api_key, model
        self.note = note
        note.setTextFormat(Qt.TextFormat.RichText)  # our own fixed text and link only
        note.setOpenExternalLinks(True)
        shown = preset.currentText()  # adding items must not change the name shown
        saved = {preset.itemText(i) for i in range(preset.count())}
        fresh = [p for p in KNOWN_PROVIDERS if p.name not in saved]
        if fresh and preset.count():
            preset.insertSeparator(preset.count())
        for provider in fresh:
            preset.addItem(provider.name)
            preset.setItemData(preset.count() - 1, provider.name, CATALOG_ROLE)
        preset.setCurrentText(shown)
        preset.activated.connect(self._on_chosen)
        self.show_note(preset.currentText())

    def _on_chosen(self, index: int) -> None:
        name = self.preset.itemData(index, CATALOG_ROLE)
        if name:
            self.fill(str(name))
        self.show_note(self.preset.itemText(index))

    def fill(self, name: str) -> None:
        """Put the catalog entry ``name``'s base URL and model in the fields."""
        provider = known_provider(name)
        if provider is None:
            return
        self.preset.setCurrentText(provider.name)
        self.base_url.setText(provider.base_url)
        self.api_key.clear()
        self.model.setCurrentText(provider.model)
        self.base_url.textEdited.emit(provider.base_url)  # fetch its model list

    def show_note(self, name: str) -> None:
        """Say where ``name``'s keys come from (nothing for unknown presets)."""
        provider = known_provider(name)
        if provider is None:
            self.note.setText("")
        elif provider.local:
            text = QCoreApplication.translate(
                "ProviderCatalog", "{provider} runs on this computer: no API key needed."
            )
            self.note.setText(text.format(provider=provider.name))
        else:
            link = f'<a href="{provider.key_url}">{provider.key_url}</a>'
            text = QCoreApplication.translate(
                "ProviderCatalog", "Get a {provider} API key at {link}"
            )
            self.note.setText(text.format(provider=provider.name, link=link))
