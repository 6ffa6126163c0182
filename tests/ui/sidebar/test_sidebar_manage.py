"""Managing sessions from the sidebar: search, rename, delete with undo, trash, index."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from _sidebar_helpers import open_desktop, save_session, titles
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.sidebar import SNIPPET_ROLE
from desktop_agent.ui.sidebar._sidebar import UNDO_SHOWN_MS

WaitUntil = Any
WaitSignal = Any


async def _three_sessions(home: Path) -> list[str]:
    return [
        await save_session(home, ["Plan a trip to Lisbon", "Start at the Alfama."]),
        await save_session(home, ["Bake sourdough bread", "Feed the starter first."]),
        await save_session(home, ["Fix my bicycle", "Check the chain; the river path is muddy."]),
    ]


def _title_on_disk(home: Path, session_id: str) -> str:
    data = orjson.loads((home / "sessions" / f"{session_id}.json").read_bytes())
    return str(data["meta"]["title"])


async def test_sessions_are_listed_newest_first(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: WaitUntil, desktop_agent_home: Path
) -> None:
    await _three_sessions(desktop_agent_home)
    app = await open_desktop(qtbot, server, wait_until)
    try:
        assert titles(app) == ["Fix my bicycle", "Bake sourdough bread", "Plan a trip to Lisbon"]
        model = app.window.sidebar.model
        assert model.index(0).data(model_time_role()) == "just now"
        assert app.sessions.switcher.active_id is None  # nothing reopened: no state file
    finally:
        await app.aclose()


def model_time_role() -> int:
    from desktop_agent.ui.sidebar import TIME_ROLE

    return int(TIME_ROLE)


async def test_search_by_title_and_by_content(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: WaitUntil, desktop_agent_home: Path
) -> None:
    await _three_sessions(desktop_agent_home)
    app = await open_desktop(qtbot, server, wait_until)
    sidebar = app.window.sidebar
    try:
        qtbot.keyClicks(sidebar.search, "sourdough")
        await wait_until(lambda: sidebar.model.mode == "search")
        assert titles(app) == ["Bake sourdough bread"]

        sidebar.search.clear()
        await wait_until(lambda: sidebar.model.mode == "all" and len(titles(app)) == 3)
        qtbot.keyClicks(sidebar.search, "river path")
        await wait_until(lambda: sidebar.model.mode == "search")
        assert titles(app) == ["Fix my bicycle"]
        snippet = sidebar.model.index(0).data(SNIPPET_ROLE)
        assert "river path" in snippet

        sidebar.search.clear()
        qtbot.keyClicks(sidebar.search, "zeppelin")
        await wait_until(lambda: sidebar.model.mode == "search" and not titles(app))
        assert "No sessions match" in sidebar.status.text()
    finally:
        await app.aclose()


async def test_inline_rename_changes_the_title_in_the_library(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: WaitUntil, desktop_agent_home: Path
) -> None:
    ids = await _three_sessions(desktop_agent_home)
    app = await open_desktop(qtbot, server, wait_until)
    sidebar = app.window.sidebar
    try:
        sidebar.scroll_to(ids[1])
        qtbot.keyClick(sidebar.list, Qt.Key.Key_F2)
        editor = sidebar.list.findChild(QLineEdit, "sessionTitleEditor")
        assert editor is not None and editor.isVisible()
        assert editor.text() == "Bake sourdough bread"
        editor.selectAll()
        qtbot.keyClicks(editor, "Bread notes")
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        await wait_until(lambda: "Bread notes" in titles(app))  # committed on the next turn
        await wait_until(lambda: _title_on_disk(desktop_agent_home, ids[1]) == "Bread notes")
        rows = await app.sessions.switcher.list_sessions()
        renamed = next(row for row in rows if row.session_id == ids[1])
        assert renamed.title == "Bread notes" and renamed.title_is_custom
    finally:
        await app.aclose()


async def test_delete_without_asking_then_undo_brings_the_session_back(
    qtbot: QtBot,
    server: OpenAICompatServer,
    wait_until: WaitUntil,
    wait_signal: WaitSignal,
    desktop_agent_home: Path,
) -> None:
    ids = await _three_sessions(desktop_agent_home)
    app = await open_desktop(qtbot, server, wait_until)
    sidebar = app.window.sidebar
    try:
        sidebar.scroll_to(ids[0])
        asked: list[object] = []
        app.sessions.dialog_opened.connect(asked.append)
        qtbot.keyClick(sidebar.list, Qt.Key.Key_Delete)  # no question: Undo and the Trash
        await wait_until(lambda: "Plan a trip to Lisbon" not in titles(app))
        assert asked == []
        assert not (desktop_agent_home / "sessions" / f"{ids[0]}.json").exists()
        assert sidebar.undo_bar.isVisible() and "Lisbon" in sidebar.undo_bar.label.text()
        assert sidebar.undo_bar.expiry.isActive()
        assert sidebar.undo_bar.expiry.interval() == UNDO_SHOWN_MS

        qtbot.mouseClick(sidebar.undo_bar.undo_button, Qt.MouseButton.LeftButton)
        await wait_until(lambda: "Plan a trip to Lisbon" in titles(app))
        assert (desktop_agent_home / "sessions" / f"{ids[0]}.json").exists()
        assert not sidebar.undo_bar.isVisible()

        sidebar.delete_requested.emit(ids[0])
        await wait_until(sidebar.undo_bar.isVisible)
        sidebar.undo_bar.expiry.timeout.emit()  # ten seconds later
        assert not sidebar.undo_bar.isVisible()
        assert "Plan a trip to Lisbon" not in titles(app)  # still in the Trash
    finally:
        await app.aclose()


async def test_the_trash_lists_deleted_sessions_and_restores_them(
    qtbot: QtBot,
    server: OpenAICompatServer,
    wait_until: WaitUntil,
    wait_signal: WaitSignal,
    desktop_agent_home: Path,
) -> None:
    ids = await _three_sessions(desktop_agent_home)
    app = await open_desktop(qtbot, server, wait_until)
    sidebar = app.window.sidebar
    try:
        sidebar.delete_requested.emit(ids[2])
        await wait_until(lambda: len(titles(app)) == 2)

        qtbot.mouseClick(sidebar.trash_button, Qt.MouseButton.LeftButton)
        await wait_until(lambda: sidebar.model.mode == "trash")
        assert titles(app) == ["Fix my bicycle"]
        menu = sidebar.context_menu(sidebar.model.index(0))
        assert [a.text() for a in menu.actions()] == ["Restore"]
        menu.actions()[0].trigger()
        await wait_until(lambda: sidebar.model.mode == "trash" and titles(app) == [])
        assert "empty" in sidebar.status.text()

        qtbot.mouseClick(sidebar.trash_button, Qt.MouseButton.LeftButton)
        await wait_until(lambda: sidebar.model.mode == "all" and len(titles(app)) == 3)
    finally:
        await app.aclose()


async def test_a_missing_index_is_rebuilt_and_listed(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: WaitUntil, desktop_agent_home: Path
) -> None:
    await _three_sessions(desktop_agent_home)
    index = desktop_agent_home / "sessions" / "index.json"
    index.unlink()
    app = await open_desktop(qtbot, server, wait_until)
    try:
        assert titles(app) == ["Fix my bicycle", "Bake sourdough bread", "Plan a trip to Lisbon"]
        assert index.exists()
        assert len(orjson.loads(index.read_bytes())["sessions"]) == 3
    finally:
        await app.aclose()
