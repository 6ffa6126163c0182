"""Token counting for truncation: the offline estimator the app uses.

:class:`EstimatingTokenCounter` is an *estimate*, not a tokenizer: about one token per
CJK character (Chinese, Japanese, Korean — current BPE vocabularies hold most of them
whole) and one per four bytes of other UTF-8 text (four ASCII characters), plus a fixed
overhead per message, and fixed costs for images and audio. It needs no network or
model files, which is what a desktop app deciding what to drop from a long history needs;
pass ``TruncatedFormatterBase(max_tokens=...)`` a margin below the real window.

Before issue 18 this class was called ``CharTokenCounter``. That name now belongs to
AgentScope's character counter in :mod:`desktop_agent.token` (re-exported here), which
counts characters, 4-9x more than this estimate for the same messages.
"""

from __future__ import annotations

import json
from typing import Any

from desktop_agent._utils import estimate_text_tokens
from desktop_agent.token import CharTokenCounter, TokenCounterBase

__all__ = ["CharTokenCounter", "EstimatingTokenCounter", "TokenCounterBase"]


class EstimatingTokenCounter(TokenCounterBase):
    """Estimates tokens from text size; see the module docstring.

    Args:
        chars_per_token: UTF-8 bytes per token of text other than CJK characters.
        message_overhead: Tokens added per message (role, separators).
        image_tokens: Tokens counted per image.
        audio_tokens: Tokens counted per audio clip.
    """

    def __init__(
        self,
        chars_per_token: float = 4.0,
        message_overhead: int = 4,
        image_tokens: int = 765,
        audio_tokens: int = 200,
    ) -> None:
        if chars_per_token <= 0:
            raise ValueError(f"chars_per_token must be positive, got {chars_per_token!r}.")
        self.chars_per_token = chars_per_token
        self.message_overhead = message_overhead
        self.image_tokens = image_tokens
        self.audio_tokens = audio_tokens

    def count_text(self, text: str) -> int:
        """Estimated tokens of a piece of text."""
        return estimate_text_tokens(text, self.chars_per_token)

    async def count(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> int:
        """Estimated tokens of ``messages`` plus the JSON of ``tools``."""
        total = sum(self._count_message(message) for message in messages)
        if tools:
            total += self.count_text(json.dumps(tools, ensure_ascii=False))
        return total

    def _count_message(self, message: dict[str, Any]) -> int:
        total = self.message_overhead + self.count_text(str(message.get("name") or ""))
        content = message.get("content")
        if isinstance(content, str):
            total += self.count_text(content)
        elif isinstance(content, list):
            total += sum(self._count_part(part) for part in content)
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            total += self.count_text(str(function.get("name") or ""))
            total += self.count_text(str(function.get("arguments") or ""))
        return total

    def _count_part(self, part: Any) -> int:
        if not isinstance(part, dict):
            return self.count_text(str(part))
        part_type = part.get("type")
        if part_type == "text":
            return self.count_text(str(part.get("text") or ""))
        if part_type == "image_url":
            return self.image_tokens
        if part_type == "input_audio":
            return self.audio_tokens
        return self.count_text(json.dumps(part, ensure_ascii=False))
