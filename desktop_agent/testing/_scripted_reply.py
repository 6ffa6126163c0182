"""What the test server answers: :class:`ScriptedReply` and its parts.

A reply describes *content* (text, reasoning, tool calls, audio, usage) and *delivery*
(chunk size and delays, dropping the connection, HTTP errors). The same reply is sent
as an SSE stream or as one JSON body, following what the request asked for.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field, fields
from typing import Any, Literal, TypeAlias


@dataclass
class ScriptedToolCall:
    """A tool call the scripted model makes.

    Args:
        name: The function name.
        arguments: A dict (sent as JSON) or the exact argument text — which may be
            malformed or truncated JSON, to test repair.
        id: The call id; default ``"call_<n>"`` with ``n`` the call's index.
    """

    name: str
    arguments: str | Mapping[str, Any] = "{}"
    id: str | None = None

    @property
    def arguments_text(self) -> str:
        """The argument text as sent on the wire."""
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments, ensure_ascii=False)


@dataclass
class ScriptedAudio:
    """Audio output (as with ``modalities=["text", "audio"]``).

    Args:
        data: The audio bytes, or their base64 text.
        transcript: The spoken text, streamed as ``audio.transcript`` deltas.
        id: The audio id.
        expires_at: Unix time the server would forget the audio.
    """

    data: bytes | str
    transcript: str = ""
    id: str = "audio_scripted"
    expires_at: int = 0

    @property
    def raw(self) -> bytes:
        """The audio bytes."""
        if isinstance(self.data, bytes):
            return self.data
        return base64.b64decode(self.data)

    @property
    def base64(self) -> str:
        """The audio as base64 text."""
        if isinstance(self.data, str):
            return self.data
        return base64.b64encode(self.data).decode("ascii")


@dataclass
class ScriptedReply:
    """One answer of the test server to ``POST /v1/chat/completions``.

    Content — a ``str`` is split into deltas of ``chunk_size`` characters when streamed;
    a sequence of strings gives the exact deltas:

    Args:
        text: The answer text (``content``).
        reasoning: Reasoning text, sent in the ``reasoning_field`` of the deltas.
        tool_calls: Tool calls (``ScriptedToolCall`` or dicts with the same keys),
            streamed one after another, arguments split into ``chunk_size`` pieces.
        audio: Audio output with its transcript.
        usage: ``"auto"`` (estimated from the text sizes), explicit
            ``{"prompt_tokens": .., "completion_tokens": ..}``, or ``None`` for none. When
            streaming, usage is sent (in a final chunk without choices) only if the
            request asked with ``stream_options.include_usage``.
        finish_reason: Default ``"tool_calls"`` when there are tool calls, else ``"stop"``.
        model: The ``model`` field; default the requested model.
        id: The completion id; default a fresh ``"chatcmpl-…"``.
        reasoning_field: ``"reasoning_content"`` (DeepSeek, vLLM…) or ``"reasoning"``.

    Delivery:

    Args:
        chunk_size: Characters per delta when splitting strings.
        chunk_delay: Seconds between SSE events (0: as fast as possible, batched).
        first_chunk_delay: Seconds between the response headers and the first event
            (for a non-streamed reply: extra delay before the response).
        response_delay: Seconds before the response starts (status line).
        drop_after_chunks: Close the connection after this many SSE events, without
            ``[DONE]`` or the end of the chunked body (a non-streamed reply is dropped
            before any byte of the response).
        error_after_chunks: After this many events send an ``{"error": error_body}`` event.
        status: HTTP status; ≥ 400 sends ``{"error": error_body}`` as JSON.
        error_body: The error object (default: a generic one naming the status).
        headers: Extra response headers (e.g. ``{"retry-after": "2"}``).
        stream: Force a streamed (``True``) or JSON (``False``) answer; default as asked.
        raw_events: Exact SSE payloads to stream instead of the generated ones (dicts
            are JSON-encoded, strings and bytes sent as is), followed by ``[DONE]`` if
            ``send_done``.
        send_done: Whether a stream ends with ``data: [DONE]``.
        send_finish: Whether a stream sends its finish chunk (and usage chunk). With
            ``send_done=False`` the stream just ends cleanly mid-answer, as when a proxy
            closes it early: no finish reason, no ``[DONE]``, no transport error.
        stall_after_chunks: After this many events send nothing more but keep the
            socket open (a server that hangs mid-stream) until the client hangs up.
        body: Exact response bytes (a ``str`` is UTF-8 encoded) sent with ``status`` and
            ``content_type`` instead of a completion: an HTML page, plain JSON, an empty
            body (``b""``) or bytes that are not UTF-8.
        content_type: The ``content-type`` of ``body`` (default ``text/html``).
    """

    text: str | Sequence[str] = ""
    _: KW_ONLY
    reasoning: str | Sequence[str] = ""
    tool_calls: Sequence[ScriptedToolCall | Mapping[str, Any]] = ()
    audio: ScriptedAudio | None = None
    usage: Mapping[str, int] | Literal["auto"] | None = "auto"
    finish_reason: str | None = None
    model: str | None = None
    id: str | None = None
    reasoning_field: str = "reasoning_content"
    chunk_size: int = 8
    chunk_delay: float = 0.0
    first_chunk_delay: float = 0.0
    response_delay: float = 0.0
    drop_after_chunks: int | None = None
    error_after_chunks: int | None = None
    status: int = 200
    error_body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    stream: bool | None = None
    raw_events: Sequence[Mapping[str, Any] | str | bytes] | None = None
    send_done: bool = True
    send_finish: bool = True
    stall_after_chunks: int | None = None
    body: bytes | str | None = None
    content_type: str = "text/html; charset=utf-8"

    def __post_init__(self) -> None:
        if self.chunk_size < 1:
            raise ValueError(f"chunk_size must be at least 1, got {self.chunk_size!r}.")

    @classmethod
    def error(
        cls,
        status: int,
        message: str | None = None,
        *,
        type: str | None = None,
        code: str | int | None = None,
        retry_after: float | None = None,
        headers: Mapping[str, str] | None = None,
        response_delay: float = 0.0,
    ) -> ScriptedReply:
        """An HTTP error reply shaped like OpenAI's ``{"error": {...}}``.

        Args:
            status: The HTTP status, e.g. 401, 404, 429, 500.
            message: The server's message; default a generic one.
            type: The error ``type``; default from the status.
            code: The error ``code``.
            retry_after: Seconds, sent as the ``retry-after`` header.
            headers: More response headers.
            response_delay: Seconds before the error is sent.
        """
        all_headers = dict(headers or {})
        if retry_after is not None:
            all_headers["retry-after"] = f"{retry_after:g}"
        body = {
            "message": message or _default_error_message(status),
            "type": type or _default_error_type(status),
            "param": None,
            "code": code,
        }
        return cls(
            status=status, error_body=body, headers=all_headers, response_delay=response_delay
        )

    @classmethod
    def model_not_found(
        cls, model: str = "no-such-model", *, style: str = "litellm"
    ) -> ScriptedReply:
        """The HTTP 400 a proxy answers for an unknown model.

        Args:
            model: The model name the message quotes.
            style: ``"litellm"`` (a LiteLLM proxy: ``{"error": {...}}``, ``code "400"``) or
                ``"vllm"`` (vLLM: a top-level ``{"object": "error", ...}`` body).
        """
        if style == "vllm":
            body: dict[str, Any] = {
                "object": "error",
                "message": f"The model `{model}` does not exist.",
                "type": "NotFoundError",
                "param": None,
                "code": 400,
            }
            return cls(status=400, body=json.dumps(body), content_type="application/json")
        if style != "litellm":
            raise ValueError(f"Unknown style {style!r}: use 'litellm' or 'vllm'.")
        message = (
            f"/chat/completions: Invalid model name passed in model={model}. "
            "Call `/v1/models` to view available models for your key."
        )
        return cls(
            status=400,
            error_body={"message": message, "type": "None", "param": "None", "code": "400"},
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScriptedReply:
        """A reply from JSON-ready data (the server's ``--script`` file format).

        Keys are the constructor's; ``tool_calls`` items are dicts, ``audio`` is a dict
        whose ``data`` is base64 text.
        """
        known = {f.name for f in fields(cls)} - {"_"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"Unknown ScriptedReply fields {unknown!r}.")
        values = dict(data)
        if values.get("audio") is not None:
            values["audio"] = ScriptedAudio(**values["audio"])
        values["tool_calls"] = [ScriptedToolCall(**call) for call in values.get("tool_calls", [])]
        return cls(**values)

    def scripted_tool_calls(self) -> list[ScriptedToolCall]:
        """``tool_calls`` as :class:`ScriptedToolCall`s with their ids filled in."""
        calls = []
        for index, call in enumerate(self.tool_calls):
            if not isinstance(call, ScriptedToolCall):
                call = ScriptedToolCall(**call)
            calls.append(ScriptedToolCall(call.name, call.arguments, call.id or f"call_{index}"))
        return calls

    def resolved_finish_reason(self) -> str:
        """``finish_reason``, defaulted from the content."""
        if self.finish_reason is not None:
            return self.finish_reason
        return "tool_calls" if self.tool_calls else "stop"


ReplySource: TypeAlias = "ScriptedReply | str | Callable[[Any], ScriptedReply | str]"
"""What a server queue takes: a reply, a text, or a function of the request."""


def _default_error_message(status: int) -> str:
    messages = {
        400: "Bad request.",
        401: "Incorrect API key provided.",
        403: "You are not allowed to use this model.",
        404: "The model does not exist or you do not have access to it.",
        429: "Rate limit reached. Please try again later.",
        500: "The server had an error while processing your request.",
        503: "The server is overloaded. Please try again later.",
    }
    return messages.get(status, f"Scripted error with HTTP status {status}.")


def _default_error_type(status: int) -> str:
    if status in (401, 403):
        return "authentication_error" if status == 401 else "permission_error"
    if status == 404:
        return "not_found_error"
    if status == 429:
        return "rate_limit_error"
    return "server_error" if status >= 500 else "invalid_request_error"
