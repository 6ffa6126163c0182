"""The package logger, named ``desktop_agent`` (AgentScope names its own ``as``).

Unlike AgentScope it installs no handler of its own and keeps propagation on, so the
application (and pytest's caplog) decide where records go; INFO records are emitted.
"""

import logging

logger = logging.getLogger("desktop_agent")
logger.setLevel(logging.INFO)
