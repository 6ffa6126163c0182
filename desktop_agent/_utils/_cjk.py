"""Text written without spaces (Chinese, Japanese; Korean particles): words and token counts.

Two cheap, offline estimates that treat CJK text as what it is rather than as one long
"word" or as bytes:

- :func:`cjk_bigrams` gives the character pairs of a CJK run that can carry meaning:
  pairs holding a function character (的, 了, 是 … and Japanese kana particles) or forming
  a question/filler word (什么, 多少 …) are left out, so "北京的人口是多少" yields
  {"北京", "人口"}. Pairs are what Chinese search engines index when they have no
  dictionary; a segmenter (jieba: 20 MB of dictionary, ~1 s to load) would be more
  precise but not by enough for a relevance test.
- :func:`estimate_text_tokens` counts a CJK character as about one token (BPE vocabularies
  of current models hold most common Han characters and many pairs; one per character is
  near cl100k's and above o200k's rate) and everything else as UTF-8 bytes / 4.
"""

from __future__ import annotations

import itertools
import math
import re

# Han (BMP, extension A, compatibility, the supplementary planes), kana, Hangul, and the
# CJK punctuation and full-width forms that tokenizers also count about one each.
_CJK_CLASS = (
    "\u1100-\u11ff\u3000-\u303f\u3040-\u309f\u30a0-\u30ff\u3130-\u318f\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
    "\U00020000-\U0003134f"
)
CJK_CHARS = re.compile(f"[{_CJK_CLASS}]")
CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
_WORD_CHARS = re.compile(r"[^\W\d_]")
_HIRAGANA = re.compile("[\u3040-\u309f]")

# Characters that make a pair meaningless on their own: particles, pronouns, copulas,
# conjunctions (Chinese) and the common Korean particles. Hiragana are handled apart.
FUNCTION_CHARACTERS = frozenset(
    "的了着过吗呢吧啊呀哦嗯么是和与及或也都就而把被让给对从向于之其这那你我他她它们请很还再"
    "의은는이가을를에와과도로"
)
# Pairs of content-free characters that are still common: question and filler words.
_STOP_BIGRAMS_TEXT = """
    什么 怎么 怎样 多少 哪里 哪个 如何 为什 可以 可能 一个 一些 一下 一样
    没有 不是 不要 请问 告诉 知道 谢谢 现在 时候 因为 所以 但是 如果 还是
    或者 已经 需要 应该 能够 自己 这样 那么 的话 有没 有什 是不 有多 然后
    觉得 问题 帮我 帮忙 东西 事情 比较 非常 特别 一点 有点 为何
"""
STOP_BIGRAMS = frozenset(_STOP_BIGRAMS_TEXT.split())


def cjk_bigrams(run: str) -> set[str]:
    """The meaningful character pairs of a run of CJK characters."""
    pairs = set()
    for first, second in itertools.pairwise(run):
        pair = first + second
        if first in FUNCTION_CHARACTERS or second in FUNCTION_CHARACTERS:
            continue
        if _HIRAGANA.search(pair) or not _WORD_CHARS.match(first) or not _WORD_CHARS.match(second):
            continue
        if pair not in STOP_BIGRAMS:
            pairs.add(pair)
    return pairs


def estimate_text_tokens(text: str, bytes_per_token: float = 4.0) -> int:
    """About one token per CJK character plus UTF-8 bytes / ``bytes_per_token`` for the rest."""
    if not text:
        return 0
    if text.isascii():
        return math.ceil(len(text) / bytes_per_token)
    rest, cjk = CJK_CHARS.subn("", text)
    return cjk + math.ceil(len(rest.encode("utf-8", "surrogatepass")) / bytes_per_token)
