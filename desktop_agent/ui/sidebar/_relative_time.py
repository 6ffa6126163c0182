"""How long ago a session was active, in the sidebar's words ("5 minutes ago", "Yesterday").

The words come from the translation ("刚刚", "3 分钟前") and weekdays and dates from the
locale (:class:`QLocale`, the application's default unless one is given), so it is tested
without a window. Times are shown in local time: "Yesterday" and weekdays follow the
user's calendar, not UTC's.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from PySide6.QtCore import QCoreApplication, QDate, QDateTime, QLocale, QTime

_WEEK = timedelta(days=7)


def relative_time(
    moment: datetime, now: datetime | None = None, locale: QLocale | None = None
) -> str:
    """``moment`` relative to ``now`` (default: the current time).

    Returns:
        "just now" (under a minute, or a little in the future), "N minutes ago" (under an
        hour), "N hours ago" (the same day), "Yesterday", a weekday name (within a week),
        "12 Mar" (this year) or "12 Mar 2024", in the language and ``locale`` in force.
    """
    now = now or datetime.now().astimezone()
    locale = locale or QLocale()
    local = moment.astimezone(now.tzinfo) if moment.tzinfo else moment
    seconds = (now - local).total_seconds()
    if seconds < 60:
        return QCoreApplication.translate("SessionListModel", "just now")
    if seconds < 3600:
        minutes = int(seconds // 60)
        return QCoreApplication.translate("SessionListModel", "%n minute(s) ago", "", minutes)
    days = (now.date() - local.date()).days
    if days == 0:
        hours = int(seconds // 3600)
        return QCoreApplication.translate("SessionListModel", "%n hour(s) ago", "", hours)
    if days == 1:
        return QCoreApplication.translate("SessionListModel", "Yesterday")
    if now - local < _WEEK:
        return locale.dayName(local.isoweekday(), QLocale.FormatType.LongFormat)
    date = QDate(local.year, local.month, local.day)
    if local.year == now.year:
        this_year = QCoreApplication.translate(
            "SessionListModel", "d MMM", "QDate format of a day this year: 12 Mar"
        )
        return locale.toString(date, this_year)
    other_year = QCoreApplication.translate(
        "SessionListModel", "d MMM yyyy", "QDate format of a day another year: 12 Mar 2024"
    )
    return locale.toString(date, other_year)


def exact_time(moment: datetime, locale: QLocale | None = None) -> str:
    """``moment`` in local time, e.g. "2025-03-12 14:05" (for tooltips)."""
    local = moment.astimezone()
    stamp = QDateTime(QDate(local.year, local.month, local.day), QTime(local.hour, local.minute))
    return (locale or QLocale()).toString(stamp, "yyyy-MM-dd HH:mm")
