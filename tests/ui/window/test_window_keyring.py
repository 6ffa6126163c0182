"""The app keeps API keys in the OS keyring (a test backend): a key saved in settings.json
before is moved there at start, requests still carry it, and Settings says where it is."""

from __future__ import annotations

import json
from pathlib import Path

from _memory_keyring import MemoryKeyring
from _window_helpers import send
from pydantic import SecretStr
from pytestqt.qtbot import QtBot

from desktop_agent.app import ProviderPreset, Settings, save_settings
from desktop_agent.app._keyring_store import SERVICE
from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.window import DesktopApp


async def test_a_key_in_the_file_moves_to_the_keyring_and_still_works(
    qtbot: QtBot, memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    with OpenAICompatServer(api_key="sk-real-key-1") as server:
        path = tmp_path / "settings.json"
        preset = ProviderPreset(
            name="Mine", base_url=server.base_url, model="m", api_key=SecretStr("sk-real-key-1")
        )
        save_settings(Settings(providers=[preset], active_provider="Mine"), path)
        app = DesktopApp(settings_path=path, environ={}, local_servers=[])
        qtbot.addWidget(app.window)
        try:
            await app.start()
            stored = json.loads(path.read_text())["providers"][0]["api_key"]
            assert stored == ""
            assert memory_keyring.passwords == {(SERVICE, "Mine"): "sk-real-key-1"}
            await send(qtbot, app, "hi")  # 401 without the key
            assert server.chat_requests[-1].headers["authorization"] == "Bearer sk-real-key-1"
            dialog = app.settings.open_dialog()
            assert (
                dialog.key_store_note.text()
                == "API keys are kept in the system keyring (Test keyring)."
            )
            dialog.reject()
        finally:
            await app.aclose()
