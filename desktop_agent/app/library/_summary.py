"""What the sidebar shows: one ``SessionSummary`` per session, and change events."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from desktop_agent._i18n import QT_TRANSLATE_NOOP, translate
from desktop_agent.message import Msg

UNTITLED = QT_TRANSLATE_NOOP("SessionSummary", "New session")

_EPOCH = datetime.fromisoformat("1970-01-01T00:00:00+00:00")


class SessionStatus(StrEnum):
    """Whether a session can be opened, and if not, why."""

    OK = "ok"
    """Readable and writable here."""
    CORRUPT = "corrupt"
    """The file is damaged or of the wrong shape (``error`` says how)."""
    NEWER_SCHEMA = "newer_schema"
    """Saved by a newer app version."""
    LOCKED = "locked"
    """Open for writing in another window; it opens read-only here."""


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """One row of the session list.

    Attributes:
        session_id: The session's id.
        title: Its title; ``""`` until the first user message gives one.
        created: When it was created (ISO 8601, UTC).
        updated: Its last activity (ISO 8601, UTC).
        message_count: Messages in the agent's memory at the last save.
        model: The model it talks to.
        status: Whether it can be opened.
        error: What is wrong when ``status`` is not ``OK``.
        title_is_custom: The user chose the title.
        snippet: For search results: the text around the first content match.
    """

    session_id: str
    title: str
    created: str
    updated: str
    message_count: int
    model: str
    status: SessionStatus = SessionStatus.OK
    error: str = ""
    title_is_custom: bool = False
    snippet: str = ""

    @property
    def display_title(self) -> str:
        """The title, or ``"New session"`` while there is none."""
        return self.title or translate("SessionSummary", UNTITLED)

    @property
    def last_activity(self) -> datetime:
        """``updated`` (else ``created``) as an aware datetime; the epoch if unknown."""
        return parse_time(self.updated) or parse_time(self.created) or _EPOCH


def parse_time(text: str) -> datetime | None:
    """An ISO 8601 time as an aware datetime (naive times are taken as UTC)."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_EPOCH.tzinfo)
    return moment


def by_last_activity(summaries: list[SessionSummary]) -> list[SessionSummary]:
    """The summaries, most recent activity first (ties: newest created, then id)."""
    return sorted(
        summaries,
        key=lambda s: (s.last_activity, parse_time(s.created) or _EPOCH, s.session_id),
        reverse=True,
    )


def summary_from_entry(session_id: str, entry: dict[str, Any]) -> SessionSummary:
    """A summary from an index entry (see ``_index``)."""
    return SessionSummary(
        session_id=session_id,
        title=str(entry.get("title", "")),
        created=str(entry.get("created", "")),
        updated=str(entry.get("updated", "")),
        message_count=int(entry.get("message_count", 0)),
        model=str(entry.get("model", "")),
        status=SessionStatus(entry.get("status", "ok")),
        error=str(entry.get("error", "")),
        title_is_custom=bool(entry.get("title_is_custom", False)),
    )


@dataclass(frozen=True, slots=True)
class LoadedSession:
    """What ``SessionLibrary.load`` found.

    Attributes:
        summary: The session's row.
        read_only: Another window has it open for writing: it can be read, not saved.
        unfinished_reply: The reply that was streaming when the app last stopped
            (saved by the autosaver mid-stream), for the app to show as interrupted.
        read_only_reason: Why it is read-only, a sentence for the user (``""`` if not):
            another window has it, or the data folder cannot be written.
    """

    summary: SessionSummary
    read_only: bool
    unfinished_reply: Msg | None = None
    read_only_reason: str = ""


@dataclass(frozen=True, slots=True)
class SessionChange:
    """A change to the session list, for the sidebar's model.

    Attributes:
        kind: What happened. ``"damaged"``: opening it failed; its row's status is now
            ``corrupt`` or ``newer_schema`` and ``error`` says why.
        session_id: The session concerned.
        summary: Its new row (``None`` when it left the list, or for ``"damaged"``).
        error: For ``"damaged"``, the error ``load`` raised (its message is for the user).
    """

    kind: Literal["created", "saved", "renamed", "deleted", "restored", "damaged"]
    session_id: str
    summary: SessionSummary | None
    error: Exception | None = None
