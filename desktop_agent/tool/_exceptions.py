"""Errors of the tool layer, by who has to act on them.

Hierarchy::

    Exception
    └── ToolError                  a *model* should read it: the toolkit turns it into the
        │                          tool result "{label}: {message}" and the turn goes on
        └── ToolPermissionDenied   the user did not allow a guarded tool to run

Errors a *developer* made (registering into an unknown group, a malformed JSON schema, a
name clash, a bad extended model, a malformed state) keep the exception types AgentScope
raises — ``ValueError``, ``TypeError``, ``AssertionError``, ``RuntimeError`` — and are raised
at once, naming the offender. Any other exception a tool raises still becomes an
``"Error: {e}"`` result (as in AgentScope); unlike a ``ToolError`` it is logged with its
traceback, because it is a bug in the tool rather than an answer for the model.
"""

from __future__ import annotations

from typing import ClassVar


class ToolError(Exception):
    """A failure the model should see as the tool's result (bad input, missing file, …).

    The toolkit renders it as ``f"{label}: {message}"``.
    """

    label: ClassVar[str] = "Error"

    def to_text(self) -> str:
        """The tool-result text the model reads."""
        return f"{self.label}: {self}"


class ToolPermissionDenied(ToolError):
    """The user (or the default-deny policy) did not allow the tool call."""

    label: ClassVar[str] = "PermissionDenied"

    def __init__(self, tool_name: str) -> None:
        """Create the error for ``tool_name``."""
        super().__init__(f"the user did not allow running {tool_name!r}.")
        self.tool_name = tool_name
