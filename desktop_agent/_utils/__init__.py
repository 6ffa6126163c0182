"""Small helpers shared by several core packages."""

from desktop_agent._utils._cjk import CJK_RUN, cjk_bigrams, estimate_text_tokens
from desktop_agent._utils._common import DictMixin, timestamp_id, timestamp_now

__all__ = [
    "CJK_RUN",
    "DictMixin",
    "cjk_bigrams",
    "estimate_text_tokens",
    "timestamp_id",
    "timestamp_now",
]
