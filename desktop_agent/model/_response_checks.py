"""Checks on what a model server sent, turning surprises into ``ModelResponseError``s.

A proxy or a wrong base URL can answer a streamed request with ``200 OK`` and an HTML
login page, a plain JSON object or nothing at all; the SDK reads such a body as an empty
stream, so without a check the turn "succeeds" with no reply. Malformed chunks (wrong
shape, invalid UTF-8, JSON nested thousands deep) raise ``AttributeError``,
``UnicodeDecodeError`` or ``RecursionError`` deep in the SDK; here they become errors a
user can read. The API key is masked in every error text at its source: a server may
echo it back in its message.
"""

from __future__ import annotations

from typing import Any

from desktop_agent.model._exceptions import ModelAPIError, ModelError, ModelResponseError

_PREVIEW_CHARS = 120
_MIN_SECRET = 6
MASK = "***"

UNUSABLE_CHUNK_ERRORS = (AttributeError, TypeError, KeyError, IndexError)
"""What reading a chunk of the wrong shape raises (a ``str`` where an object belongs…)."""


def _is_event_stream(content_type: str) -> bool:
    return "event-stream" in content_type.lower()


def _looks_like_events(data: bytes) -> bool:
    """Whether a body is an event stream all the same (a mislabelled content type)."""
    head = data.lstrip()[:16]
    return head.startswith((b"data:", b"event:", b":", b"id:"))


async def check_event_stream(stream: Any, base_url: str) -> None:
    """Raise if the SDK stream's HTTP response is not an event stream.

    Args:
        stream: The SDK's ``AsyncStream`` (its ``response`` is the HTTP response).
        base_url: The server, named in the message.

    Raises:
        ModelResponseError: The body is an HTML page, plain JSON, text or empty; the
            message names what arrived.
    """
    response = getattr(stream, "response", None)
    if response is None:
        return
    content_type = str(response.headers.get("content-type", ""))
    if _is_event_stream(content_type):
        return
    data = await response.aread()  # cached: the SDK's iterator reads it from memory
    if data and _looks_like_events(data):
        return
    raise ModelResponseError(
        f"The model server at {base_url} answered with {describe_body(content_type, data)}, "
        "not an event stream. Check the base URL (it should end with /v1 on most servers)."
    )


def describe_body(content_type: str, data: bytes) -> str:
    """A short phrase for a response body: its kind and its first characters."""
    media = content_type.split(";")[0].strip().lower() or "no content type"
    if not data.strip():
        return f"an empty body ({media})"
    text = data.decode("utf-8", "replace")
    preview = " ".join(text.split())[:_PREVIEW_CHARS]
    if "html" in media or text.lstrip()[:15].lower().startswith(("<!doctype", "<html")):
        kind = "an HTML page"
    elif "json" in media or text.lstrip()[:1] in ("{", "["):
        kind = "plain JSON"
    else:
        kind = "text"
    return f"{kind} ({media}): {preview!r}"


def empty_stream(base_url: str) -> ModelResponseError:
    """The error for an event stream that ended before any chunk."""
    return ModelResponseError(
        f"The model server at {base_url} sent an empty event stream: no reply arrived."
    )


def check_chunk(chunk: Any) -> Any:
    """``chunk`` itself; raises ``TypeError`` if its ``choices`` is not a list."""
    choices = getattr(chunk, "choices", None)
    if choices is not None and not isinstance(choices, list):
        raise TypeError(f"its 'choices' is a {type(choices).__name__}, not a list")
    return chunk


def unusable_chunk(exc: BaseException) -> ModelResponseError:
    """The error for a chunk the stream reader could not use."""
    if isinstance(exc, UnicodeDecodeError):
        return ModelResponseError(
            f"The model server sent bytes that are not valid UTF-8 text ({exc.reason} "
            f"at byte {exc.start})."
        )
    if isinstance(exc, RecursionError):
        return ModelResponseError(
            "The model server sent JSON nested too deeply to be read (thousands of levels)."
        )
    return ModelResponseError(
        f"The model server sent a stream chunk of an unexpected shape "
        f"({type(exc).__name__}: {exc})."
    )


def mask_secret(error: ModelError, secret: str | None) -> ModelError:
    """``error`` with ``secret`` (the API key) replaced by ``***`` in all its text."""
    if not secret or len(secret) < _MIN_SECRET:
        return error
    error.message = error.message.replace(secret, MASK)
    error.args = tuple(_masked(arg, secret) for arg in error.args)
    if isinstance(error, ModelAPIError):
        error.body = _masked(error.body, secret)
        if error.server_message is not None:
            error.server_message = error.server_message.replace(secret, MASK)
    return error


def _masked(value: Any, secret: str) -> Any:
    if isinstance(value, str):
        return value.replace(secret, MASK)
    if isinstance(value, dict):
        return {key: _masked(item, secret) for key, item in value.items()}
    if isinstance(value, list):
        return [_masked(item, secret) for item in value]
    return value
