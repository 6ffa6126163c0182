"""``SessionBase``: where agents' state is saved to and restored from.

A session is a named set of ``StateModule``s saved together (an agent, its memory, its
toolkit…), keyed by ``session_id`` and optionally ``user_id``. Backends differ only in
where the ``{name: state_dict}`` mapping goes. As in AgentScope the
``@abstractmethod`` markers are documentation only (no ``ABCMeta``).
"""

from __future__ import annotations

from abc import abstractmethod

from desktop_agent.module import StateModule


class SessionBase:
    """Saves and loads the state of named ``StateModule``s."""

    @abstractmethod
    async def save_session_state(
        self,
        session_id: str,
        user_id: str = "",
        **state_modules_mapping: StateModule,
    ) -> None:
        """Save ``{name: module.state_dict()}`` for every module given.

        Args:
            session_id: The session.
            user_id: The user the session belongs to; ``""`` for none.
            **state_modules_mapping: The modules, by the name they are saved under.
        """

    @abstractmethod
    async def load_session_state(
        self,
        session_id: str,
        user_id: str = "",
        allow_not_exist: bool = True,
        **state_modules_mapping: StateModule,
    ) -> None:
        """Load the saved state into every module given whose name was saved.

        Args:
            session_id: The session.
            user_id: The user the session belongs to; ``""`` for none.
            allow_not_exist: Return quietly when nothing was saved yet.
            **state_modules_mapping: The modules, by the name they were saved under.
        """
