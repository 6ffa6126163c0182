"""``get_current_datetime``: models do not know what time it is."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from desktop_agent.tool._exceptions import ToolError
from desktop_agent.tool._execution import text_response
from desktop_agent.tool._response import ToolResponse


def _zone(timezone: str) -> ZoneInfo:
    try:
        return ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ToolError(
            f"Unknown timezone {timezone!r}. Use an IANA name such as 'UTC', "
            "'Europe/Paris' or 'America/New_York'."
        ) from exc


def get_current_datetime(timezone: str | None = None) -> ToolResponse:
    """Get the current date and time.

    Args:
        timezone (str | None): An IANA timezone name such as "Europe/Paris" or "UTC".
            Leave it empty for the user's local time.
    """
    now = datetime.now().astimezone() if not timezone else datetime.now(_zone(timezone))
    offset = now.strftime("%z")
    text = (
        f"{now.strftime('%A, %Y-%m-%d %H:%M:%S')} {now.tzname()} "
        f"(UTC{offset[:3]}:{offset[3:]}). ISO 8601: {now.isoformat(timespec='seconds')}"
    )
    return text_response(text)
