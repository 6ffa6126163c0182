"""The session library: saved conversations, their index, autosave, search and trash.

Qt-free. ``SessionLibrary`` lists, creates, saves, loads, renames, deletes and searches
the sessions under :func:`data_root`; ``Autosaver`` keeps an open session saved while the
user chats. Each session is one ``JSONSession``-compatible file ``{"meta": ...,
"agent": ...}`` beside a small index the sidebar reads at startup. All methods run on the
event loop; their file work runs in worker threads.

Typical use::

    library = SessionLibrary()                      # $DESKTOP_AGENT_HOME or the platform's
    rows = await library.list()                     # for the sidebar, newest first
    session_id = await library.create(model="gpt-4o-mini")
    # or: loaded = await library.load(row.session_id, agent=agent)
    autosaver = Autosaver(library, session_id, {"agent": agent}, on_error=show_warning)
    autosaver.changed(unfinished_reply=msg)         # on each streamed chunk
    autosaver.message_finished()                    # when a message is complete
    await autosaver.aclose(); await library.close(session_id)   # when switching away
"""

from desktop_agent.app.library._autosave import Autosaver
from desktop_agent.app.library._errors import (
    SessionCorruptError,
    SessionError,
    SessionFromNewerVersionError,
    SessionLockedError,
    SessionNotFoundError,
    SessionSaveError,
)
from desktop_agent.app.library._library import SessionLibrary
from desktop_agent.app.library._meta import SCHEMA_VERSION, SessionMeta, title_from_text
from desktop_agent.app.library._migrations import MIGRATIONS
from desktop_agent.app.library._paths import data_root
from desktop_agent.app.library._scan import BLOB_THRESHOLD
from desktop_agent.app.library._summary import (
    LoadedSession,
    SessionChange,
    SessionStatus,
    SessionSummary,
)

# Plain sorted order (tests/test_package.py), not isort's constants-first order.
__all__ = [  # noqa: RUF022
    "Autosaver",
    "BLOB_THRESHOLD",
    "LoadedSession",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "SessionChange",
    "SessionCorruptError",
    "SessionError",
    "SessionFromNewerVersionError",
    "SessionLibrary",
    "SessionLockedError",
    "SessionMeta",
    "SessionNotFoundError",
    "SessionSaveError",
    "SessionStatus",
    "SessionSummary",
    "data_root",
    "title_from_text",
]
