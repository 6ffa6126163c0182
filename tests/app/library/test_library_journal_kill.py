"""kill -9 at random moments of a journaling autosave: every session opens, whole.

A child process (``journal_child.py``) autosaves a growing chat, with streamed replies,
journal appends and idle checkpoints, and is killed with SIGKILL at a random moment,
five times over the same session. After each kill the session opens, holds an unbroken
run of the messages, and holds every message the child was told was saved.
(``benchmarks/bench_autosave.py`` does this 20 times and checks the 1-second bound.)
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest

from desktop_agent.app import AgentState
from desktop_agent.app._session_memory import SessionMemory
from desktop_agent.app.library import SessionLibrary

ROOT = Path(__file__).resolve().parents[3]
CHILD = Path(__file__).with_name("journal_child.py")
KILLS = 5

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")


def run_and_kill(root: Path, session_id: str | None, seconds: float) -> tuple[str, list[str]]:
    """Start the child, kill it ``seconds`` after it opened the session; its id and lines."""
    args = [sys.executable, str(CHILD), str(root), *([session_id] if session_id else [])]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    child = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    first = child.stdout.readline()
    assert first.startswith("session "), first
    try:
        child.wait(seconds)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGKILL)
    rest, _ = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL
    return first.split()[1], rest.splitlines()


async def opened_texts(root: Path, session_id: str) -> list[str | None]:
    library = SessionLibrary(root)
    state = AgentState()
    await library.load(session_id, agent=state)
    await library.close_all()
    return [msg.get_text_content() for msg, _ in cast(SessionMemory, state.memory).content]


async def test_kill_9_at_random_moments_loses_nothing_that_was_saved(tmp_path: Path) -> None:
    chance = random.Random(19)
    session: str | None = None
    for _ in range(KILLS):
        session_id, lines = await asyncio.to_thread(
            run_and_kill, tmp_path, session, chance.uniform(0.3, 1.2)
        )
        session = session_id
        durable = max(
            (int(line.split()[1]) for line in lines if line.startswith("durable")), default=0
        )
        texts = await opened_texts(tmp_path, session_id)
        assert texts == [f"m{n}" for n in range(len(texts))]  # an unbroken run
        assert len(texts) >= durable
