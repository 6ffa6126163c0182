"""Turns a failed turn's exception into one readable sentence and a Retry hint.

The model layer already words its errors for users (``ModelError``: "The model server
refused the request (HTTP 401): ... Check the API key ..."), with ``retryable`` saying
whether the same request may succeed unchanged. Anything else is an unexpected failure,
reported by its message. Never a traceback.
"""

from __future__ import annotations

from desktop_agent._i18n import translate

_MAX_TEXT = 600


def describe_error(exc: BaseException, *, secret: str = "") -> tuple[str, bool]:
    """A sentence for the chat and whether retrying unchanged may help.

    Args:
        exc: What the turn raised.
        secret: The API key in use; masked should a server echo it back.
    """
    from desktop_agent.model import ModelError  # the model package loads after first paint

    if isinstance(exc, ModelError):
        text, retryable = str(exc), exc.retryable
    elif getattr(exc, "for_user", False):  # e.g. UnsupportedParameterError: worded already
        text, retryable = str(exc), True
    else:
        detail = str(exc).strip() or type(exc).__name__
        text = translate("ChatService", "Something went wrong: {detail}").format(detail=detail)
        retryable = True
    text = " ".join(text.split())
    if len(text) > _MAX_TEXT:
        text = text[: _MAX_TEXT - 1] + "…"
    if secret and len(secret) >= 6:
        text = text.replace(secret, "***")
    return text, retryable
