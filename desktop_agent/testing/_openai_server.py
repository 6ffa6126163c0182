"""``OpenAICompatServer``: a real OpenAI-compatible HTTP server on 127.0.0.1 for tests.

It speaks the actual wire format (SSE ``chat.completion.chunk`` events, JSON errors) so
that tests exercise the real ``openai`` SDK end to end, and it answers from a queue of
:class:`ScriptedReply`. The one design decision: the server runs its own event loop in
a background thread, so the same object serves plain asyncio tests, qasync/Qt tests
(whose loop is the GUI's) and synchronous code alike; every test-facing method is
thread-safe, and the ``wait_for_*`` coroutines work on whatever loop awaits them.
For benchmarks that must not share the GIL, run it as a process instead::

    python -m desktop_agent.testing.server --port 8765 --script replies.json
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from desktop_agent._logging import logger
from desktop_agent.testing._http import BadRequest, Connection, HTTPRequest
from desktop_agent.testing._scripted_reply import ScriptedReply
from desktop_agent.testing._sending import send_body, send_error, send_json, send_stream
from desktop_agent.testing._waitable_log import WaitableLog
from desktop_agent.testing._wire import CompletionEncoder, error_body, last_user_text

_START_TIMEOUT = 10.0

Responder = Callable[["RecordedRequest"], "ScriptedReply | str"]


@dataclass
class RecordedRequest:
    """A request the server received, in arrival order.

    Attributes:
        method: ``"GET"``, ``"POST"``…
        path: The request target, e.g. ``"/v1/chat/completions"``.
        headers: Lower-cased header names to values.
        body: The decoded JSON body, or ``None`` (no body or not JSON).
        raw_body: The body bytes.
        disconnected: Set when the client hung up before the response was complete.
    """

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    raw_body: bytes = b""
    disconnected: bool = field(default=False)

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat ``messages`` of the body (``[]`` if none)."""
        if isinstance(self.body, dict):
            return list(self.body.get("messages") or [])
        return []


class OpenAICompatServer:
    """An OpenAI-compatible chat-completions server on ``127.0.0.1``, scripted by tests.

    Use it as a context manager (or ``start()`` / ``stop()``)::

        with OpenAICompatServer() as server:
            server.add_reply(ScriptedReply("Hello there!", chunk_size=5))
            model = OpenAIChatModel("test-model", api_key="k",
                                    client_kwargs={"base_url": server.base_url})
            ...
            request = await server.wait_for_request()
            assert request.body["stream"] is True

    Replies are taken from a FIFO queue (:meth:`add_reply`); when it is empty, the
    ``default_reply`` answers (by default it echoes: ``"You said: <last user text>"``).

    Args:
        host: The interface to listen on.
        port: The port; ``0`` picks a free one.
        models: Model ids listed by ``GET /v1/models``.
        default_reply: The answer when the queue is empty: a reply, a text, or a
            function of the :class:`RecordedRequest`; ``None`` echoes.
        api_key: When set, requests without ``Authorization: Bearer <api_key>`` get 401.
        reject_unknown_models: Answer 404 for a ``model`` not in ``models``.
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        models: Sequence[str] = ("test-model",),
        default_reply: ScriptedReply | str | Responder | None = None,
        api_key: str | None = None,
        reject_unknown_models: bool = False,
    ) -> None:
        self.host = host
        self.port = port
        self.models: list[str] = list(models)
        self.default_reply = default_reply
        self.api_key = api_key
        self.reject_unknown_models = reject_unknown_models
        self.models_reply: ScriptedReply | None = None
        self.transcription: str | None = None
        """What ``POST /v1/audio/transcriptions`` answers; ``None``: 404, as a provider
        without speech-to-text does."""
        self._replies: deque[ScriptedReply | str | Responder] = deque()
        self._requests: WaitableLog[RecordedRequest] = WaitableLog()
        self._disconnects: WaitableLog[RecordedRequest] = WaitableLog()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.Server | None = None
        self._connections: dict[asyncio.Task[None], Connection] = {}
        self._handlers: set[asyncio.Task[Any]] = set()
        self.connections_accepted = 0
        """How many TCP connections clients opened (keep-alive reuses one)."""

    # -- scripting (thread-safe) ---------------------------------------------------------

    def add_reply(self, *replies: ScriptedReply | str | Responder) -> None:
        """Queue replies for the next chat requests, in order.

        Args:
            *replies: A :class:`ScriptedReply`, a text (``ScriptedReply(text)``), or a
                function of the :class:`RecordedRequest` returning either, called on the
                server thread when the request arrives.
        """
        self._replies.extend(replies)

    @property
    def pending_replies(self) -> int:
        """How many queued replies are still unused."""
        return len(self._replies)

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far (all endpoints), oldest first."""
        return self._requests.snapshot()

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The ``/chat/completions`` requests received so far."""
        return [r for r in self.requests if r.path.split("?")[0].endswith("/chat/completions")]

    @property
    def last_request(self) -> RecordedRequest:
        """The most recent request.

        Raises:
            LookupError: No request yet.
        """
        requests = self.requests
        if not requests:
            raise LookupError("The server has not received any request yet.")
        return requests[-1]

    async def wait_for_request(self, timeout: float = 5.0) -> RecordedRequest:
        """The next request not yet returned by a ``wait_for_request*`` call.

        Requests that arrived before the call count, so none is missed. Works on any
        event loop (asyncio, qasync).

        Raises:
            TimeoutError: None arrived within ``timeout`` seconds.
        """
        return await self._requests.next(timeout, "request")

    def wait_for_request_sync(self, timeout: float = 5.0) -> RecordedRequest:
        """Blocking :meth:`wait_for_request`, for synchronous tests."""
        return self._requests.next_sync(timeout, "request")

    async def wait_for_disconnect(self, timeout: float = 5.0) -> RecordedRequest:
        """The next request whose client hung up before its response was complete.

        Raises:
            TimeoutError: No such disconnect within ``timeout`` seconds.
        """
        return await self._disconnects.next(timeout, "client disconnect")

    def wait_for_disconnect_sync(self, timeout: float = 5.0) -> RecordedRequest:
        """Blocking :meth:`wait_for_disconnect`."""
        return self._disconnects.next_sync(timeout, "client disconnect")

    @property
    def disconnects(self) -> list[RecordedRequest]:
        """Requests whose client hung up early, in order."""
        return self._disconnects.snapshot()

    def reset(self) -> None:
        """Forget queued replies, recorded requests, disconnects and the connection count."""
        self.connections_accepted = 0
        self._replies.clear()
        self._requests.clear()
        self._disconnects.clear()

    # -- lifecycle -----------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """E.g. ``"http://127.0.0.1:54321/v1"``.

        Raises:
            RuntimeError: The server is not running.
        """
        if self._server is None:
            raise RuntimeError("The server is not running: call start() first.")
        return f"http://{self.host}:{self.port}/v1"

    def start(self) -> OpenAICompatServer:
        """Start serving from a background thread; returns ``self`` once listening.

        Raises:
            RuntimeError: Already started.
            OSError: The port could not be bound.
        """
        if self._thread is not None:
            raise RuntimeError("The server is already running.")
        started = threading.Event()
        errors: list[BaseException] = []
        self._thread = threading.Thread(
            target=self._run_thread, args=(started, errors), name="OpenAICompatServer", daemon=True
        )
        self._thread.start()
        if not started.wait(_START_TIMEOUT):
            raise RuntimeError("The test server did not start in time.")
        if errors:
            self._thread.join()
            self._thread = None
            raise errors[0]
        return self

    def stop(self) -> None:
        """Close every connection and stop the thread. Safe to call twice."""
        thread, loop = self._thread, self._loop
        if thread is None or loop is None:
            return
        future = asyncio.run_coroutine_threadsafe(self._shutdown(), loop)
        with contextlib.suppress(Exception):
            future.result(_START_TIMEOUT)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(_START_TIMEOUT)
        self._thread = None

    def __enter__(self) -> OpenAICompatServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    async def serve_forever(self, on_ready: Callable[[str], None] | None = None) -> None:
        """Serve on the *running* loop until cancelled (the ``-m`` entry point uses this).

        Args:
            on_ready: Called with :attr:`base_url` once listening.
        """
        await self._listen()
        if on_ready is not None:
            on_ready(self.base_url)
        try:
            await asyncio.Event().wait()
        finally:
            await self._shutdown()

    def _run_thread(self, started: threading.Event, errors: list[BaseException]) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._listen())
        except BaseException as exc:
            errors.append(exc)
            started.set()
            loop.close()
            return
        started.set()
        try:
            loop.run_forever()
        finally:
            _cancel_leftover_tasks(loop)
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
            self._loop = None

    async def _listen(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._server = await asyncio.start_server(self._serve_connection, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _shutdown(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for task, connection in list(self._connections.items()):
            connection.writer.transport.abort()
            task.cancel()
        if self._handlers:
            await asyncio.wait(set(self._handlers), timeout=_START_TIMEOUT)
        if server is not None:
            await server.wait_closed()

    # -- serving -------------------------------------------------------------------------

    async def _serve_connection(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        # The work runs in a task of our own, which shutdown may cancel: asyncio logs
        # an error when a client_connected_cb task itself ends cancelled.
        self.connections_accepted += 1
        handler = asyncio.current_task()
        assert handler is not None
        connection = Connection(reader, writer)
        task = asyncio.ensure_future(self._serve_requests(connection))
        self._connections[task] = connection
        self._handlers.add(handler)
        try:
            await asyncio.wait({task})
            await connection.close()
        finally:
            self._connections.pop(task, None)
            self._handlers.discard(handler)
        if not task.cancelled():
            _report_failure(task.exception())

    async def _serve_requests(self, connection: Connection) -> None:
        while True:
            http_request = await connection.read_request()
            if http_request is None:
                return
            request = _record(http_request)
            self._requests.append(request)
            keep_alive = await self._respond_watching(connection, request)
            if not (keep_alive and http_request.keep_alive):
                return

    async def _respond_watching(self, connection: Connection, request: RecordedRequest) -> bool:
        """Respond, noticing (and recording) a client that hangs up before the end."""
        respond = asyncio.ensure_future(self._respond(connection, request))
        watch = asyncio.ensure_future(connection.wait_closed_by_client())
        try:
            await asyncio.wait({respond, watch}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            # Shutdown cancelled this connection: the response must not outlive it.
            respond.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError, OSError):
                await asyncio.wait({respond})
            raise
        finally:
            watch.cancel()
            # Let the watcher's pending read finish cancelling before the next read.
            await asyncio.wait({watch})
        if not respond.done():
            respond.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError, OSError):
                await respond
            self._client_left(request)
            return False
        try:
            return respond.result()
        except (ConnectionError, OSError):
            self._client_left(request)
            return False

    def _client_left(self, request: RecordedRequest) -> None:
        request.disconnected = True
        self._disconnects.append(request)

    async def _respond(self, connection: Connection, request: RecordedRequest) -> bool:
        try:
            return await self._route(connection, request)
        except (ConnectionError, OSError, asyncio.CancelledError):
            raise
        except Exception as exc:  # a scripted responder failed: tell the client why
            if connection.head_written:
                return False
            body = error_body(f"The test server failed: {exc!r}", type_="server_error")
            await send_json(connection, 500, body)
            return True

    async def _route(self, connection: Connection, request: RecordedRequest) -> bool:
        path = request.path.split("?")[0].rstrip("/")
        if request.method == "POST" and path.endswith("/chat/completions"):
            return await self._chat(connection, request)
        if request.method == "GET" and path.endswith("/models"):
            return await self._list_models(connection, request)
        if request.method == "POST" and path.endswith("/audio/transcriptions"):
            return await self._transcribe(connection, request)
        body = error_body(
            f"Unknown endpoint {request.method} {request.path}.",
            type_="invalid_request_error",
            code="unknown_url",
        )
        await send_json(connection, 404, body)
        return True

    def _refusal(self, request: RecordedRequest) -> tuple[int, dict[str, Any]] | None:
        authorization = request.headers.get("authorization")
        if self.api_key is not None and authorization != f"Bearer {self.api_key}":
            message = "Incorrect API key provided."
            return 401, error_body(message, type_="invalid_request_error", code="invalid_api_key")
        if not isinstance(request.body, dict) and request.method == "POST":
            return 400, error_body("The body is not valid JSON.", type_="invalid_request_error")
        model = request.body.get("model") if isinstance(request.body, dict) else None
        if self.reject_unknown_models and model is not None and model not in self.models:
            message = f"The model `{model}` does not exist or you do not have access to it."
            return 404, error_body(message, type_="invalid_request_error", code="model_not_found")
        return None

    async def _chat(self, connection: Connection, request: RecordedRequest) -> bool:
        refusal = self._refusal(request)
        if refusal is not None:
            await send_json(connection, *refusal)
            return True
        reply = self._next_reply(request)
        if reply.response_delay:
            await asyncio.sleep(reply.response_delay)
        if reply.body is not None:
            await send_body(connection, reply)
            return True
        if reply.status >= 400:
            await send_error(connection, reply)
            return True
        body: dict[str, Any] = request.body
        stream = reply.stream if reply.stream is not None else bool(body.get("stream"))
        encoder = CompletionEncoder(reply, body)
        if stream:
            return await send_stream(connection, encoder, _wants_usage(body))
        if reply.drop_after_chunks is not None:
            return False
        if reply.first_chunk_delay:
            await asyncio.sleep(reply.first_chunk_delay)
        await send_json(connection, 200, encoder.completion(), reply.headers)
        return True

    async def _list_models(self, connection: Connection, request: RecordedRequest) -> bool:
        refusal = self._refusal(request)
        reply = self.models_reply
        if refusal is not None:
            await send_json(connection, *refusal)
        elif reply is not None and reply.status >= 400:
            if reply.response_delay:
                await asyncio.sleep(reply.response_delay)
            await send_error(connection, reply)
        else:
            data = [
                {"id": model, "object": "model", "created": 0, "owned_by": "desktop-agent"}
                for model in self.models
            ]
            await send_json(connection, 200, {"object": "list", "data": data})
        return True

    async def _transcribe(self, connection: Connection, request: RecordedRequest) -> bool:
        """Speech to text: :attr:`transcription`, or 404 when it is ``None`` (not offered).

        The multipart upload is recorded as it came (``raw_body``).
        """
        authorization = request.headers.get("authorization")
        if self.api_key is not None and authorization != f"Bearer {self.api_key}":
            message = "Incorrect API key provided."
            body = error_body(message, type_="invalid_request_error", code="invalid_api_key")
            await send_json(connection, 401, body)
        elif self.transcription is None:
            await self._route_unknown(connection, request)
        else:
            await send_json(connection, 200, {"text": self.transcription})
        return True

    async def _route_unknown(self, connection: Connection, request: RecordedRequest) -> None:
        body = error_body(
            f"Unknown endpoint {request.method} {request.path}.",
            type_="invalid_request_error",
            code="unknown_url",
        )
        await send_json(connection, 404, body)

    def _next_reply(self, request: RecordedRequest) -> ScriptedReply:
        try:
            source = self._replies.popleft()
        except IndexError:
            source = self.default_reply if self.default_reply is not None else _echo
        if callable(source) and not isinstance(source, ScriptedReply):
            source = source(request)
        return ScriptedReply(source) if isinstance(source, str) else source


def _report_failure(exc: BaseException | None) -> None:
    if exc is not None and not isinstance(exc, BadRequest | ConnectionError | OSError):
        logger.warning("The test server's connection handler failed: %r", exc)


def _echo(request: RecordedRequest) -> ScriptedReply:
    return ScriptedReply(f"You said: {last_user_text(request.body)}")


def _record(http_request: HTTPRequest) -> RecordedRequest:
    try:
        body = json.loads(http_request.body) if http_request.body else None
    except ValueError:
        body = None
    return RecordedRequest(
        method=http_request.method,
        path=http_request.target,
        headers=http_request.headers,
        body=body,
        raw_body=http_request.body,
    )


def _wants_usage(body: dict[str, Any]) -> bool:
    options = body.get("stream_options")
    return isinstance(options, dict) and bool(options.get("include_usage"))


def _cancel_leftover_tasks(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel and finish every task still on ``loop`` (what ``asyncio.run`` does on exit)."""
    leftovers = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in leftovers:
        task.cancel()
    if leftovers:
        loop.run_until_complete(asyncio.gather(*leftovers, return_exceptions=True))
