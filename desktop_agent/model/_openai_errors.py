"""Translation of ``openai`` SDK exceptions into :mod:`desktop_agent.model` errors.

The SDK is imported lazily (``import openai`` costs ~0.75 s), so this module only touches
it inside :func:`translate_openai_error`, which runs after a client already exists.
"""

from __future__ import annotations

import re
import socket
from typing import Any

from desktop_agent._i18n import translate
from desktop_agent.model._exceptions import (
    ModelAPIError,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelError,
    ModelNotFoundError,
    ModelRateLimitError,
    ModelResponseError,
)

_MAX_SERVER_MESSAGE = 500


def translate_openai_error(
    exc: BaseException,
    *,
    base_url: str,
    mid_stream: bool = False,
    read_timeout: float | None = None,
) -> ModelError:
    """The :class:`ModelError` that describes ``exc`` to a user.

    Args:
        exc: An exception raised by the ``openai`` SDK.
        base_url: The server the request went to, named in connection errors.
        mid_stream: Whether the error happened while reading a streamed answer.
        read_timeout: The client's read timeout (seconds without a byte), if known.
    """
    import openai  # ~0.7 s: loaded on first use

    if isinstance(exc, openai.APITimeoutError):
        if mid_stream:
            if read_timeout:
                text = translate(
                    "ModelError",
                    "The model server at {url} did not answer in time: it sent nothing for "
                    "{seconds} s while streaming, so the answer is incomplete.",
                ).format(url=base_url, seconds=f"{read_timeout:g}")
            else:
                text = translate(
                    "ModelError",
                    "The model server at {url} did not answer in time: it sent nothing while "
                    "streaming, so the answer is incomplete.",
                ).format(url=base_url)
            return ModelConnectionError(text)
        return ModelConnectionError(
            translate(
                "ModelError",
                "The model server at {url} did not answer in time (request timed out).",
            ).format(url=base_url)
        )
    if isinstance(exc, openai.APIConnectionError):
        return _connection_error(exc, base_url=base_url, mid_stream=mid_stream)
    if isinstance(exc, openai.APIResponseValidationError):
        return ModelResponseError(
            translate(
                "ModelError", "The model server sent a response of unexpected shape: {error}"
            ).format(error=exc)
        )
    if isinstance(exc, openai.APIStatusError):
        return _status_error(
            exc.status_code, exc.body, headers=exc.response.headers, base_url=base_url
        )
    if isinstance(exc, openai.APIError):
        return _stream_error_event(exc)
    if isinstance(exc, openai.LengthFinishReasonError | openai.ContentFilterFinishReasonError):
        return ModelResponseError(
            translate("ModelError", "The model's answer could not be used: {error}").format(
                error=exc
            )
        )
    return ModelError(translate("ModelError", "The model call failed: {error}").format(error=exc))


def _connection_error(exc: BaseException, *, base_url: str, mid_stream: bool) -> ModelError:
    causes = list(_cause_chain(exc))
    if mid_stream:
        return ModelConnectionError(
            translate(
                "ModelError",
                "The connection to the model server at {url} was lost mid-stream; the answer is "
                "incomplete.",
            ).format(url=base_url)
        )
    if any(isinstance(cause, ConnectionRefusedError) for cause in causes) or any(
        "refused" in str(cause).lower() for cause in causes
    ):
        return ModelConnectionError(
            translate(
                "ModelError",
                "Could not connect to the model server at {url}: connection refused. Is the "
                "server running, and is the base URL right?",
            ).format(url=base_url)
        )
    if any(isinstance(cause, socket.gaierror) for cause in causes):
        return ModelConnectionError(
            translate(
                "ModelError",
                "Could not resolve the host of the model server at {url}. Check the base URL and "
                "your network connection.",
            ).format(url=base_url)
        )
    detail = str(causes[-1]) if len(causes) > 1 and str(causes[-1]) else str(exc)
    return ModelConnectionError(
        translate("ModelError", "Could not reach the model server at {url}: {error}").format(
            url=base_url, error=detail
        )
    )


def _cause_chain(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def _status_error(status: int, body: Any, *, headers: Any, base_url: str) -> ModelAPIError:
    server_message = _server_message(body)
    detail = f": {_sentence(server_message)}" if server_message else "."
    if status in (401, 403):
        hint = (
            translate("ModelError", "Check the API key in the provider settings.")
            if status == 401
            else translate("ModelError", "Check that this API key may use this model.")
        )
        return ModelAuthenticationError(
            translate(
                "ModelError", "The model server refused the request (HTTP {status}){detail} {hint}"
            ).format(status=status, detail=detail, hint=hint),
            status_code=status,
            body=body,
            server_message=server_message,
        )
    if status == 404 or (status == 400 and says_model_missing(body, server_message)):
        return ModelNotFoundError(
            translate(
                "ModelError",
                "The model server does not know this model (HTTP {status}){detail} Pick another "
                "model in Settings, or check the base URL ({url}).",
            ).format(status=status, detail=detail, url=base_url),
            status_code=status,
            body=body,
            server_message=server_message,
        )
    if status == 429:
        retry_after = parse_retry_after(headers)
        when = (
            translate("ModelError", "Try again in {seconds} s.").format(seconds=f"{retry_after:g}")
            if retry_after is not None
            else translate("ModelError", "Try again later.")
        )
        return ModelRateLimitError(
            translate(
                "ModelError", "The model server is rate limiting requests (HTTP 429){detail} {when}"
            ).format(detail=detail, when=when),
            status_code=status,
            body=body,
            server_message=server_message,
            retry_after=retry_after,
        )
    if status >= 500:
        message = translate(
            "ModelError",
            "The model server had an internal error (HTTP {status}){detail} Try again.",
        ).format(status=status, detail=detail)
    else:
        message = translate(
            "ModelError", "The model server rejected the request (HTTP {status}){detail}"
        ).format(status=status, detail=detail)
    return ModelAPIError(message, status_code=status, body=body, server_message=server_message)


def _sentence(text: str) -> str:
    """``text`` ending with a full stop (servers often leave it out: "Rate limit exceeded"),
    so that the hint after it reads as a sentence of its own."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", "。")) else f"{text}."


_MODEL_MISSING = re.compile(
    r"model\b.{0,120}\b(does not exist|not found|not exist|is not available|unknown)"
    r"|invalid model|unknown model|no such model|model_not_found|model not found",
    re.IGNORECASE | re.DOTALL,
)


def says_model_missing(body: Any, server_message: str | None) -> bool:
    """Whether an HTTP 400 means "no such model" (LiteLLM, vLLM and others answer 400,
    not 404): its ``code`` or its message says so."""
    inner = body.get("error", body) if isinstance(body, dict) else None
    code = str(inner.get("code") or "") if isinstance(inner, dict) else ""
    if code == "model_not_found":
        return True
    return bool(server_message and _MODEL_MISSING.search(server_message))


def _stream_error_event(exc: Any) -> ModelAPIError:
    body = getattr(exc, "body", None)
    server_message = _server_message(body) or str(getattr(exc, "message", "")) or None
    kind = str(body.get("type") or body.get("code") or "") if isinstance(body, dict) else ""
    message = translate(
        "ModelError", "The model server reported an error during the answer: {error}"
    ).format(error=server_message)
    if "rate" in kind.lower() and "limit" in kind.lower():
        return ModelRateLimitError(
            message, status_code=None, body=body, server_message=server_message
        )
    return ModelAPIError(message, status_code=None, body=body, server_message=server_message)


def _server_message(body: Any) -> str | None:
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        return str(message)[:_MAX_SERVER_MESSAGE] if message else None
    if isinstance(body, str) and body.strip():
        return body.strip()[:_MAX_SERVER_MESSAGE]
    return None


def parse_retry_after(headers: Any) -> float | None:
    """Seconds from ``retry-after-ms`` or ``retry-after`` (numeric or HTTP date), or ``None``."""
    if headers is None:
        return None
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(float(value) / divisor, 0.0)
        except ValueError:
            pass
    return _retry_after_date(headers.get("retry-after"))


def _retry_after_date(value: str | None) -> float | None:
    import email.utils  # only an HTTP-date Retry-After
    import time

    if not value:
        return None
    try:
        parsed = email.utils.parsedate_tz(value)
        if parsed is None:
            return None
        return max(float(email.utils.mktime_tz(parsed) - time.time()), 0.0)
    except (TypeError, ValueError, OverflowError):
        return None
