"""API keys in the OS keyring (a test backend set with ``keyring.set_keyring``) or, with
no keyring, in the owner-only settings file; keys already in the file are migrated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _memory_keyring import MemoryKeyring
from keyring.backends import fail
from pydantic import SecretStr

from desktop_agent.app import ProviderPreset, Settings, load_settings, save_settings
from desktop_agent.app._keyring_store import FILE_NOTE, SERVICE, KeyStore, load_keys, save_keys


def _settings(key: str = "sk-secret-123") -> Settings:
    preset = ProviderPreset(name="Work", base_url="https://x/v1", model="m", api_key=SecretStr(key))
    return Settings(providers=[preset], active_provider="Work")


def _file_keys(path: Path) -> list[str]:
    return [p["api_key"] for p in json.loads(path.read_text())["providers"]]


def test_with_a_keyring_the_key_leaves_the_file(
    memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    path = tmp_path / "settings.json"
    store = KeyStore()
    assert store.available and "system keyring" in store.note()
    save_keys(_settings(), store, path)
    assert _file_keys(path) == [""]
    assert "sk-secret-123" not in path.read_text()
    assert memory_keyring.passwords == {(SERVICE, "Work"): "sk-secret-123"}
    loaded = load_keys(load_settings(path).settings, store, path)
    preset = loaded.active_preset()
    assert preset is not None and preset.api_key.get_secret_value() == "sk-secret-123"


def test_keys_already_in_the_file_are_migrated(
    memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    path = tmp_path / "settings.json"
    save_settings(_settings("sk-old-456"), path)  # as saved before the keyring was used
    assert _file_keys(path) == ["sk-old-456"]
    loaded = load_keys(load_settings(path).settings, KeyStore(), path)
    assert _file_keys(path) == [""]
    assert memory_keyring.passwords[(SERVICE, "Work")] == "sk-old-456"
    preset = loaded.active_preset()
    assert preset is not None and preset.api_key.get_secret_value() == "sk-old-456"


def test_without_a_keyring_the_owner_only_file_keeps_the_key(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    store = KeyStore(fail.Keyring())
    assert not store.available
    assert store.note() == FILE_NOTE
    save_keys(_settings(), store, path)
    assert _file_keys(path) == ["sk-secret-123"]
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    loaded = load_keys(load_settings(path).settings, store, path)
    preset = loaded.active_preset()
    assert preset is not None and preset.api_key.get_secret_value() == "sk-secret-123"


def test_the_import_of_keyring_waits_for_first_use() -> None:
    import subprocess
    import sys

    code = (
        "import sys, desktop_agent.app._keyring_store as k; s = k.KeyStore();"
        "print('keyring' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_cleared_key_does_not_come_back_from_the_keyring(
    memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    path = tmp_path / "settings.json"
    save_keys(_settings(), KeyStore(), path)
    store = KeyStore()  # the next start
    loaded = load_keys(load_settings(path).settings, store, path)
    assert loaded.providers[0].api_key.get_secret_value() == "sk-secret-123"
    save_keys(_settings(key=""), store, path)  # the user cleared it in Settings
    assert memory_keyring.passwords == {}
    again = load_keys(load_settings(path).settings, KeyStore(), path)
    assert again.providers[0].api_key.get_secret_value() == ""


def test_a_key_never_read_is_not_deleted_by_a_save(
    memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    path = tmp_path / "settings.json"
    save_keys(_settings(), KeyStore(), path)
    # The next start: Settings saved (another change) before the keys were loaded.
    save_keys(_settings(key=""), KeyStore(), path)
    assert memory_keyring.passwords == {(SERVICE, "Work"): "sk-secret-123"}


def test_saving_unchanged_keys_makes_no_keyring_call(
    memory_keyring: MemoryKeyring, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    store = KeyStore()
    save_keys(_settings(), store, path)
    calls: list[str] = []
    monkeypatch.setattr(memory_keyring, "set_password", lambda *a: calls.append("set"))
    monkeypatch.setattr(memory_keyring, "delete_password", lambda *a: calls.append("delete"))
    save_keys(_settings(), store, path)  # Settings saved again, the key as it was
    assert calls == []
    save_keys(_settings("sk-new"), store, path)
    assert calls == ["set"]
