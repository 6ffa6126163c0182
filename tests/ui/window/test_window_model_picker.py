"""The chat header's model picker against the loopback server: the list (searchable, the
recent models first), the next request using the picked model, the choice saved with the
chat and restored when it is opened again, a new chat starting with the last used model."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from _window_helpers import send
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.app._model_choice import ModelChoice
from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.window import DesktopApp


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        running.models = ["test-model", "alpha-small", "beta-large"]
        yield running


pytestmark = pytest.mark.with_library  # the chat is saved: the library is open


def _listed(desktop: DesktopApp) -> list[str]:
    popup = desktop.window.model_picker.popup
    return [
        str(popup.list.item(i).data(Qt.ItemDataRole.UserRole))
        for i in range(popup.list.count())
        if not popup.list.item(i).isHidden() and popup.list.item(i).data(Qt.ItemDataRole.UserRole)
    ]


async def _open_list(qtbot: QtBot, desktop: DesktopApp) -> None:
    picker = desktop.window.model_picker
    qtbot.mouseClick(picker, Qt.MouseButton.LeftButton)
    await _until(lambda: "alpha-small" in _listed(desktop))


async def _until(condition: object) -> None:
    assert callable(condition)
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met in time")


async def _pick(qtbot: QtBot, desktop: DesktopApp, search: str) -> None:
    await _open_list(qtbot, desktop)
    popup = desktop.window.model_picker.popup
    qtbot.keyClicks(popup.search, search)
    qtbot.keyClick(popup.search, Qt.Key.Key_Return)


async def test_the_picked_model_answers_the_next_request(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    picker = desktop.window.model_picker
    assert picker.text().startswith("test-model")
    await _open_list(qtbot, desktop)
    assert _listed(desktop) == ["alpha-small", "beta-large", "test-model"]
    qtbot.keyClicks(picker.popup.search, "BETA")  # case-insensitive substring search
    assert _listed(desktop) == ["beta-large"]
    qtbot.keyClick(picker.popup.search, Qt.Key.Key_Return)
    assert picker.text().startswith("beta-large")
    assert "beta-large" in desktop.window.status_line.model_label.text()

    await send(qtbot, desktop, "hello")
    assert server.chat_requests[-1].body["model"] == "beta-large"

    await _open_list(qtbot, desktop)  # the recent one first now
    assert _listed(desktop)[0] == "beta-large"


async def test_the_choice_is_saved_with_the_chat_and_restored(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    switcher = desktop.sessions.switcher
    await _pick(qtbot, desktop, "alpha")
    await send(qtbot, desktop, "first chat")
    await _until(lambda: switcher.active_id is not None)
    first = switcher.active_id
    assert first is not None
    await send(qtbot, desktop, "still the first chat")  # saved as a session: same model
    assert server.chat_requests[-1].body["model"] == "alpha-small"

    await switcher.new_chat()
    assert desktop.service.provider is not None
    assert desktop.service.provider.model == "alpha-small"  # a new chat: the last used
    await _pick(qtbot, desktop, "beta")
    await send(qtbot, desktop, "second chat")
    await _until(lambda: switcher.active_id not in (None, first))

    await switcher.open(first)
    assert desktop.service.provider.model == "alpha-small"
    assert desktop.window.model_picker.text().startswith("alpha-small")
    await send(qtbot, desktop, "back in the first chat")
    assert server.chat_requests[-1].body["model"] == "alpha-small"


def test_recent_models_survive_a_restart(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    choice = ModelChoice(tmp_path / "models.json")
    choice.choose("b")
    choice.choose("a")
    again = ModelChoice(tmp_path / "models.json")
    assert again.last_used == "a"
    assert again.ordered(["c", "b", "a", "B0"]) == ["a", "b", "B0", "c"]
    assert oct((tmp_path / "models.json").stat().st_mode & 0o777) == "0o600"
