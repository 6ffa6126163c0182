"""Settings: where they live, how they are written, what happens to a bad file."""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from desktop_agent.app import ProviderPreset, Settings, load_settings, save_settings, settings_path

KEY = "sk-test-0123456789abcdef"


def _settings() -> Settings:
    preset = ProviderPreset(
        name="Work", base_url="http://127.0.0.1:9/v1", model="m", api_key=SecretStr(KEY)
    )
    return Settings(temperature=0.3, theme="dark", system_prompt="Be brief.").with_preset(preset)


def test_settings_path_follows_desktop_agent_home(desktop_agent_home: Path) -> None:
    assert settings_path() == desktop_agent_home / "settings.json"


def test_settings_path_without_home_is_the_platform_config_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("DESKTOP_AGENT_HOME")
    assert settings_path() == tmp_path / "xdg-config" / "desktop-agent" / "settings.json"


def test_missing_file_gives_defaults_without_warning() -> None:
    loaded = load_settings()
    assert loaded.settings == Settings()
    assert loaded.warning is None


def test_round_trip_keeps_everything_and_file_is_owner_only(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    original = _settings()
    path = save_settings(original)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    loaded = load_settings()
    assert loaded.warning is None
    assert loaded.settings == original
    preset = loaded.settings.active_preset()
    assert preset is not None and preset.api_key.get_secret_value() == KEY
    assert KEY not in caplog.text


def test_overwrite_stays_owner_only_and_leaves_no_temporary_files(desktop_agent_home: Path) -> None:
    save_settings(_settings())
    save_settings(_settings().model_copy(update={"temperature": 1.0}))
    assert [p.name for p in desktop_agent_home.iterdir()] == ["settings.json"]
    assert stat.S_IMODE((desktop_agent_home / "settings.json").stat().st_mode) == 0o600
    assert load_settings().settings.temperature == 1.0


def test_api_key_never_in_repr_str_or_plain_dump() -> None:
    settings = _settings()
    for text in (repr(settings), str(settings), json.dumps(settings.model_dump(mode="json"))):
        assert KEY not in text
    assert KEY not in repr(settings.active_preset())


def test_unknown_keys_are_rejected() -> None:
    with pytest.raises(ValidationError):
        Settings.model_validate({"theme": "light", "colour": "blue"})


@pytest.mark.parametrize(
    "content",
    [b"{ not json", b'{"temperature": "hot"}', b'{"unexpected": 1}', b"\xff\xfe\x00"],
    ids=["syntax", "type", "extra-key", "binary"],
)
def test_malformed_file_gives_defaults_a_warning_and_is_kept_aside(
    desktop_agent_home: Path, content: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    path = desktop_agent_home / "settings.json"
    path.write_bytes(content)
    loaded = load_settings()
    assert loaded.settings == Settings()
    assert loaded.warning is not None and "default settings are in use" in loaded.warning
    kept = [p for p in desktop_agent_home.iterdir() if p.name.startswith("settings.json.bad-")]
    assert len(kept) == 1
    assert kept[0].read_bytes() == content
    assert not path.exists()
    assert "could not be used" in caplog.text


def test_validation_warning_does_not_echo_the_key(
    desktop_agent_home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bad = {"providers": [{"name": "x", "base_url": "u", "model": 3, "api_key": KEY, "oops": KEY}]}
    (desktop_agent_home / "settings.json").write_text(json.dumps(bad))
    loaded = load_settings()
    assert loaded.warning is not None
    assert KEY not in loaded.warning
    assert KEY not in caplog.text


def test_two_bad_files_in_the_same_second_are_both_kept(desktop_agent_home: Path) -> None:
    for content in ("{", "["):
        (desktop_agent_home / "settings.json").write_text(content)
        load_settings()
    kept = sorted(p.read_text() for p in desktop_agent_home.iterdir())
    assert kept == ["[", "{"]


def test_active_preset_rules() -> None:
    a = ProviderPreset(name="a", base_url="u", model="m")
    b = ProviderPreset(name="b", base_url="u", model="m")
    assert Settings(providers=[a]).active_preset() == a
    assert Settings(providers=[a, b]).active_preset() is None
    assert Settings(providers=[a, b], active_provider="b").active_preset() == b
    replaced = Settings(providers=[a, b]).with_preset(a.model_copy(update={"model": "n"}))
    assert replaced.active_provider == "a"
    assert [p.model for p in replaced.providers if p.name == "a"] == ["n"]
