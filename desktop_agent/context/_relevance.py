"""Meaningful words, for the built-in ``is_relevant_func`` importance function.

Deliberately simple and offline: lower-cased word characters, English stop-words
removed, words shorter than three characters ignored. Scripts written without spaces
(Chinese, Japanese) are cut into meaningful character pairs instead
(:func:`desktop_agent._utils.cjk_bigrams`): "北京的人口是多少" shares "北京" and "人口"
with a text about Beijing's population, and nothing with one about the weather.
"""

from __future__ import annotations

import re

from desktop_agent._utils import CJK_RUN, cjk_bigrams

_WORD = re.compile(r"\w+")
_MIN_LENGTH = 3

_STOP_WORDS_TEXT = """
    about above after again against all also and any are aren because been before being
    below between both but can cannot could did didn does doesn doing don down during each
    few for from further had has have having her here hers herself him himself his how
    into its itself just let like more most much must myself nor not now off once only
    other ought our ours ourselves out over own same she should some such than that the
    their theirs them themselves then there these they this those through too under until
    upon very was wasn were weren what when where which while who whom why will with won
    would you your yours yourself yourselves please thanks thank yes yeah okay tell know
    get got make want need use used using one two way may might shall via per
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())


def meaningful_words(text: str) -> set[str]:
    """The set of meaningful words of ``text`` (character pairs for CJK runs)."""
    lowered = text.lower()
    words = set()
    if not lowered.isascii():
        for run in CJK_RUN.findall(lowered):
            words |= cjk_bigrams(run)
        lowered = CJK_RUN.sub(" ", lowered)
    words.update(
        word
        for word in _WORD.findall(lowered)
        if len(word) >= _MIN_LENGTH and word not in STOP_WORDS
    )
    return words


def shares_meaningful_words(text: str, other: str) -> bool:
    """Whether the two texts have a meaningful word in common."""
    return not meaningful_words(text).isdisjoint(meaningful_words(other))
