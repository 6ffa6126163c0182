"""``SessionListModel``: the session library's rows as a Qt list model.

A thin adapter: rows are the library's ``SessionSummary`` objects, replaced wholesale by
a listing, a search or the trash, and patched by the library's change events (a save
moves a session to the top, a rename retitles it, a delete removes it). The model never
calls the library: an inline rename is reported by ``rename_requested`` and shown at
once; the library's "renamed" event confirms it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.ui.sidebar._relative_time import exact_time, relative_time

if TYPE_CHECKING:
    from desktop_agent.app.library import SessionChange, SessionSummary

ListMode = Literal["all", "search", "trash"]

SUMMARY_ROLE = Qt.ItemDataRole.UserRole + 1
"""The row's ``SessionSummary``."""
TIME_ROLE = Qt.ItemDataRole.UserRole + 2
"""Its last activity, relative ("5 minutes ago")."""
ACTIVE_ROLE = Qt.ItemDataRole.UserRole + 3
"""Whether it is the session the chat shows."""
SNIPPET_ROLE = Qt.ItemDataRole.UserRole + 4
"""For search results: the text around the match."""
STATUS_ROLE = Qt.ItemDataRole.UserRole + 5
"""``"ok"``, ``"corrupt"``, ``"newer_schema"`` or ``"locked"``."""
SESSION_ID_ROLE = Qt.ItemDataRole.UserRole + 6
"""The session id."""

_AnyIndex = QModelIndex | QPersistentModelIndex
_STATUS_WORDS = {
    "corrupt": QT_TRANSLATE_NOOP("SessionListModel", "Damaged"),
    "newer_schema": QT_TRANSLATE_NOOP("SessionListModel", "From a newer version"),
    "locked": QT_TRANSLATE_NOOP("SessionListModel", "Open in another window"),
}


class SessionListModel(QAbstractListModel):
    """Sessions, most recent first, for the sidebar's list view.

    Signals:
        rename_requested(str, str): The user edited a title inline (session id, title).
    """

    rename_requested = Signal(str, str)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[SessionSummary] = []
        self._active: str | None = None
        self._mode: ListMode = "all"
        self._now = datetime.now().astimezone()
        self.search_query = ""
        """The query of the search results shown ("" otherwise)."""

    # -- reading ---------------------------------------------------------------------

    @property
    def mode(self) -> ListMode:
        """What the rows are: every session, search results or the trash."""
        return self._mode

    @property
    def active_id(self) -> str | None:
        """The session highlighted as the one the chat shows."""
        return self._active

    def summaries(self) -> list[SessionSummary]:
        """The rows, in order."""
        return list(self._rows)

    def summary(self, row: int) -> SessionSummary:
        """The summary at ``row``."""
        return self._rows[row]

    def row_of(self, session_id: str) -> int | None:
        """The row of a session, if listed."""
        for row, summary in enumerate(self._rows):
            if summary.session_id == session_id:
                return row
        return None

    def find(self, session_id: str) -> SessionSummary | None:
        """The summary of a session, if listed."""
        row = self.row_of(session_id)
        return None if row is None else self._rows[row]

    def rowCount(self, parent: _AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """The number of rows (none below the top level)."""
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """The row's title, time, status... by role."""
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        summary = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return shown_title(summary)
        if role == Qt.ItemDataRole.EditRole:
            return summary.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tooltip(summary)
        return self._custom_data(summary, role)

    def _custom_data(self, summary: SessionSummary, role: int) -> Any:
        if role == TIME_ROLE:
            moment = summary.last_activity
            return relative_time(moment, self._now) if moment.year > 1970 else ""
        if role == ACTIVE_ROLE:
            return summary.session_id == self._active
        if role == SNIPPET_ROLE:
            return summary.snippet
        if role == STATUS_ROLE:
            return str(summary.status)
        if role == SESSION_ID_ROLE:
            return summary.session_id
        if role == SUMMARY_ROLE:
            return summary
        return None

    def flags(self, index: _AnyIndex) -> Qt.ItemFlag:
        """Rows are selectable; sessions that can be saved are renamable too."""
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if self._mode != "trash" and self._rows[index.row()].status == "ok":
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def setData(self, index: _AnyIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """An inline rename: shown at once and reported by ``rename_requested``."""
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        summary = self._rows[index.row()]
        title = " ".join(str(value).split())
        if not title or title == summary.title:
            return False
        self._rows[index.row()] = replace(summary, title=title, title_is_custom=True)
        self.dataChanged.emit(index, index)
        self.rename_requested.emit(summary.session_id, title)
        return True

    # -- writing ---------------------------------------------------------------------

    def set_rows(self, rows: list[SessionSummary], mode: ListMode = "all", query: str = "") -> None:
        """Show ``rows`` (already in order): every session, search results (for ``query``)
        or the trash."""
        self.beginResetModel()
        self._rows = list(rows)
        self._mode = mode
        self.search_query = query if mode == "search" else ""
        self._now = datetime.now().astimezone()
        self.endResetModel()

    def set_active(self, session_id: str | None) -> None:
        """Highlight the session the chat shows (``None``: a new chat, not saved yet)."""
        previous, self._active = self._active, session_id
        for sid in {previous, session_id}:
            row = self.row_of(sid) if sid is not None else None
            if row is not None:
                self._changed(row)

    def refresh_times(self) -> None:
        """Recompute the relative times ("just now" becomes "2 min ago")."""
        self._now = datetime.now().astimezone()
        if self._rows:
            self.dataChanged.emit(self.index(0), self.index(len(self._rows) - 1), [TIME_ROLE])

    def apply(self, change: SessionChange) -> None:
        """Patch the rows with a library change (the trash view is reloaded instead)."""
        if self._mode == "trash":
            return
        row = self.row_of(change.session_id)
        if change.kind == "deleted":
            if row is not None:
                self._remove(row)
        elif change.kind == "damaged":
            if row is not None:
                self._mark_damaged(row, change.error)
        elif change.summary is not None:
            self._upsert(row, change.summary, keep_place=change.kind == "renamed")

    def _upsert(self, row: int | None, summary: SessionSummary, *, keep_place: bool) -> None:
        if row is not None:
            summary = replace(summary, snippet=self._rows[row].snippet)
        if self._mode == "search" or (keep_place and row is not None):
            if row is not None:
                self._rows[row] = summary
                self._changed(row)
            return
        target = self._position_for(summary, skip=row)
        if row is not None and target == row:
            self._rows[row] = summary
            self._changed(row)
            return
        if row is not None:
            self._remove(row)
        self.beginInsertRows(QModelIndex(), target, target)
        self._rows.insert(target, summary)
        self.endInsertRows()

    def _position_for(self, summary: SessionSummary, skip: int | None) -> int:
        moment = summary.last_activity
        position = 0
        for row, other in enumerate(self._rows):
            if row == skip:
                continue
            if other.last_activity <= moment:
                break
            position += 1
        return position

    def _mark_damaged(self, row: int, error: Exception | None) -> None:
        status = "newer_schema" if hasattr(error, "schema_version") else "corrupt"
        summary = self._rows[row]
        self._rows[row] = replace(summary, status=type(summary.status)(status), error=str(error))
        self._changed(row)

    def _remove(self, row: int) -> None:
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._rows[row]
        self.endRemoveRows()

    def _changed(self, row: int) -> None:
        index = self.index(row)
        self.dataChanged.emit(index, index)


def shown_title(summary: SessionSummary) -> str:
    """The title the sidebar shows: "Damaged session" for an unreadable one without a title."""
    if not summary.title and summary.status in ("corrupt", "newer_schema"):
        if summary.status == "corrupt":
            return QCoreApplication.translate("SessionListModel", "Damaged session")
        return QCoreApplication.translate("SessionListModel", "Session from a newer version")
    return summary.display_title


def _tooltip(summary: SessionSummary) -> str:
    if summary.status != "ok":
        word = QCoreApplication.translate(
            "SessionListModel",
            _STATUS_WORDS.get(
                str(summary.status), QT_TRANSLATE_NOOP("SessionListModel", "Problem")
            ),
        )
        if not summary.error:
            return word
        return QCoreApplication.translate("SessionListModel", "{status}: {error}").format(
            status=word, error=summary.error
        )
    count = summary.message_count
    lines = [
        summary.display_title,
        QCoreApplication.translate("SessionListModel", "%n message(s)", "", count),
    ]
    lines.append(
        QCoreApplication.translate("SessionListModel", "Last active {time}").format(
            time=exact_time(summary.last_activity)
        )
    )
    if summary.model:
        lines.append(
            QCoreApplication.translate("SessionListModel", "Model: {model}").format(
                model=summary.model
            )
        )
    return "\n".join(lines)
