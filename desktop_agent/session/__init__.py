"""Saving and restoring agents' state (mirror of ``agentscope.session``)."""

from desktop_agent.session._exceptions import SessionFileError
from desktop_agent.session._json_session import JSONSession
from desktop_agent.session._session_base import SessionBase

__all__ = ["JSONSession", "SessionBase", "SessionFileError"]
