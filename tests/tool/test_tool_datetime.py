"""``get_current_datetime``."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

from desktop_agent.tool import ToolError, get_current_datetime


def iso_of(timezone: str | None = None) -> datetime:
    text = get_current_datetime(timezone).content[0]["text"]
    match = re.search(r"ISO 8601: (\S+)$", text)
    assert match, text
    return datetime.fromisoformat(match.group(1))


def test_local_time_is_now() -> None:
    now = datetime.now().astimezone()
    assert abs(iso_of() - now) < timedelta(seconds=5)


def test_named_timezone() -> None:
    text = get_current_datetime("UTC").content[0]["text"]
    assert "UTC (UTC+00:00)" in text
    assert iso_of("Asia/Kolkata").utcoffset() == timedelta(hours=5, minutes=30)
    assert re.match(r"^[A-Z][a-z]+day, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d ", text)


def test_unknown_timezone() -> None:
    with pytest.raises(ToolError, match="Unknown timezone 'Mars/Olympus'"):
        get_current_datetime("Mars/Olympus")
    with pytest.raises(ToolError, match="Unknown timezone"):
        get_current_datetime("../../etc/passwd")
