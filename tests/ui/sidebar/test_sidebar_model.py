"""The list model over the library's rows, and relative times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QApplication

from desktop_agent.app.library import SessionChange, SessionCorruptError, SessionSummary
from desktop_agent.ui.sidebar import ACTIVE_ROLE, STATUS_ROLE, SessionListModel, relative_time

NOW = datetime(2025, 3, 12, 15, 30, tzinfo=UTC)


def _at(**delta: float) -> str:
    return (NOW - timedelta(**delta)).isoformat()


def _row(session_id: str, title: str, minutes_ago: float) -> SessionSummary:
    moment = _at(minutes=minutes_ago)
    return SessionSummary(session_id, title, moment, moment, 2, "m")


def test_relative_times_read_like_a_person_would_say_them() -> None:
    # Without a translation installed (the words in English: test_relative_time_locale.py).
    now = NOW.astimezone()
    english = QLocale(QLocale.Language.English, QLocale.Country.UnitedKingdom)
    assert relative_time(NOW - timedelta(seconds=20), now) == "just now"
    assert relative_time(NOW + timedelta(seconds=5), now) == "just now"
    assert relative_time(NOW - timedelta(minutes=5), now) == "5 minute(s) ago"
    earlier_today = now.replace(hour=1, minute=0)
    if now.hour >= 2:
        assert relative_time(earlier_today, now).endswith("hour(s) ago")
    yesterday = (now - timedelta(days=1)).replace(hour=12)
    assert relative_time(yesterday, now) == "Yesterday"
    three_days = now - timedelta(days=3)
    assert relative_time(three_days, now, english) == three_days.strftime("%A")
    assert relative_time(now - timedelta(days=40), now, english) == "31 Jan"
    assert relative_time(now - timedelta(days=400), now, english) == "6 Feb 2024"


def test_changes_move_rows_by_activity(qapp: QApplication) -> None:
    model = SessionListModel()
    model.set_rows([_row("a", "A", 1), _row("b", "B", 5), _row("c", "C", 9)])
    model.apply(SessionChange("saved", "c", _row("c", "C again", 0)))
    assert [s.title for s in model.summaries()] == ["C again", "A", "B"]
    model.apply(SessionChange("renamed", "b", _row("b", "Bee", 30)))
    assert [s.title for s in model.summaries()] == ["C again", "A", "Bee"]
    model.apply(SessionChange("deleted", "a", None))
    model.apply(SessionChange("created", "d", _row("d", "D", 0.5)))
    assert [s.session_id for s in model.summaries()] == ["c", "d", "b"]
    error = SessionCorruptError("b", "/x/b.json", "it is not valid JSON")
    model.apply(SessionChange("damaged", "b", None, error))
    index = model.index(2)
    assert index.data(STATUS_ROLE) == "corrupt"
    assert "not valid JSON" in index.data(Qt.ItemDataRole.ToolTipRole)
    assert not model.flags(index) & Qt.ItemFlag.ItemIsEditable


def test_search_results_are_patched_not_extended(qapp: QApplication) -> None:
    model = SessionListModel()
    model.set_rows([_row("a", "A", 1)], "search")
    model.apply(SessionChange("created", "z", _row("z", "Z", 0)))
    model.apply(SessionChange("saved", "a", _row("a", "A2", 0)))
    assert [s.title for s in model.summaries()] == ["A2"]


def test_the_active_row_and_inline_rename(qapp: QApplication) -> None:
    model = SessionListModel()
    model.set_rows([_row("a", "A", 1), _row("b", "B", 5)])
    renames: list[tuple[str, str]] = []
    model.rename_requested.connect(lambda sid, title: renames.append((sid, title)))
    model.set_active("b")
    assert [model.index(r).data(ACTIVE_ROLE) for r in range(2)] == [False, True]
    assert model.setData(model.index(0), "  New   name ")
    assert renames == [("a", "New name")] and model.summary(0).title == "New name"
    assert not model.setData(model.index(0), "   ")
