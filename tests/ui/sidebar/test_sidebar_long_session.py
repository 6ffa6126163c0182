"""A long session opened from the sidebar: its last rows are shown first, its older ones
follow; a search hit far back in it opens at that hit (older rows included)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _sidebar_helpers import click_row, open_desktop, save_session
from pytestqt.qtbot import QtBot

from desktop_agent.app import Reset
from desktop_agent.testing import OpenAICompatServer

MESSAGES = 1_000


async def test_a_hit_far_back_in_a_long_session_opens_there(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: Any, desktop_agent_home: Path
) -> None:
    texts = [
        f"Question {i} about bread and flour" if i % 2 == 0 else f"Answer {i}"
        for i in range(MESSAGES)
    ]
    texts[4] = "Where is the lighthouse of Cabo da Roca?"
    session_id = await save_session(desktop_agent_home, texts)
    app = await open_desktop(qtbot, server, wait_until)
    try:
        app.window.resize(900, 600)
        shown_first: list[int] = []
        app.conversation.subscribe(
            lambda event: (
                shown_first.append(len(app.conversation)) if isinstance(event, Reset) else None
            )
        )
        sidebar = app.window.sidebar
        qtbot.keyClicks(sidebar.search, "lighthouse")
        await wait_until(lambda: sidebar.model.mode == "search" and sidebar.model.rowCount() == 1)
        click_row(qtbot, app, session_id)
        await wait_until(lambda: app.chat_view.highlighted_row is not None, timeout=10)

        assert shown_first and shown_first[0] < MESSAGES  # the last rows came first
        assert len(app.conversation) == MESSAGES
        chat = app.chat_view
        assert chat.highlighted_row == 4
        row = chat.list.row_widget(4)
        assert row is not None and row.isVisible()
        assert not chat.list.is_at_bottom()
    finally:
        await app.aclose()
