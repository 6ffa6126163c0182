"""Shared helpers of the session library tests."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg

ROOT = Path(__file__).resolve().parents[3]
CHILD = Path(__file__).with_name("library_child.py")
FIXTURES = ROOT / "tests" / "fixtures" / "sessions"


async def memory_with(*texts: str) -> InMemoryMemory:
    """A memory holding alternating user/assistant messages with these texts."""
    memory = InMemoryMemory()
    for number, text in enumerate(texts):
        role: Literal["user", "assistant"] = "user" if number % 2 == 0 else "assistant"
        await memory.add(Msg(role, text, role))
    return memory


def texts_of(memory: InMemoryMemory) -> list[str | None]:
    """The text of every message in a memory."""
    return [msg.get_text_content() for msg, _ in memory.content]


def snapshot(folder: Path) -> dict[str, str]:
    """A digest of every file under ``folder`` (to prove nothing changed)."""
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def read_file(path: str | Path) -> bytes:
    """The bytes of a file (for async tests, where pathlib calls are flagged)."""
    return Path(path).read_bytes()


def big_base64(size: int = 200_000) -> str:
    """Base64 of ``size`` random bytes."""
    return base64.b64encode(os.urandom(size)).decode("ascii")


class Child:
    """A helper process (``library_child.py``) speaking one line per event on stdout."""

    def __init__(self, *args: str) -> None:
        """Start it."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, str(CHILD), *args],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    async def line(self) -> str:
        """The next line it prints (waiting in a thread, not blocking the loop)."""
        assert self.process.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(self.process.stdout.readline), 60)
        if not line:
            _, err = self.process.communicate(timeout=30)
            raise AssertionError(f"child exited early: {err}")
        return line.strip()

    async def lines_until(self, prefix: str) -> Iterator[str]:
        """Read lines until one starts with ``prefix``; returns them all."""
        seen = []
        while True:
            line = await self.line()
            seen.append(line)
            if line.startswith(prefix):
                return iter(seen)

    def send(self, text: str) -> None:
        """Write a line to its stdin."""
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def finish(self) -> None:
        """Close its stdin and wait for it."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        self.process.wait(timeout=30)
        if self.process.stdout is not None:
            self.process.stdout.close()
        if self.process.stderr is not None:
            self.process.stderr.close()
