"""``TokenCounterBase``: what truncating formatters and memory compression call."""

from __future__ import annotations

from typing import Any


class TokenCounterBase:
    """Counts the tokens of provider-format messages (what a formatter returns).

    Counters are duck-typed: anything with this async ``count`` works. The abstract
    marker is not enforced, as in AgentScope.
    """

    async def count(self, messages: list[dict[str, Any]], **kwargs: Any) -> int:
        """The number of tokens ``messages`` take."""
        raise NotImplementedError
