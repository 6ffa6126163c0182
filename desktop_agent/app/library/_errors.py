"""Errors of the session library, each with a message a user can read.

Hierarchy::

    Exception
    └── SessionError                    anything the library reports about one session
        ├── SessionNotFoundError        no such session (LookupError too)
        ├── SessionCorruptError         the file is damaged or of the wrong shape; it was
        │                               left untouched (a SessionFileError, so a ValueError)
        ├── SessionFromNewerVersionError  written by a newer app; left untouched
        ├── SessionLockedError          another process has the session open for writing
        └── SessionSaveError            the disk refused the write (full, read-only, ...);
                                        the session in memory is intact

Misuse is not a ``SessionError``: an invalid session id raises ``ValueError`` and saving a
session that was neither created nor loaded raises ``RuntimeError``, naming it in ``!r``.
"""

from __future__ import annotations

from typing import Any

from desktop_agent._i18n import translate
from desktop_agent.session._exceptions import SessionFileError


class SessionError(Exception):
    """A session could not be listed, opened, saved or moved.

    Attributes:
        session_id: The session concerned.
    """

    def __init__(self, session_id: str, message: str) -> None:
        """Create the error.

        Args:
            session_id: The session concerned.
            message: The whole sentence shown to the user.
        """
        Exception.__init__(self, message)
        self.session_id = session_id
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.session_id, self.message), self.__dict__)


def _rebuild(cls: type[SessionError], session_id: str, message: str) -> SessionError:
    error = cls.__new__(cls)
    SessionError.__init__(error, session_id, message)
    return error


class SessionNotFoundError(SessionError, LookupError):
    """There is no session with this id (or none in the trash, for ``restore``)."""


class SessionCorruptError(SessionError, SessionFileError):
    """The session file is damaged, truncated or of the wrong shape.

    The file is never modified or deleted because of this error.

    Attributes:
        path: The file.
        reason: What is wrong with it.
    """

    def __init__(self, session_id: str, path: str, reason: str) -> None:
        """Create the error.

        Args:
            session_id: The session concerned.
            path: The damaged file.
            reason: What is wrong, e.g. ``"it is not valid JSON (...)"``.
        """
        SessionError.__init__(
            self,
            session_id,
            translate(
                "SessionError",
                "The session could not be opened because its file is damaged: {reason}. "
                "The file was left untouched ({path}).",
            ).format(reason=reason, path=path),
        )
        self.path = path
        self.reason = reason


class SessionFromNewerVersionError(SessionError):
    """The session was saved by a newer version of the app (a higher schema version).

    Attributes:
        schema_version: The version found in the file.
        supported_version: The newest version this app reads.
    """

    def __init__(self, session_id: str, schema_version: int, supported_version: int) -> None:
        """Create the error.

        Args:
            session_id: The session concerned.
            schema_version: The version found in the file.
            supported_version: The newest version this app reads.
        """
        SessionError.__init__(
            self,
            session_id,
            translate(
                "SessionError",
                "The session was saved by a newer version of desktop-agent (format "
                "{version}; this version reads up to {supported}). Update the app to open it; "
                "the file was left untouched.",
            ).format(version=schema_version, supported=supported_version),
        )
        self.schema_version = schema_version
        self.supported_version = supported_version


class SessionLockedError(SessionError):
    """Another process (another window) has the session open for writing, or had it and
    changed it since this process read it."""

    def __init__(self, session_id: str, *, changed: bool = False) -> None:
        """Create the error.

        Args:
            session_id: The session concerned.
            changed: The other process has closed the session but changed it first.
        """
        message = (
            translate(
                "SessionError",
                "The session was changed in another desktop-agent window since it was opened "
                "here. Open it again to continue it here.",
            )
            if changed
            else translate(
                "SessionError",
                "The session is open in another desktop-agent window, so it is read-only "
                "here. Close it there to edit it here.",
            )
        )
        SessionError.__init__(self, session_id, message)


class SessionSaveError(SessionError):
    """Writing failed (disk full, read-only folder, ...); the session in memory is intact."""

    def __init__(self, session_id: str, reason: str) -> None:
        """Create the error.

        Args:
            session_id: The session concerned.
            reason: What the system said, e.g. ``"No space left on device"``.
        """
        SessionError.__init__(
            self,
            session_id,
            translate(
                "SessionError",
                "The session could not be saved: {reason}. The conversation is kept in memory; "
                "free some space or check the data folder's permissions.",
            ).format(reason=reason),
        )
        self.reason = reason
