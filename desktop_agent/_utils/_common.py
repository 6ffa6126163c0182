"""Timestamps, timestamp ids and the dict-backed dataclass mixin AgentScope uses."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any


def timestamp_now() -> str:
    """Local time as ``"YYYY-mm-dd HH:MM:SS.mmm"``."""
    return datetime.now().strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def timestamp_id() -> str:
    """A timestamp plus ``"_"`` plus 6 random hex characters (ChatResponse/ToolResponse ids)."""
    return f"{timestamp_now()}_{secrets.token_hex(3)}"


class DictMixin(dict[str, Any]):
    """Makes a dataclass also a ``dict`` whose keys are its fields.

    A missing attribute raises ``KeyError`` (not ``AttributeError``), as in AgentScope.
    """

    __setattr__ = dict.__setitem__

    def __getattr__(self, key: str) -> Any:
        if key.startswith("__") and key.endswith("__"):
            # Protocol lookups (copy's __deepcopy__, pickle's __getstate__…) must see
            # AttributeError, or copying and pickling a response breaks.
            raise AttributeError(key)
        return dict.__getitem__(self, key)
