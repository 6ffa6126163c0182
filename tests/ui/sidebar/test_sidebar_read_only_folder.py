"""A session opened while the data folder cannot be written: the banner says why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _sidebar_helpers import click_row, open_desktop, save_session, shown_texts
from pytestqt.qtbot import QtBot
from test_sidebar_faults import read_only

from desktop_agent.testing import OpenAICompatServer


async def test_a_read_only_data_folder_is_described_as_such(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: Any, desktop_agent_home: Path
) -> None:
    saved = await save_session(desktop_agent_home, ["Kept", "Yes."])
    app = await open_desktop(qtbot, server, wait_until)
    try:
        with read_only(desktop_agent_home / "sessions"):
            click_row(qtbot, app, saved)
            await wait_until(lambda: app.sessions.switcher.active_id == saved)
        assert app.sessions.switcher.read_only
        assert shown_texts(app) == ["Kept", "Yes."]
        banner = app.window.banner.label.text()
        assert app.window.banner.isVisible()
        assert "data folder" in banner and "cannot be written" in banner
        assert "another" not in banner
    finally:
        await app.aclose()
