"""Test doubles for code built on desktop_agent — also used by our own test suite.

- :class:`OpenAICompatServer`: a real OpenAI-compatible HTTP server on 127.0.0.1,
  scripted with :class:`ScriptedReply` (streaming, reasoning, tool calls, audio, usage,
  HTTP errors, slow and dropped streams), recording every request. Test through the
  real ``openai`` SDK, never a mock. ``python -m desktop_agent.testing.server`` runs it
  as a separate process.
- :func:`text_pdf`: a small valid PDF with the given text, one page per string.
- :class:`ScriptedChatModel`: a ``ChatModelBase`` answering from a script with no network
  at all, recording its calls — for fast agent tests.

See ``desktop_agent/testing/README.md`` for examples. Importing this package imports
neither ``openai`` nor Qt.
"""

from desktop_agent.testing._openai_server import OpenAICompatServer, RecordedRequest
from desktop_agent.testing._pdf import text_pdf
from desktop_agent.testing._scripted_model import ModelCall, ScriptedChatModel
from desktop_agent.testing._scripted_reply import ScriptedAudio, ScriptedReply, ScriptedToolCall

__all__ = [
    "ModelCall",
    "OpenAICompatServer",
    "RecordedRequest",
    "ScriptedAudio",
    "ScriptedChatModel",
    "ScriptedReply",
    "ScriptedToolCall",
    "text_pdf",
]
