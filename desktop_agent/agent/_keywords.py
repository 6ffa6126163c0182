"""Keyword scoring shared by the in-memory long-term memory and knowledge base.

Deliberately simple (no embeddings, no model calls): lower-cased word tokens, a small
stop-word list, and the fraction of query words a text contains.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+", re.UNICODE)
_STOP_WORDS = frozenset(
    (  # noqa: SIM905 - a word list reads better as one string
        "a an and are as at be by do does for from has have how i in is it its me my of on or "
        "our so that the their them there these this to was we were what when where which who "
        "why will with you your"
    ).split()
)


def keywords(text: str) -> set[str]:
    """The meaningful lower-cased words of ``text``."""
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP_WORDS}


def overlap_score(query_words: set[str], text: str) -> float:
    """The fraction of ``query_words`` found in ``text`` (0 when the query has none)."""
    if not query_words:
        return 0.0
    return len(query_words & keywords(text)) / len(query_words)
