"""What :class:`ChatService` tells its listeners about a turn.

A turn starts with one :class:`TurnStarted` and ends with exactly one of
:class:`TurnFinished`, :class:`TurnFailed` or :class:`TurnInterrupted`; the service is
idle again when the ending event is published.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TurnUsage:
    """Tokens the turn used, summed over its model calls (a ReAct turn may make several)."""

    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: TurnUsage) -> TurnUsage:
        return TurnUsage(
            self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens
        )


@dataclass(frozen=True)
class TurnStarted:
    """A turn began; ``retry`` is true when it re-runs a failed one, ``continuation`` when
    it asks the model to go on with its last (cut-off) answer."""

    retry: bool = False
    continuation: bool = False


@dataclass(frozen=True)
class TurnFinished:
    """The agent answered; ``usage`` is ``None`` when the server reported none.

    ``finish_reason`` is why the model stopped its last answer: ``"stop"``, ``"length"``
    (the token limit), ``"content_filter"``…, or ``None`` when the stream ended without
    saying (the answer is cut off).
    """

    usage: TurnUsage | None = None
    finish_reason: str | None = "stop"

    @property
    def cut_off(self) -> bool:
        """The answer ended without a finish reason: it is incomplete."""
        return self.finish_reason is None

    @property
    def at_token_limit(self) -> bool:
        """The model stopped at its output token limit."""
        return self.finish_reason == "length"


@dataclass(frozen=True)
class TurnFailed:
    """The turn ended with an error the user can read (never a traceback).

    Attributes:
        message: What went wrong, with the server's own message when there is one.
        retryable: Whether trying again may help (rate limits, 5xx, dropped connections).
    """

    message: str
    retryable: bool


@dataclass(frozen=True)
class TurnInterrupted:
    """The user stopped the turn; what was produced so far stays in the chat and memory."""

    usage: TurnUsage | None = None


TurnEvent = TurnStarted | TurnFinished | TurnFailed | TurnInterrupted
