"""The Settings dialog: a tab per concern ("Model", "Appearance", and pages added by features).

A passive form. It asks for a model list with ``models_requested`` (the controller fetches
``/v1/models`` off the GUI thread and answers with :meth:`set_models` or
:meth:`set_models_error`) and hands the edited settings over with ``saved``.

Features add their own tab with :meth:`SettingsDialog.add_page`: a widget that implements
:class:`SettingsPage` (``load`` shows settings, ``apply`` returns them with the page's edits).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import SecretStr
from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.app import Provider, ProviderPreset, Settings
from desktop_agent.app._provider_catalog import known_provider_at
from desktop_agent.ui.settings._language_box import LanguageBox
from desktop_agent.ui.settings._provider_presets import ProviderCatalog

DEFAULT_PRESET = "Default"
CUSTOM_PRESET = "Custom"
_FETCH_DELAY_MS = 600


@runtime_checkable
class SettingsPage(Protocol):
    """A tab of the Settings dialog that edits part of :class:`Settings`."""

    def load(self, settings: Settings) -> None:
        """Show ``settings`` in the page's fields."""

    def apply(self, settings: Settings) -> Settings:
        """Return ``settings`` with the page's edits (a copy; never mutate the argument)."""


class SettingsDialog(QDialog):
    """Edits a copy of :class:`Settings`; emits ``saved(Settings)`` on Save."""

    saved = Signal(object)
    models_requested = Signal(str, str)

    def __init__(
        self, settings: Settings, provider: Provider | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("SettingsDialog", "Settings"))
        self.setMinimumWidth(520)
        self._settings = settings
        self._pages: list[SettingsPage] = []
        self._build_fields()
        self._build_layout()
        self._fetch_timer = QTimer(self, singleShot=True, interval=_FETCH_DELAY_MS)
        self._fetch_timer.timeout.connect(self.request_models)
        self._load(settings, provider)
        self.base_url.textEdited.connect(self._schedule_fetch)
        self.api_key.textEdited.connect(self._schedule_fetch)
        self.catalog = ProviderCatalog(  # OpenAI, OpenRouter, …, Ollama (issue 17)
            self.preset, self.base_url, self.api_key, self.model, self.key_note
        )

    # -- what the controller calls -----------------------------------------------------

    def request_models(self) -> None:
        """Ask for the model list of the endpoint currently typed in."""
        url = self.base_url.text().strip()
        if not url:
            return
        self.models_status.setText(QCoreApplication.translate("SettingsDialog", "Fetching models…"))
        self.models_requested.emit(url, self.api_key.text().strip())

    def set_models(self, ids: list[str]) -> None:
        """Offer ``ids`` in the model box, keeping what the user typed."""
        current = self.model.currentText()
        self.model.clear()
        self.model.addItems(ids)
        self.model.setCurrentText(current or (ids[0] if ids else ""))
        if not ids:
            count = QCoreApplication.translate("SettingsDialog", "No models listed.")
        elif len(ids) == 1:  # English without a translator still says "1 model"
            count = QCoreApplication.translate("SettingsDialog", "1 model available.")
        else:
            number = len(ids)  # a plain name: lupdate skips a call as the count
            count = QCoreApplication.translate("SettingsDialog", "%n models available.", "", number)
        self.models_status.setText(count)

    def set_models_error(self, text: str) -> None:
        """Say why the model list could not be fetched (the model can still be typed)."""
        self.models_status.setText(text)

    def add_page(self, title: str, page: QWidget) -> None:
        """Add a tab; ``page`` must implement :class:`SettingsPage` and is loaded at once."""
        if not isinstance(page, SettingsPage):
            raise TypeError(f"{type(page).__name__} does not implement SettingsPage")
        title = QCoreApplication.translate("SettingsDialog", title)  # marked where defined
        self.tabs.addTab(page, title.replace("&", "&&"))  # a title, not a mnemonic
        self._pages.append(page)
        page.load(self._settings)

    def page_titles(self) -> list[str]:
        """The tabs' titles, in order."""
        return [self.tabs.tabText(i).replace("&&", "&") for i in range(self.tabs.count())]

    def edited_settings(self) -> Settings:
        """The settings as the form shows them, every page's edits included."""
        settings = self._edited_core_settings()
        for page in self._pages:
            settings = page.apply(settings)
        return settings

    def _edited_core_settings(self) -> Settings:
        preset = ProviderPreset(
            name=self.preset.currentText().strip() or DEFAULT_PRESET,
            base_url=self.base_url.text().strip(),
            model=self.model.currentText().strip(),
            api_key=SecretStr(self.api_key.text().strip()),
            enabled=self.enabled.isChecked(),
        )
        base = self._settings.with_preset(preset) if preset.base_url else self._settings
        previous = self._settings.active_preset()
        if preset.base_url and not preset.enabled and previous and previous.name != preset.name:
            # Taking a provider out of the picker does not make it the default one.
            base = base.model_copy(update={"active_provider": previous.name})
        return base.model_copy(
            update={
                "temperature": round(self.temperature.value(), 2),
                "system_prompt": self.system_prompt.toPlainText(),
                "theme": self.theme.currentData() or "light",
                "language": self.language.value(),
                "allow_remote_images": self.remote_images.isChecked(),
                "plan_mode": self.plan_mode.isChecked(),
            }
        )

    def accept(self) -> None:
        """Save: hand the settings over, then close."""
        self.saved.emit(self.edited_settings())
        super().accept()

    # -- internals ---------------------------------------------------------------------

    def _build_fields(self) -> None:
        self.preset = QComboBox(editable=True)
        self.preset.setProperty("i18n_data", True)  # preset and provider names
        self.preset.setToolTip(
            QCoreApplication.translate(
                "SettingsDialog", "Saved endpoints; type a new name to add one"
            )
        )
        self.preset.activated.connect(self._on_preset_chosen)
        self.base_url = QLineEdit(placeholderText="https://api.openai.com/v1")
        self.api_key = QLineEdit(
            placeholderText=QCoreApplication.translate(
                "SettingsDialog", "Not needed for most local servers"
            )
        )
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.show_key = QToolButton()
        self.show_key.setText(QCoreApplication.translate("SettingsDialog", "Show"))
        self.show_key.setCheckable(True)
        self.show_key.toggled.connect(self._on_show_key)
        self.key_note = QLabel("")  # where keys come from (ProviderCatalog)
        self.key_note.setObjectName("caption")
        self.key_store_note = QLabel("")  # where keys are kept: the OS keyring or the file
        self.key_store_note.setObjectName("caption")
        self.key_store_note.setTextFormat(Qt.TextFormat.PlainText)  # a backend's name
        self.model = QComboBox(editable=True)
        self.model.setProperty("i18n_data", True)  # model ids
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.refresh_models = QToolButton()
        self.refresh_models.setText("↻")
        self.refresh_models.setToolTip(
            QCoreApplication.translate("SettingsDialog", "Fetch the server's model list")
        )
        self.refresh_models.clicked.connect(self.request_models)
        self.models_status = QLabel("")
        self.models_status.setObjectName("caption")
        self.enabled = QCheckBox(
            QCoreApplication.translate(
                "SettingsDialog", "List this provider's models in the chat's model picker"
            )
        )
        self.enabled.setChecked(True)
        self.enabled.setToolTip(
            QCoreApplication.translate(
                "SettingsDialog",
                "Every saved provider that is listed is active at once: a chat can switch to "
                "any of their models in its header",
            )
        )
        self.saved_providers = QLabel("")  # which saved providers the picker lists
        self.saved_providers.setObjectName("caption")
        self.saved_providers.setTextFormat(Qt.TextFormat.PlainText)  # names the user typed
        self.saved_providers.setWordWrap(True)
        self.temperature = QDoubleSpinBox(minimum=0.0, maximum=2.0, singleStep=0.1, decimals=2)
        self.system_prompt = QPlainTextEdit()
        self.system_prompt.setMaximumHeight(110)
        self.theme = QComboBox()
        for label, value in (
            (QCoreApplication.translate("SettingsDialog", "Light"), "light"),
            (QCoreApplication.translate("SettingsDialog", "Dark"), "dark"),
            (QCoreApplication.translate("SettingsDialog", "System"), "system"),
        ):
            self.theme.addItem(label, value)
        self.theme.setToolTip(
            QCoreApplication.translate(
                "SettingsDialog", "System follows the desktop's light or dark setting"
            )
        )
        self.language = LanguageBox()  # applies after a restart (issue 21)
        self.remote_images = QCheckBox(
            QCoreApplication.translate(
                "SettingsDialog", "Load images from the web in messages without asking"
            )
        )
        self.plan_mode = QCheckBox(
            QCoreApplication.translate(
                "SettingsDialog", "Plan complex tasks (the chat shows the plan as a checklist)"
            )
        )
        self.plan_mode.setToolTip(
            QCoreApplication.translate(
                "SettingsDialog",
                "Gives the assistant plan tools; every request then carries ~2,000 more tokens",
            )
        )

    def _build_layout(self) -> None:
        model_page, form = _form_page()
        form.addRow(QCoreApplication.translate("SettingsDialog", "Preset"), self.preset)
        form.addRow(QCoreApplication.translate("SettingsDialog", "Base URL"), self.base_url)
        form.addRow(
            QCoreApplication.translate("SettingsDialog", "API key"),
            _row(self.api_key, self.show_key),
        )
        form.addRow("", self.key_note)
        form.addRow("", self.key_store_note)
        form.addRow(
            QCoreApplication.translate("SettingsDialog", "Model"),
            _row(self.model, self.refresh_models),
        )
        form.addRow("", self.models_status)
        form.addRow("", self.enabled)
        form.addRow("", self.saved_providers)
        form.addRow(QCoreApplication.translate("SettingsDialog", "Temperature"), self.temperature)
        form.addRow(
            QCoreApplication.translate("SettingsDialog", "System prompt"), self.system_prompt
        )
        form.addRow("", self.plan_mode)
        appearance_page, appearance = _form_page()
        appearance.addRow(QCoreApplication.translate("SettingsDialog", "Theme"), self.theme)
        appearance.addRow(QCoreApplication.translate("SettingsDialog", "Language"), self.language)
        appearance.addRow("", self.remote_images)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(model_page, QCoreApplication.translate("SettingsDialog", "Model"))
        self.tabs.addTab(
            appearance_page, QCoreApplication.translate("SettingsDialog", "Appearance")
        )
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(buttons)

    def _load(self, settings: Settings, provider: Provider | None) -> None:
        self.preset.addItems([p.name for p in settings.providers])
        preset = settings.active_preset()
        if preset is not None:
            self._show_preset(preset)
        elif provider is not None:  # pre-fill with what was found (environment, local server)
            known = known_provider_at(provider.base_url)
            name = known.name if known is not None else CUSTOM_PRESET
            self.preset.setCurrentText(provider.name if provider.source == "local" else name)
            self.base_url.setText(provider.base_url)
            self.api_key.setText(provider.api_key.get_secret_value())
            self.model.setCurrentText(provider.model)
        else:
            self.preset.setCurrentText(DEFAULT_PRESET)
        self.temperature.setValue(settings.temperature)
        self.system_prompt.setPlainText(settings.system_prompt)
        self.theme.setCurrentIndex(max(0, self.theme.findData(settings.theme)))
        self.language.load(settings.language)
        self.remote_images.setChecked(settings.allow_remote_images)
        self.plan_mode.setChecked(settings.plan_mode)
        self.saved_providers.setText(saved_providers_text(settings))

    def _show_preset(self, preset: ProviderPreset) -> None:
        self.preset.setCurrentText(preset.name)
        self.base_url.setText(preset.base_url)
        self.api_key.setText(preset.api_key.get_secret_value())
        self.model.setCurrentText(preset.model)
        self.enabled.setChecked(preset.enabled)

    def _on_preset_chosen(self, index: int) -> None:
        name = self.preset.itemText(index)
        for preset in self._settings.providers:
            if preset.name == name:
                self._show_preset(preset)
                self._schedule_fetch()

    def _on_show_key(self, shown: bool) -> None:
        mode = QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password
        self.api_key.setEchoMode(mode)
        hide, show = (
            QCoreApplication.translate("SettingsDialog", "Hide"),
            QCoreApplication.translate("SettingsDialog", "Show"),
        )
        self.show_key.setText(hide if shown else show)

    def _schedule_fetch(self) -> None:
        self._fetch_timer.start()


def saved_providers_text(settings: Settings) -> str:
    """Which saved providers the model picker lists (and which one is the default)."""
    if not settings.providers:
        return ""
    default = settings.active_preset()
    listed: list[str] = []
    hidden: list[str] = []
    for preset in settings.providers:
        name = preset.name
        if default is not None and preset.name == default.name:
            name = QCoreApplication.translate("SettingsDialog", "{name} (default)").format(
                name=name
            )
        (listed if preset.enabled or preset is default else hidden).append(name)
    text = QCoreApplication.translate(
        "SettingsDialog", "Saved providers, all active in the model picker: {names}."
    ).format(names=", ".join(listed))
    if hidden:
        text += " " + QCoreApplication.translate("SettingsDialog", "Not listed: {names}.").format(
            names=", ".join(hidden)
        )
    return text


def _form_page() -> tuple[QWidget, QFormLayout]:
    page = QWidget()
    column = QVBoxLayout(page)
    form = QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    column.addLayout(form)
    column.addStretch(1)  # a tall dialog: the rows stay together at the top
    return page, form


def _row(main: QWidget, side: QWidget) -> QWidget:
    box = QWidget()
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(main, 1)
    layout.addWidget(side, 0, Qt.AlignmentFlag.AlignVCenter)
    return box
