"""Just enough HTTP/1.1 on asyncio streams for the test server (no dependencies).

Requests with ``Content-Length`` or chunked bodies, keep-alive, and responses either with
a length or chunked. A :class:`Connection` owns a read buffer, so a task watching for the
client to hang up (:meth:`Connection.wait_closed_by_client`) never loses request bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from http import HTTPStatus

_MAX_HEAD = 1 << 20
_READ_SIZE = 1 << 16


class BadRequest(Exception):
    """The client sent something that is not HTTP/1.1 we understand."""


@dataclass
class HTTPRequest:
    """A parsed request: method, target, lower-cased headers, body bytes."""

    method: str
    target: str
    headers: dict[str, str]
    body: bytes

    @property
    def keep_alive(self) -> bool:
        """Whether the client wants the connection kept open."""
        return self.headers.get("connection", "").lower() != "close"


class Connection:
    """One client connection: buffered reading of requests, writing of responses."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.buffer = bytearray()
        self.eof = False
        self.head_written = False

    async def _fill(self) -> bool:
        if self.eof:
            return False
        try:
            data = await self.reader.read(_READ_SIZE)
        except (ConnectionError, OSError):
            data = b""
        if not data:
            self.eof = True
            return False
        self.buffer += data
        return True

    async def wait_closed_by_client(self) -> None:
        """Return when the client closes its side (data it sends meanwhile is kept)."""
        while await self._fill():
            pass

    async def read_request(self) -> HTTPRequest | None:
        """The next request, or ``None`` when the client closed the connection.

        Raises:
            BadRequest: Malformed request.
        """
        end = await self._find(b"\r\n\r\n", limit=_MAX_HEAD)
        if end < 0:
            return None
        self.head_written = False
        head = bytes(self.buffer[:end]).decode("latin-1")
        del self.buffer[: end + 4]
        method, target, headers = _parse_head(head)
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = await self._read_chunked()
        else:
            body = await self._read_exact(_content_length(headers))
        return HTTPRequest(method, target, headers, body)

    async def _find(self, marker: bytes, *, limit: int) -> int:
        while (index := self.buffer.find(marker)) < 0:
            if len(self.buffer) > limit:
                raise BadRequest("request head too large")
            if not await self._fill():
                if self.buffer.strip():
                    raise BadRequest("connection closed in the middle of a request")
                return -1
        return index

    async def _read_exact(self, size: int) -> bytes:
        while len(self.buffer) < size:
            if not await self._fill():
                raise BadRequest("connection closed in the middle of a request body")
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data

    async def _read_chunked(self) -> bytes:
        body = bytearray()
        while True:
            end = await self._find(b"\r\n", limit=_MAX_HEAD)
            if end < 0:
                raise BadRequest("connection closed in a chunked body")
            size = int(bytes(self.buffer[:end]).split(b";")[0], 16)
            del self.buffer[: end + 2]
            if size == 0:
                await self._find(b"\r\n", limit=_MAX_HEAD)
                del self.buffer[:2]
                return bytes(body)
            body += await self._read_exact(size + 2)
            del body[-2:]

    def write_head(self, status: int, headers: list[tuple[str, str]]) -> None:
        """Queue the status line and headers."""
        self.head_written = True
        try:
            phrase = HTTPStatus(status).phrase
        except ValueError:
            phrase = "Unknown"
        lines = [f"HTTP/1.1 {status} {phrase}"]
        lines += [f"{name}: {value}" for name, value in headers]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))

    def write_chunk(self, data: bytes) -> None:
        """Queue one piece of a chunked body."""
        if data:
            self.writer.write(b"%x\r\n%b\r\n" % (len(data), data))

    def end_chunked(self) -> None:
        """Queue the end of a chunked body."""
        self.writer.write(b"0\r\n\r\n")

    async def drain(self) -> None:
        """Wait until the written data is handed to the OS."""
        await self.writer.drain()

    async def close(self) -> None:
        """Close the connection (after sending what was written)."""
        if self.writer.is_closing():
            return
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


def _parse_head(head: str) -> tuple[str, str, dict[str, str]]:
    lines = head.split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        raise BadRequest(f"bad request line {lines[0]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if not sep:
            raise BadRequest(f"bad header line {line!r}")
        headers[name.strip().lower()] = value.strip()
    return parts[0].upper(), parts[1], headers


def _content_length(headers: dict[str, str]) -> int:
    try:
        return max(int(headers.get("content-length", "0")), 0)
    except ValueError as exc:
        raise BadRequest("bad content-length") from exc
