"""Writing test-server responses: JSON bodies, errors, and SSE streams.

A stream is written as a chunked body: batched into 64 KiB HTTP chunks when the reply has
no delay (so one server can flood a client), one event per HTTP chunk otherwise. A reply
that drops the connection leaves the chunked body unterminated, as a crashed server would.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator, Mapping
from typing import Any

from desktop_agent.testing._http import Connection
from desktop_agent.testing._scripted_reply import ScriptedReply
from desktop_agent.testing._wire import CompletionEncoder

_BATCH_BYTES = 1 << 16


def _base_headers(content_type: str) -> list[tuple[str, str]]:
    return [
        ("content-type", content_type),
        ("x-request-id", f"req_{secrets.token_hex(8)}"),
        ("connection", "keep-alive"),
    ]


async def send_json(
    connection: Connection,
    status: int,
    body: Any,
    headers: Mapping[str, str] | None = None,
) -> None:
    data = json.dumps(body, ensure_ascii=False).encode()
    all_headers = _base_headers("application/json")
    all_headers.append(("content-length", str(len(data))))
    all_headers += list((headers or {}).items())
    connection.write_head(status, all_headers)
    connection.writer.write(data)
    await connection.drain()


async def send_body(connection: Connection, reply: ScriptedReply) -> None:
    """``reply.body`` exactly, with its status and content type (not a completion)."""
    body = reply.body or b""
    data = body.encode() if isinstance(body, str) else body
    headers = _base_headers(reply.content_type)
    headers.append(("content-length", str(len(data))))
    headers += list(reply.headers.items())
    connection.write_head(reply.status, headers)
    connection.writer.write(data)
    await connection.drain()


async def send_error(connection: Connection, reply: ScriptedReply) -> None:
    body = reply.error_body
    if body is None:
        body = ScriptedReply.error(reply.status).error_body
    await send_json(connection, reply.status, {"error": body}, reply.headers)


async def send_stream(connection: Connection, encoder: CompletionEncoder, usage: bool) -> bool:
    """Stream the reply; ``False`` when the connection must be dropped afterwards."""
    reply = encoder.reply
    headers = _base_headers("text/event-stream; charset=utf-8")
    headers += [("cache-control", "no-cache"), ("transfer-encoding", "chunked")]
    headers += list(reply.headers.items())
    connection.write_head(200, headers)
    await connection.drain()
    if reply.first_chunk_delay:
        await asyncio.sleep(reply.first_chunk_delay)
    events = _limited(encoder, usage)
    if reply.chunk_delay:
        await _send_paced(connection, events, reply.chunk_delay)
    else:
        await _send_batched(connection, events)
    if reply.stall_after_chunks is not None:
        await asyncio.Event().wait()  # until the client hangs up or the server stops
    if reply.drop_after_chunks is not None:
        return False
    connection.end_chunked()
    await connection.drain()
    return True


def _limited(encoder: CompletionEncoder, usage: bool) -> Iterator[bytes]:
    reply = encoder.reply
    limit = reply.drop_after_chunks
    if reply.stall_after_chunks is not None:
        limit = reply.stall_after_chunks if limit is None else min(limit, reply.stall_after_chunks)
    if reply.error_after_chunks is not None:
        limit = reply.error_after_chunks if limit is None else min(limit, reply.error_after_chunks)
    for count, event in enumerate(encoder.events(usage)):
        if limit is not None and count >= limit:
            break
        yield event
    if reply.error_after_chunks is not None and reply.drop_after_chunks is None:
        yield encoder.error_event()


async def _send_paced(connection: Connection, events: Iterator[bytes], delay: float) -> None:
    for index, event in enumerate(events):
        if index:
            await asyncio.sleep(delay)
        connection.write_chunk(event)
        await connection.drain()


async def _send_batched(connection: Connection, events: Iterator[bytes]) -> None:
    batch: list[bytes] = []
    size = 0
    for event in events:
        batch.append(event)
        size += len(event)
        if size >= _BATCH_BYTES:
            connection.write_chunk(b"".join(batch))
            await connection.drain()
            batch, size = [], 0
    connection.write_chunk(b"".join(batch))
    await connection.drain()
