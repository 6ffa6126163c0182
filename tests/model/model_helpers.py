"""Helpers shared by the model tests."""

from __future__ import annotations

from typing import Any

from desktop_agent.model import ChatResponse

USER = [{"role": "user", "content": "Hi"}]


async def collect(result: Any) -> list[ChatResponse]:
    """All responses of a streaming call."""
    return [response async for response in result]
