"""Bad input and faults in the window: damaged and newer files, a refusing disk, a lock."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from _sidebar_helpers import click_row, open_desktop, save_session, send, shown_texts, titles
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.app import AgentState, TurnFinished
from desktop_agent.app.library import SessionLibrary, _storage
from desktop_agent.app.library._journal import JournalWriter
from desktop_agent.testing import OpenAICompatServer, ScriptedReply
from desktop_agent.ui.sidebar import STATUS_ROLE

WaitUntil = Any


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _status(app: Any, session_id: str) -> str:
    model = app.window.sidebar.model
    row = model.row_of(session_id)
    assert row is not None
    return str(model.index(row).data(STATUS_ROLE))


def _tooltip(app: Any, session_id: str) -> str:
    model = app.window.sidebar.model
    row = model.row_of(session_id)
    assert row is not None
    return str(model.index(row).data(Qt.ItemDataRole.ToolTipRole))


@pytest.mark.parametrize("damage", ["truncated", "wrong shape"])
async def test_a_damaged_session_shows_a_badge_and_what_is_wrong_and_is_not_touched(
    qtbot: QtBot,
    server: OpenAICompatServer,
    wait_until: WaitUntil,
    desktop_agent_home: Path,
    damage: str,
) -> None:
    good = await save_session(desktop_agent_home, ["A fine session", "Indeed."])
    bad = await save_session(desktop_agent_home, ["Soon to be damaged", "Alas."])
    path = desktop_agent_home / "sessions" / f"{bad}.json"
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    else:
        path.write_bytes(orjson.dumps({"meta": {"schema_version": 1, "title": 7}}))
    before = _digest(path)

    app = await open_desktop(qtbot, server, wait_until)
    try:
        assert set(app.window.sidebar.model.summaries()[i].session_id for i in range(2)) == {
            good,
            bad,
        }
        assert _status(app, bad) == "corrupt" and _status(app, good) == "ok"
        assert "Damaged" in _tooltip(app, bad)

        click_row(qtbot, app, bad)
        await wait_until(lambda: app.window.session_problem_shown)
        panel = app.window.session_problem
        assert panel.heading.text() == "This session can't be opened"
        assert "damaged" in panel.message.text() and "left untouched" in panel.message.text()
        assert str(path) in panel.path.text()
        assert app.sessions.switcher.active_id is None and app.conversation.entries == []
        assert _digest(path) == before

        qtbot.mouseClick(panel.back_button, Qt.MouseButton.LeftButton)
        assert not app.window.session_problem_shown
        click_row(qtbot, app, good)
        await wait_until(lambda: app.sessions.switcher.active_id == good)
        assert shown_texts(app) == ["A fine session", "Indeed."]
    finally:
        await app.aclose()
    assert _digest(path) == before


async def test_a_session_from_a_newer_version_is_shown_as_such(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: WaitUntil, desktop_agent_home: Path
) -> None:
    newer = await save_session(desktop_agent_home, ["From the future", "Hi."])
    path = desktop_agent_home / "sessions" / f"{newer}.json"
    data = orjson.loads(path.read_bytes())
    data["meta"]["schema_version"] = 99
    path.write_bytes(orjson.dumps(data))
    before = _digest(path)
    app = await open_desktop(qtbot, server, wait_until)
    try:
        assert _status(app, newer) == "newer_schema"
        click_row(qtbot, app, newer)
        await wait_until(lambda: app.window.session_problem_shown)
        assert "newer" in app.window.session_problem.heading.text()
        assert "format 99" in app.window.session_problem.message.text()
        assert _digest(path) == before
    finally:
        await app.aclose()


def _writable(folder: Path) -> bool:
    probe = folder / ".probe"
    try:
        probe.write_bytes(b"")
    except OSError:
        return False
    probe.unlink()
    return True


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """Make ``folder`` read-only for real: permissions, or (as root) the immutable flag."""
    mode = folder.stat().st_mode
    os.chmod(folder, 0o555)
    immutable = False
    try:
        if _writable(folder) and shutil.which("chattr"):
            os.chmod(folder, mode)
            done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True)
            immutable = done.returncode == 0
        if _writable(folder):
            pytest.skip("cannot make a folder read-only here")
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        os.chmod(folder, mode)


async def _chat(qtbot: QtBot, app: Any, server: OpenAICompatServer, text: str) -> None:
    server.add_reply(ScriptedReply(f"Answer to {text}."))
    assert isinstance(await asyncio.wait_for(send(qtbot, app, text), 10), TurnFinished)


async def test_a_read_only_folder_shows_a_warning_and_the_chat_goes_on(
    qtbot: QtBot,
    server: OpenAICompatServer,
    wait_until: WaitUntil,
    desktop_agent_home: Path,
) -> None:
    app = await open_desktop(qtbot, server, wait_until)
    try:
        await _chat(qtbot, app, server, "first")
        await wait_until(lambda: titles(app) == ["first"])
        with read_only(desktop_agent_home / "sessions"):
            await _chat(qtbot, app, server, "second")
            # Its journal exists, so appending may work; rewriting the file cannot.
            await app.sessions.switcher.save_now()
            banner = app.window.banner
            await wait_until(lambda: banner.isVisible(), timeout=5)
            assert "could not be saved" in banner.label.text()
            assert "kept in memory" in banner.label.text()
            await _chat(qtbot, app, server, "third")
            assert shown_texts(app)[-2:] == ["third", "Answer to third."]
        await app.sessions.switcher.save_now()
        await wait_until(lambda: not app.window.banner.isVisible(), timeout=5)
    finally:
        await app.aclose()
    library = SessionLibrary(desktop_agent_home)
    state = AgentState()
    await library.load(titles_id(await library.list()), agent=state)
    assert len(state.memory.content) == 6
    await library.close_all()


def titles_id(rows: list[Any]) -> str:
    (row,) = rows
    return str(row.session_id)


async def test_a_full_disk_shows_a_warning_and_nothing_is_lost(
    qtbot: QtBot,
    server: OpenAICompatServer,
    wait_until: WaitUntil,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = await open_desktop(qtbot, server, wait_until)
    real_write = _storage.atomic_write_bytes

    def full_disk(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    real_journal_write = JournalWriter.write

    try:
        await _chat(qtbot, app, server, "before")
        await wait_until(lambda: titles(app) == ["before"])
        monkeypatch.setattr(_storage, "atomic_write_bytes", full_disk)
        monkeypatch.setattr(JournalWriter, "write", full_disk)
        await _chat(qtbot, app, server, "during")
        await wait_until(lambda: app.window.banner.isVisible(), timeout=5)
        assert "No space left on device" in app.window.banner.label.text()
        monkeypatch.setattr(_storage, "atomic_write_bytes", real_write)
        monkeypatch.setattr(JournalWriter, "write", real_journal_write)
        await _chat(qtbot, app, server, "after")
        await wait_until(lambda: not app.window.banner.isVisible(), timeout=5)
    finally:
        await app.aclose()


async def test_a_session_open_in_another_window_opens_read_only(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: WaitUntil, desktop_agent_home: Path
) -> None:
    held = await save_session(desktop_agent_home, ["Open elsewhere", "Yes."])
    other_window = SessionLibrary(desktop_agent_home)
    await other_window.load(held, agent=AgentState())
    app = await open_desktop(qtbot, server, wait_until)
    try:
        assert _status(app, held) == "locked"
        click_row(qtbot, app, held)
        await wait_until(lambda: app.sessions.switcher.active_id == held)
        assert app.sessions.switcher.read_only
        assert shown_texts(app) == ["Open elsewhere", "Yes."]
        assert "read-only" in app.window.banner.label.text() and app.window.banner.isVisible()
        qtbot.keyClicks(app.window.composer.input, "try")
        assert not app.window.composer.send_button.isEnabled()

        qtbot.mouseClick(app.window.sidebar.new_chat_button, Qt.MouseButton.LeftButton)
        await wait_until(lambda: app.sessions.switcher.active_id is None)
        assert not app.window.banner.isVisible()
        qtbot.keyClicks(app.window.composer.input, "ok")
        assert app.window.composer.send_button.isEnabled()
    finally:
        await app.aclose()
        await other_window.close_all()
