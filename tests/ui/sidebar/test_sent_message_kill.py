"""kill -9 while waiting for a slow model: the message the user sent is already on disk.

The real app runs in a process and sends a message; the loopback server holds the
request without answering. The app is killed the moment the request arrives — the
message must be in the saved session (written and fsynced before the request left).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from desktop_agent.app.library import SessionLibrary
from desktop_agent.app.library._journal import read_with_journal
from desktop_agent.testing import OpenAICompatServer, ScriptedReply

ROOT = Path(__file__).resolve().parents[3]
PROMPT = "please remember this sentence exactly"


def _start_app(server: OpenAICompatServer, home: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "DESKTOP_AGENT_HOME": str(home),
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": "sk-kill",
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


def _saved_memory_texts(sessions: Path) -> list[str]:
    """The texts of the messages in the agent memory of the (one) saved session."""
    texts: list[str] = []
    for path in sessions.glob("*.json"):
        if path.name == "index.json":
            continue
        orjson.loads(path.read_bytes())  # the file (the last checkpoint) is whole, valid JSON
        data = read_with_journal(path).parts  # and its journal replays on top
        memory = data.get("agent", {}).get("memory", {}).get("content", [])
        for item in memory:
            msg = item[0] if isinstance(item, list) else item
            content = msg.get("content")
            texts.append(content if isinstance(content, str) else orjson.dumps(content).decode())
    return texts


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
async def test_kill_9_while_waiting_for_the_model_keeps_the_sent_message(
    desktop_agent_home: Path,
) -> None:
    with OpenAICompatServer() as server:
        server.default_reply = ScriptedReply("too late", response_delay=60)
        process = _start_app(server, desktop_agent_home)
        try:
            request = await server.wait_for_request(timeout=60)
            while not request.path.endswith("/chat/completions"):
                request = await server.wait_for_request(timeout=60)
        finally:
            process.send_signal(signal.SIGKILL)  # at once: the request has just left
            await asyncio.to_thread(process.wait, 10)
        assert process.returncode == -signal.SIGKILL
        assert PROMPT in str(request.messages[-1]["content"])

    texts = _saved_memory_texts(desktop_agent_home / "sessions")
    assert any(PROMPT in text for text in texts), texts
    library = SessionLibrary(desktop_agent_home)
    (row,) = await library.list()
    assert row.title == PROMPT
    await library.close_all()
