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
