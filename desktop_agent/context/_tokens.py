"""The default token counter: a cheap offline estimate, no tokenizer download.

About four characters make a token in English with common BPE tokenizers, so
``ceil(len(text) / 4)`` is a fair budget guard for the short-term memory and the
template editor's figures. Pass ``token_counter=`` for exact counts (e.g. tiktoken).
"""

from __future__ import annotations

_CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """``ceil(len(text) / 4)``: 0 for "", 1 for up to four characters."""
    return -(-len(text) // _CHARS_PER_TOKEN)
