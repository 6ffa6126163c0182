"""The default token counter: a cheap offline estimate, no tokenizer download.

About four characters make a token in English with common BPE tokenizers and about one
character in Chinese or Japanese, so :func:`estimate_tokens` counts CJK characters one
each and the rest as UTF-8 bytes / 4 — a fair budget guard for the short-term memory and
the template editor's figures. Pass ``token_counter=`` for exact counts (e.g. tiktoken).
"""

from __future__ import annotations

from desktop_agent._utils import estimate_text_tokens


def estimate_tokens(text: str) -> int:
    """0 for "", 1 for up to four ASCII characters, about 1 per CJK character."""
    return estimate_text_tokens(text)
