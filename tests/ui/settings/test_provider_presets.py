"""Settings → Model: the well-known providers are offered as presets (base URL, a model to
start with, where keys come from), saved like any other, several at once."""

from __future__ import annotations

from pydantic import SecretStr
from pytestqt.qtbot import QtBot

from desktop_agent.app import ProviderPreset, Settings
from desktop_agent.app._provider_catalog import KNOWN_PROVIDERS
from desktop_agent.ui.settings import SettingsDialog

EXPECTED = {
    "OpenAI", "OpenRouter", "DeepSeek", "Groq", "Mistral", "Together", "xAI",
    "Google Gemini", "Ollama", "LM Studio", "llama.cpp", "vLLM",
}  # fmt: skip


def _choose(dialog: SettingsDialog, name: str) -> None:
    index = dialog.preset.findText(name)
    assert index >= 0, name
    dialog.preset.setCurrentIndex(index)
    dialog.preset.activated.emit(index)


def test_every_known_provider_is_offered(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    offered = {dialog.preset.itemText(i) for i in range(dialog.preset.count())}
    assert offered >= EXPECTED
    assert {p.name for p in KNOWN_PROVIDERS} == EXPECTED
    assert all(p.base_url.startswith(("https://", "http://127.0.0.1")) for p in KNOWN_PROVIDERS)
    assert all(p.key_url.startswith("https://") for p in KNOWN_PROVIDERS if p.needs_key)


def test_choosing_one_fills_the_form_and_saving_keeps_both(qtbot: QtBot) -> None:
    ollama = ProviderPreset(name="Ollama", base_url="http://127.0.0.1:11434/v1", model="qwen")
    dialog = SettingsDialog(Settings(providers=[ollama], active_provider="Ollama"))
    qtbot.addWidget(dialog)
    _choose(dialog, "Groq")
    assert dialog.base_url.text() == "https://api.groq.com/openai/v1"
    assert dialog.model.currentText() == "llama-3.3-70b-versatile"
    assert "https://console.groq.com/keys" in dialog.key_note.text()
    dialog.api_key.setText("gsk-test")
    saved: list[Settings] = []
    dialog.saved.connect(saved.append)
    dialog.accept()
    settings = saved[0]
    assert {p.name for p in settings.providers} == {"Ollama", "Groq"}
    active = settings.active_preset()
    assert active is not None and active.name == "Groq"
    assert active.api_key == SecretStr("gsk-test")


def test_a_local_one_says_no_key_is_needed(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    _choose(dialog, "LM Studio")
    assert dialog.base_url.text() == "http://127.0.0.1:1234/v1"
    assert "no API key needed" in dialog.key_note.text()


def test_a_found_provider_is_named_by_its_url_not_the_first_preset(qtbot: QtBot) -> None:
    from desktop_agent.app import Provider

    loopback = Provider(
        "Environment", "http://127.0.0.1:5555/v1", "m", SecretStr(""), "environment"
    )
    dialog = SettingsDialog(Settings(), loopback)
    qtbot.addWidget(dialog)
    assert dialog.preset.currentText() == "Custom"  # not "OpenAI"
    assert dialog.base_url.text() == "http://127.0.0.1:5555/v1"
    openai = Provider(
        "Environment", "https://api.openai.com/v1/", "m", SecretStr(""), "environment"
    )
    dialog = SettingsDialog(Settings(), openai)
    qtbot.addWidget(dialog)
    assert dialog.preset.currentText() == "OpenAI"


def test_which_saved_providers_the_picker_lists(qtbot: QtBot) -> None:
    presets = [
        ProviderPreset(name="Groq", base_url="https://api.groq.com/openai/v1", model="a"),
        ProviderPreset(name="Work", base_url="http://127.0.0.1:1/v1", model="b", enabled=False),
    ]
    dialog = SettingsDialog(Settings(providers=presets, active_provider="Groq"))
    qtbot.addWidget(dialog)
    text = dialog.saved_providers.text()
    assert "Groq (default)" in text and "Not listed: Work" in text
    assert dialog.enabled.isChecked()
    _choose(dialog, "Work")
    assert not dialog.enabled.isChecked()
    dialog.enabled.setChecked(True)
    saved = dialog.edited_settings()
    assert all(p.enabled for p in saved.providers) and saved.active_provider == "Work"


def test_taking_a_provider_out_of_the_picker_keeps_the_default(qtbot: QtBot) -> None:
    presets = [
        ProviderPreset(name="Groq", base_url="https://api.groq.com/openai/v1", model="a"),
        ProviderPreset(name="Work", base_url="http://127.0.0.1:1/v1", model="b"),
    ]
    dialog = SettingsDialog(Settings(providers=presets, active_provider="Groq"))
    qtbot.addWidget(dialog)
    _choose(dialog, "Work")
    dialog.enabled.setChecked(False)
    saved = dialog.edited_settings()
    assert saved.active_provider == "Groq"
    assert [(p.name, p.enabled) for p in saved.providers] == [("Groq", True), ("Work", False)]
