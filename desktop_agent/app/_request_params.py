"""The sampling parameters a chat sends, and what to do when a server rejects one.

Only parameters the user set are sent (temperature always, as before): ``max_tokens``,
``top_p``, ``reasoning_effort``. Many OpenAI-compatible servers reject a parameter they do
not know with HTTP 400 ("Unrecognized request argument supplied: top_p", "reasoning_effort
is not supported with this model"). :func:`rejected_parameter` recognizes that; the model
then drops the parameter for the rest of the chat and the turn fails with a sentence
saying so — Retry sends the message without it.
"""

from __future__ import annotations

import re
from typing import Any

from desktop_agent._i18n import translate
from desktop_agent.app._settings import Settings

OPTIONAL_PARAMETERS = ("max_tokens", "top_p", "reasoning_effort", "temperature")


def request_params(settings: Settings) -> dict[str, Any]:
    """The ``generate_kwargs`` of a chat's model from ``settings``."""
    params: dict[str, Any] = {"temperature": settings.temperature}
    if settings.max_output_tokens is not None:
        params["max_tokens"] = settings.max_output_tokens
    if settings.top_p is not None:
        params["top_p"] = settings.top_p
    if settings.reasoning_effort:
        params["reasoning_effort"] = settings.reasoning_effort
    return params


class UnsupportedParameterError(Exception):
    """The server refused a request parameter; it is not sent again in this chat.

    Attributes:
        parameter: The parameter's name.
    """

    for_user = True  # the message is a sentence for the chat (see _errors.describe_error)

    def __init__(self, parameter: str, server_message: str) -> None:
        self.parameter = parameter
        super().__init__(
            translate(
                "ChatService",
                "The server does not accept the parameter “{parameter}” ({reason}). Retry sends "
                "the message without it; to stop sending it, clear it in Parameters (Settings, "
                "or the chat header).",
            ).format(parameter=parameter, reason=server_message.strip() or "HTTP 400")
        )


def rejected_parameter(exc: BaseException, sent: dict[str, Any]) -> str | None:
    """The name of a parameter in ``sent`` that the HTTP 400/422 ``exc`` complains about."""
    status = getattr(exc, "status_code", None)
    if status not in (400, 422):
        return None
    text = " ".join(
        str(part)
        for part in (getattr(exc, "server_message", None), getattr(exc, "body", None), exc)
    )
    for name in OPTIONAL_PARAMETERS:
        if name in sent and re.search(rf"\b{re.escape(name)}\b", text):
            return name
    return None
