"""desktop_agent: a desktop AI assistant with an AgentScope-1.0-compatible agent core.

Importing the package is cheap on purpose: subpackages (and the `openai` SDK behind
`desktop_agent.model`) load only when used, so the window can paint before they do.
Code written against AgentScope 1.0 ports by importing from `desktop_agent.<subpackage>`.
"""

from desktop_agent._logging import logger
from desktop_agent._version import __version__

__all__ = ["__version__", "logger"]
