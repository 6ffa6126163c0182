"""Errors of the context template engine.

Hierarchy::

    ValueError
    └── ContextConfigError   a template (file, JSON text, dict or saved state) is invalid

Faults a *developer* makes while wiring the engine (registering a non-callable, a
function taking two arguments) raise ``TypeError``/``ValueError`` at once instead. A
variable or importance function that raises while a prompt is built is a fault of a
*run*: it never escapes the build, it is recorded in the build report.
"""

from __future__ import annotations

from collections.abc import Sequence

from desktop_agent._i18n import translate


class ContextConfigError(ValueError):
    """An invalid context configuration.

    The message has one line per fault, each starting with the fault's JSON path, e.g.
    ``context_template[2].segments[0].type: Input should be 'text' or 'variable'``.

    Attributes:
        faults: ``(json_path, message)`` pairs, in document order, so an editor can show
            each message at its field.
    """

    def __init__(self, faults: Sequence[tuple[str, str]], source: str | None = None) -> None:
        """Create the error.

        Args:
            faults: ``(json_path, message)`` pairs; at least one.
            source: Where the config came from (a file path), named in the message.
        """
        self.faults: tuple[tuple[str, str], ...] = tuple(faults)
        self.source = source
        super().__init__(_describe(self.faults, source))


def _describe(faults: Sequence[tuple[str, str]], source: str | None) -> str:
    if len(faults) == 1 and faults[0][0] == "(file)":
        return translate(
            "ContextConfigError", "Cannot read the context config {source}: {error}"
        ).format(source=source, error=faults[0][1])
    count = len(faults)
    if source:
        head = translate(
            "ContextConfigError", "Invalid context config in {source} (%n fault(s)):", None, count
        ).format(source=source)
    else:
        head = translate("ContextConfigError", "Invalid context config (%n fault(s)):", None, count)
    return "\n".join([head, *(f"  {path}: {message}" for path, message in faults)])
