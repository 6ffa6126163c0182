"""The sessions sidebar: saved sessions by last activity, search, rename, delete, trash.

``Sidebar`` is the widget the window embeds; ``SessionListModel`` adapts the library's
rows to Qt (a virtualized ``QListView`` paints them with ``SessionDelegate``);
``SessionsController`` runs the work on a ``SessionSwitcher`` and shows the outcome
(``SessionProblemPanel`` for a session that cannot be opened).
"""

from desktop_agent.ui.sidebar._controller import SessionsController
from desktop_agent.ui.sidebar._delegate import SessionDelegate
from desktop_agent.ui.sidebar._model import (
    ACTIVE_ROLE,
    SESSION_ID_ROLE,
    SNIPPET_ROLE,
    STATUS_ROLE,
    SUMMARY_ROLE,
    TIME_ROLE,
    SessionListModel,
)
from desktop_agent.ui.sidebar._problem_panel import SessionProblemPanel
from desktop_agent.ui.sidebar._relative_time import exact_time, relative_time
from desktop_agent.ui.sidebar._sidebar import Sidebar, UndoBar

__all__ = [
    "ACTIVE_ROLE",
    "SESSION_ID_ROLE",
    "SNIPPET_ROLE",
    "STATUS_ROLE",
    "SUMMARY_ROLE",
    "TIME_ROLE",
    "SessionDelegate",
    "SessionListModel",
    "SessionProblemPanel",
    "SessionsController",
    "Sidebar",
    "UndoBar",
    "exact_time",
    "relative_time",
]
