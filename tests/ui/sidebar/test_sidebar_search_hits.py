"""A search hit opens its chat scrolled to the match, highlighted; snippets show the match."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _sidebar_helpers import click_row, open_desktop, save_session
from PySide6.QtGui import QFont, QFontMetrics
from pytestqt.qtbot import QtBot

from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.chat._document_view import DocumentView
from desktop_agent.ui.sidebar._delegate import snippet_around


async def test_a_search_hit_opens_at_the_match_highlighted(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: Any, desktop_agent_home: Path
) -> None:
    texts = [f"Question {i} about bread and flour, " + "words " * 30 for i in range(30)]
    texts[3] = "Where is the lighthouse of Cabo da Roca?"
    session_id = await save_session(desktop_agent_home, texts)
    await save_session(desktop_agent_home, ["Something else entirely", "Indeed."])
    app = await open_desktop(qtbot, server, wait_until)
    try:
        app.window.resize(900, 600)
        sidebar = app.window.sidebar
        qtbot.keyClicks(sidebar.search, "lighthouse")
        await wait_until(lambda: sidebar.model.mode == "search" and sidebar.model.rowCount() == 1)
        click_row(qtbot, app, session_id)
        await wait_until(lambda: app.chat_view.highlighted_row is not None, timeout=10)
        chat = app.chat_view
        assert chat.highlighted_row == 3
        assert not chat.list.is_at_bottom()
        row = chat.list.row_widget(3)
        assert row is not None and row.isVisible()
        assert 0 <= row.y() < chat.list.viewport().height()
        marked = [
            selection.cursor.selectedText()
            for view in row.findChildren(DocumentView)
            for selection in view.extraSelections()
        ]
        assert marked == ["lighthouse"]
    finally:
        await app.aclose()


def test_the_snippet_is_cut_so_the_match_shows(qtbot: QtBot) -> None:
    metrics = QFontMetrics(QFont())
    text = "…" + "lots of words before the thing we look for " * 3 + "river path is muddy today"
    width = metrics.horizontalAdvance("x" * 30)
    shown = snippet_around(text, "river path", metrics, width)
    assert "river path" in shown
    assert shown.startswith("…")
    assert metrics.horizontalAdvance(shown) <= width
    assert snippet_around("short river path", "river path", metrics, width) == "short river path"
