"""Errors of the session layer.

Hierarchy::

    ValueError
    └── SessionFileError   a session file exists but cannot be loaded: unreadable, not
                           UTF-8, not JSON, not ``{name: state_dict, ...}``, or a state
                           that the module it belongs to rejects (chained from the
                           module's own error)

Misuse (an id that would leave ``save_dir``) raises a plain ``ValueError``, and a
missing file when ``allow_not_exist=False`` the ``ValueError`` AgentScope raises.
``SessionFileError`` is a ``ValueError`` too, so ``except ValueError`` handles both.
"""

from __future__ import annotations


class SessionFileError(ValueError):
    """A session file that cannot be loaded. The file itself is left untouched.

    Attributes:
        path: The file.
        reason: What is wrong with it, e.g. ``"is not valid JSON (...)"``.
    """

    def __init__(self, path: str, reason: str) -> None:
        """Create the error.

        Args:
            path: The file.
            reason: What is wrong with it; completes "Failed to load session state
                from file {path}: ...".
        """
        super().__init__(f"Failed to load session state from file {path}: {reason}")
        self.path = path
        self.reason = reason

    def __reduce__(self) -> tuple[type[SessionFileError], tuple[str, str]]:
        # Exceptions pickle through ``args``, which here is the formatted message.
        return (type(self), (self.path, self.reason))
