"""Streamed chunks as plain dicts, read from the SDK stream's server-sent events.

The SDK turns every streamed event into a pydantic ``ChatCompletionChunk`` (recursive
``construct`` of four nested models): about 70 % of its own per-chunk cost, measured, and
more than everything the app does with the chunk afterwards. The accumulator only reads a
handful of fields, so a stream from the SDK is read one level lower: its SSE decoder (the
same bytes → events → ``json.loads`` path the SDK takes) and the SDK's own rules for
``[DONE]`` and ``{"error": ...}`` events, with the JSON handed on as it is. The usage
object, once per stream, is still built as the SDK's ``CompletionUsage``.

Anything that is not an SDK stream (a test double, another client) is iterated as it is;
the accumulator takes both shapes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

_ERROR_TEXT = "An error occurred during streaming"
_DRAIN_S = 0.1
"""How long the rest of a body after ``[DONE]`` is read (the SDK's own drain timeout)."""


def stream_chunks(stream: Any) -> AsyncIterator[Any]:
    """The stream's chunks: dicts for an SDK ``AsyncStream``, else its own items."""
    events = getattr(stream, "_iter_events", None)
    response = getattr(stream, "response", None)
    if events is None or response is None:
        return aiter(stream)
    return _chunk_dicts(events(), response)


async def _chunk_dicts(events: AsyncGenerator[Any, None], response: Any) -> AsyncIterator[Any]:
    """What ``AsyncStream.__stream__`` yields, minus the model construction.

    Raises:
        openai.APIError: The server sent an ``{"error": ...}`` event (as the SDK does).
    """
    import openai  # loaded with the model client already
    from openai.types import CompletionUsage

    try:
        async for sse in events:
            if sse.data.startswith("[DONE]"):
                await _drain(events)
                break
            data = json.loads(sse.data)
            if type(data) is dict:
                error = data.get("error")
                if error:
                    message = error.get("message") if isinstance(error, dict) else None
                    if not message or not isinstance(message, str):
                        message = _ERROR_TEXT
                    raise openai.APIError(message=message, request=response.request, body=error)
                usage = data.get("usage")
                if type(usage) is dict:
                    data["usage"] = CompletionUsage.construct(**usage)
            yield data
    finally:
        await events.aclose()


async def _drain(events: AsyncGenerator[Any, None]) -> None:
    """Read the rest of the body, so the connection can be reused — briefly, and never
    failing: as the SDK does, cleanup must not turn a finished answer into an error (a
    proxy that keeps the body open, or resets it, after [DONE])."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(_DRAIN_S):
            async for _ in events:
                pass


async def close_chunks(chunks: AsyncIterator[Any]) -> None:
    """Close what :func:`stream_chunks` returned (the HTTP stream is closed apart)."""
    aclose = getattr(chunks, "aclose", None)
    if aclose is not None:
        await aclose()
