"""kill -9 during a stream: the real app in a process, killed once its file shows the reply."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
from _sidebar_helpers import open_desktop, shown_texts
from pytestqt.qtbot import QtBot

from desktop_agent.app.library import SessionLibrary, SessionStatus
from desktop_agent.app.library._journal import read_with_journal
from desktop_agent.testing import OpenAICompatServer, ScriptedReply

ROOT = Path(__file__).resolve().parents[3]
PROMPT = "tell me a long story"
WaitUntil = Any


def _start_app(server: OpenAICompatServer, home: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "DESKTOP_AGENT_HOME": str(home),
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": "sk-crash",
        "DESKTOP_AGENT_MODEL": "test-model",
        "DESKTOP_AGENT_TEST_SEND": PROMPT,
    }
    return subprocess.Popen(
        [sys.executable, "-m", "desktop_agent"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _partial_reply(sessions: Path) -> str:
    """The unfinished reply's text in a saved session file, or ``""``."""
    for path in sessions.glob("*.json"):
        if path.name == "index.json":
            continue
        try:
            data = read_with_journal(path).parts  # the file with its journal replayed
        except (OSError, ValueError):
            continue
        reply = data.get("unfinished_reply")
        if isinstance(reply, dict):
            return "".join(b.get("text", "") for b in reply["content"] if isinstance(b, dict))
    return ""


async def _wait_for_partial(process: subprocess.Popen[bytes], sessions: Path) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        text = await asyncio.to_thread(_partial_reply, sessions)
        if text.count("word") >= 20:
            return text
        assert process.poll() is None, "the app exited before streaming"
        await asyncio.sleep(0.05)
    raise AssertionError("no partial reply was saved within 60 s")


async def test_kill_9_during_a_stream_leaves_valid_files_with_the_partial_reply(
    qtbot: QtBot, wait_until: WaitUntil, desktop_agent_home: Path
) -> None:
    sessions = desktop_agent_home / "sessions"
    with OpenAICompatServer() as server:
        server.default_reply = ScriptedReply("word " * 3000, chunk_size=5, chunk_delay=0.01)
        process = _start_app(server, desktop_agent_home)
        try:
            partial = await _wait_for_partial(process, sessions)
        finally:
            process.send_signal(signal.SIGKILL)
            await asyncio.to_thread(process.wait, 10)
        assert process.returncode == -signal.SIGKILL

        for path in sessions.glob("*.json"):
            orjson.loads(path.read_bytes())  # every file is whole, valid JSON
        library = SessionLibrary(desktop_agent_home)
        (row,) = await library.list()
        assert row.status is SessionStatus.OK and row.title == PROMPT
        await library.close_all()

        app = await open_desktop(qtbot, server, wait_until)  # reopens the last session
        try:
            assert app.sessions.switcher.active_id == row.session_id
            texts = shown_texts(app)
            assert texts[0] == PROMPT and texts[1].startswith(partial[:50])
            assert len(texts[1]) >= len(partial)
            assert "cut short" in (app.conversation.entries[-1].error_text or "")
            memory = await app.service.memory.get_memory()
            assert [m.role for m in memory] == ["user", "assistant"]
            assert memory[1].metadata.get("_is_interrupted") is True
        finally:
            await app.aclose()
