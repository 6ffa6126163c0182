"""How long ago a session was active, in the sidebar's words ("5 min ago", "Yesterday").

Plain Python (no Qt), so it is tested without a window. Times are shown in local time:
"Yesterday" and weekdays follow the user's calendar, not UTC's.
"""

from __future__ import annotations

from datetime import datetime, timedelta

_WEEK = timedelta(days=7)


def relative_time(moment: datetime, now: datetime | None = None) -> str:
    """``moment`` relative to ``now`` (default: the current time).

    Returns:
        "just now" (under a minute, or a little in the future), "N min ago" (under an
        hour), "N h ago" (the same day), "Yesterday", a weekday name (within a week),
        "12 Mar" (this year) or "12 Mar 2024".
    """
    now = now or datetime.now().astimezone()
    local = moment.astimezone(now.tzinfo) if moment.tzinfo else moment
    seconds = (now - local).total_seconds()
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    days = (now.date() - local.date()).days
    if days == 0:
        return f"{int(seconds // 3600)} h ago"
    if days == 1:
        return "Yesterday"
    if now - local < _WEEK:
        return local.strftime("%A")
    if local.year == now.year:
        return f"{local.day} {local.strftime('%b')}"
    return f"{local.day} {local.strftime('%b')} {local.year}"


def exact_time(moment: datetime) -> str:
    """``moment`` in local time, e.g. "2025-03-12 14:05" (for tooltips)."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")
