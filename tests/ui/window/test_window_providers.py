"""Several providers configured at once, against two loopback servers: the header's model
picker lists the models of each under its name (a provider that cannot be reached says so
in its group), a model of another provider sends the next request to that provider's
server with its key, and the chat's provider is saved with it and restored."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
from _window_helpers import send
from pydantic import SecretStr
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.app import ProviderPreset, Settings, save_settings
from desktop_agent.app._providers import configured_providers
from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.window import DesktopApp
from desktop_agent.ui.window._model_picker import HEADER_ROLE, MODEL_ROLE, PROVIDER_ROLE

UNREACHABLE = "http://127.0.0.1:9/v1"  # the discard port: nothing listens


@pytest.fixture
def servers() -> Iterator[tuple[OpenAICompatServer, OpenAICompatServer]]:
    with (
        OpenAICompatServer(api_key="key-alpha") as alpha,
        OpenAICompatServer(api_key="key-beta") as beta,
    ):
        alpha.models = ["alpha-one", "alpha-two"]
        beta.models = ["beta-one", "beta-two"]
        yield alpha, beta


def _settings(alpha: OpenAICompatServer, beta: OpenAICompatServer) -> Settings:
    def preset(name: str, url: str, model: str, key: str, enabled: bool = True) -> ProviderPreset:
        return ProviderPreset(
            name=name, base_url=url, model=model, api_key=SecretStr(key), enabled=enabled
        )

    return Settings(
        providers=[
            preset("Alpha", alpha.base_url, "alpha-one", "key-alpha"),
            preset("Beta", beta.base_url, "beta-one", "key-beta"),
            preset("Down", UNREACHABLE, "gone", "k"),
            preset("Hidden", beta.base_url, "beta-one", "key-beta", enabled=False),
        ],
        active_provider="Alpha",
    )


@pytest.fixture
async def desktop(
    qtbot: QtBot, tmp_path: Path, servers: tuple[OpenAICompatServer, OpenAICompatServer]
) -> AsyncIterator[DesktopApp]:
    path = tmp_path / "config" / "settings.json"
    save_settings(_settings(*servers), path)
    app = DesktopApp(settings_path=path, environ={}, local_servers=[])
    qtbot.addWidget(app.window)
    await app.start()
    await app.sessions.switcher.start()
    yield app
    await app.aclose()


def _groups(desktop: DesktopApp) -> dict[str, list[str]]:
    """Provider → its visible rows (model names, or the note shown instead)."""
    popup = desktop.window.model_picker.popup
    groups: dict[str, list[str]] = {}
    for row in range(popup.list.count()):
        item = popup.list.item(row)
        if item.isHidden():
            continue
        provider = str(item.data(PROVIDER_ROLE))
        if item.data(HEADER_ROLE):
            groups[provider] = []
        else:
            groups.setdefault(provider, []).append(
                str(item.data(MODEL_ROLE) or item.text().strip())
            )
    return groups


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met in time")


def _loaded(desktop: DesktopApp) -> bool:
    groups = _groups(desktop)
    return "Down" in groups and all(rows and "Loading" not in rows[0] for rows in groups.values())


async def _pick(qtbot: QtBot, desktop: DesktopApp, search: str) -> None:
    picker = desktop.window.model_picker
    qtbot.mouseClick(picker, Qt.MouseButton.LeftButton)
    await _until(lambda: _loaded(desktop))
    qtbot.keyClicks(picker.popup.search, search)
    qtbot.keyClick(picker.popup.search, Qt.Key.Key_Return)


async def test_the_picker_groups_the_models_of_every_enabled_provider(
    qtbot: QtBot, desktop: DesktopApp
) -> None:
    picker = desktop.window.model_picker
    for _ in range(2):  # opened twice: the same groups, fetched again
        qtbot.mouseClick(picker, Qt.MouseButton.LeftButton)
        await _until(lambda: _loaded(desktop))
        groups = _groups(desktop)
        assert list(groups) == ["Alpha", "Beta", "Down"]  # not the disabled one
        assert groups["Alpha"] == ["alpha-one", "alpha-two"]
        assert groups["Beta"] == ["beta-one", "beta-two"]
        assert len(groups["Down"]) == 1 and groups["Down"][0].startswith("Could not list models")
        qtbot.keyClicks(picker.popup.search, "two")  # the search hides empty groups
        assert _groups(desktop) == {"Alpha": ["alpha-two"], "Beta": ["beta-two"]}
        picker.popup.hide()


async def test_another_providers_model_goes_to_its_server_and_is_restored(
    qtbot: QtBot,
    desktop: DesktopApp,
    servers: tuple[OpenAICompatServer, OpenAICompatServer],
) -> None:
    alpha, beta = servers
    await send(qtbot, desktop, "to the default provider")
    assert alpha.chat_requests[-1].body["model"] == "alpha-one"
    assert alpha.chat_requests[-1].headers["authorization"] == "Bearer key-alpha"

    await _pick(qtbot, desktop, "beta-two")
    assert desktop.window.model_picker.text().startswith("beta-two")
    assert "Beta" in desktop.window.status_line.model_label.text()
    await send(qtbot, desktop, "to beta")
    assert beta.chat_requests[-1].body["model"] == "beta-two"
    assert beta.chat_requests[-1].headers["authorization"] == "Bearer key-beta"
    assert len(alpha.chat_requests) == 1
    switcher = desktop.sessions.switcher
    first = switcher.active_id
    assert first is not None
    assert switcher.library is not None
    await switcher.save_now()
    parts = await switcher.library.read_parts(first)
    assert parts["chat"]["provider"] == "Beta" and parts["meta"]["model"] == "beta-two"

    await switcher.new_chat()
    await _pick(qtbot, desktop, "alpha-two")
    await send(qtbot, desktop, "a second chat, on alpha")
    assert alpha.chat_requests[-1].body["model"] == "alpha-two"
    await _until(lambda: switcher.active_id not in (None, first))

    await switcher.open(first)
    assert desktop.service.provider is not None
    assert (desktop.service.provider.name, desktop.service.provider.model) == ("Beta", "beta-two")
    await send(qtbot, desktop, "back in the first chat")
    assert beta.chat_requests[-1].body["model"] == "beta-two"
    assert len(alpha.chat_requests) == 2


def test_configured_providers_put_the_default_first() -> None:
    settings = Settings(
        providers=[
            ProviderPreset(name="A", base_url="http://a/v1", model="m"),
            ProviderPreset(name="B", base_url="http://b/v1", model="n", enabled=False),
            ProviderPreset(name="C", base_url="http://c/v1", model="o"),
        ],
        active_provider="C",
    )
    from desktop_agent.app._providers import provider_from_settings

    default = provider_from_settings(settings)
    assert [p.name for p in configured_providers(settings, default)] == ["C", "A"]
    assert [p.name for p in configured_providers(settings, None)] == ["A", "C"]
