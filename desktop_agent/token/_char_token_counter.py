"""``CharTokenCounter``: characters, not tokens, exactly as AgentScope counts them."""

from __future__ import annotations

from typing import Any

from desktop_agent.token._token_base import TokenCounterBase


class CharTokenCounter(TokenCounterBase):
    """The length, in code points, of ``"\\n".join(str(m) for m in messages)``.

    ``str(m)`` is Python's repr of the dict (single quotes), not JSON; ``str(tools)`` is
    one more line when tools are given. The unit is characters: English runs 3–4 per
    token, and base64 data (images, audio) inflates the count a lot. For an estimate of
    model tokens use ``desktop_agent.formatter.EstimatingTokenCounter``.
    """

    async def count(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> int:
        """The number of characters of the messages (and tools) as Python text."""
        pieces = [str(message) for message in messages]
        if tools:
            pieces.append(str(tools))
        return len("\n".join(pieces))
