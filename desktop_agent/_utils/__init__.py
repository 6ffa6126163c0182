"""Small helpers shared by several core packages."""

from desktop_agent._utils._common import DictMixin, timestamp_id, timestamp_now

__all__ = ["DictMixin", "timestamp_id", "timestamp_now"]
