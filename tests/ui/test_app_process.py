"""``python -m desktop_agent`` as a real process: clean exits while an answer streams."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_agent.testing import OpenAICompatServer, ScriptedReply

ROOT = Path(__file__).resolve().parents[2]
BAD_SIGNS = ("Task was destroyed", "Event loop is closed", "Traceback", "was never awaited")


@pytest.fixture
def slow_server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as server:
        server.default_reply = ScriptedReply("word " * 2000, chunk_size=5, chunk_delay=0.02)
        yield server


def _start_app(server: OpenAICompatServer, home: Path, **extra: str) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "DESKTOP_AGENT_HOME": str(home),
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": "sk-process",
        "DESKTOP_AGENT_MODEL": "test-model",
        "DESKTOP_AGENT_TEST_SEND": "tell me a long story",
        "PYTHONWARNINGS": "default",
        **extra,
    }
    return subprocess.Popen(
        [sys.executable, "-m", "desktop_agent"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_line(process: subprocess.Popen[str], wanted: str, timeout: float) -> None:
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    stdout = process.stdout

    def read() -> None:
        for line in stdout:
            lines.put(line)
        lines.put("")

    threading.Thread(target=read, daemon=True).start()
    while True:
        line = lines.get(timeout=timeout)
        if not line:
            raise AssertionError(f"the app ended before printing {wanted!r}")
        if line.strip() == wanted:
            return


def _finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    try:
        _out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        _out, err = process.communicate()
        raise AssertionError(f"the app did not exit:\n{err}") from None
    return process.returncode, err


def _assert_clean(code: int, stderr: str) -> None:
    assert code == 0, stderr
    for sign in BAD_SIGNS:
        assert sign not in stderr, stderr


def test_closing_the_window_during_a_stream_exits_cleanly(
    slow_server: OpenAICompatServer, tmp_path: Path
) -> None:
    process = _start_app(slow_server, tmp_path, DESKTOP_AGENT_TEST_CLOSE_ON_STREAM="1")
    code, stderr = _finish(process)
    _assert_clean(code, stderr)
    assert slow_server.chat_requests, "the turn never started"


def test_sigint_during_a_stream_exits_cleanly(
    slow_server: OpenAICompatServer, tmp_path: Path
) -> None:
    process = _start_app(slow_server, tmp_path)
    try:
        _wait_for_line(process, "streaming", timeout=30)
    except BaseException:
        process.kill()
        raise
    process.send_signal(signal.SIGINT)
    code, stderr = _finish(process)
    _assert_clean(code, stderr)
