"""After ``[DONE]`` the rest of the body is read only briefly and never fails the stream
(a proxy that keeps the body open, or resets it, after the answer is complete)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from types import SimpleNamespace
from typing import Any

from desktop_agent.model._openai_sse import _chunk_dicts


def _events(after_done: str) -> AsyncGenerator[Any, None]:
    async def events() -> AsyncGenerator[Any, None]:
        yield SimpleNamespace(data='{"choices": [{"delta": {"content": "Hi"}}]}')
        yield SimpleNamespace(data="[DONE]")
        if after_done == "reset":
            raise ConnectionResetError("the proxy reset the connection")
        await asyncio.sleep(30)  # the body is kept open

    return events()


async def _read(after_done: str) -> list[Any]:
    return [chunk async for chunk in _chunk_dicts(_events(after_done), SimpleNamespace())]


async def test_a_reset_after_done_does_not_fail_the_answer() -> None:
    chunks = await _read("reset")
    assert chunks == [{"choices": [{"delta": {"content": "Hi"}}]}]


async def test_a_body_kept_open_after_done_is_not_waited_for() -> None:
    chunks = await asyncio.wait_for(_read("open"), timeout=5)
    assert len(chunks) == 1
