"""Errors of a model *run*: what went wrong between us and the model server.

The chat models translate their SDK's exceptions into this hierarchy (``raise ... from
exc``, so the SDK error stays available as ``__cause__``), and the application shows
``str(error)`` — a sentence a user can act on — never a traceback::

    ModelError                      base; ``message``, ``retryable``
    ├── ModelConnectionError        refused, DNS failure, timeout, stream dropped mid-way
    ├── ModelAPIError               the server answered with an error: ``status_code``,
    │   │                           ``body``, ``server_message``
    │   ├── ModelAuthenticationError   401 / 403: bad or missing API key, no permission
    │   ├── ModelNotFoundError         404: unknown model or wrong base URL
    │   └── ModelRateLimitError        429: ``retry_after`` seconds when the server says so
    └── ModelResponseError          the server answered, but not in a form we can use

``retryable`` says whether trying the same request again, unchanged, may succeed
(connection problems, rate limits, 408/409/5xx); a UI may offer Retry regardless.
Misuse by a developer (bad arguments) raises ``ValueError``/``TypeError`` instead.
"""

from __future__ import annotations

from typing import Any


class ModelError(Exception):
    """Base of every error a model call raises at run time.

    Attributes:
        message: A human-readable sentence, also ``str(error)``.
        retryable: Whether the same request may succeed if tried again.
    """

    retryable: bool = False

    def __init__(self, message: str, *, retryable: bool | None = None) -> None:
        super().__init__(message)
        self.message = message
        if retryable is not None:
            self.retryable = retryable


class ModelConnectionError(ModelError):
    """The server could not be reached, timed out, or dropped the connection."""

    retryable = True


class ModelAPIError(ModelError):
    """The server answered with an HTTP error (or an error event inside a stream).

    Attributes:
        status_code: The HTTP status, or ``None`` for an error event inside a stream.
        body: The decoded error body (usually the ``error`` object), or the raw text.
        server_message: The server's own explanation, if it gave one.
    """

    def __init__(
        self,
        message: str,
        *,
        status_code: int | None,
        body: Any = None,
        server_message: str | None = None,
        retryable: bool | None = None,
    ) -> None:
        if retryable is None:
            retryable = status_code is not None and (
                status_code in (408, 409, 429) or status_code >= 500
            )
        super().__init__(message, retryable=retryable)
        self.status_code = status_code
        self.body = body
        self.server_message = server_message


class ModelAuthenticationError(ModelAPIError):
    """401 or 403: the API key is missing, wrong, or lacks permission."""


class ModelNotFoundError(ModelAPIError):
    """404: the model does not exist on this server, or the base URL is wrong."""


class ModelRateLimitError(ModelAPIError):
    """429: too many requests or tokens; wait ``retry_after`` seconds if given.

    Attributes:
        retry_after: Seconds the server asked us to wait, or ``None``.
    """

    def __init__(
        self,
        message: str,
        *,
        status_code: int | None = 429,
        body: Any = None,
        server_message: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(
            message,
            status_code=status_code,
            body=body,
            server_message=server_message,
            retryable=True,
        )
        self.retry_after = retry_after


class ModelResponseError(ModelError):
    """The server's answer could not be understood (invalid JSON, wrong shape, …)."""
