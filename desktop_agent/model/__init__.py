"""Chat models (mirror of ``agentscope.model``), plus the errors of a model run.

Importing this package does not import ``openai`` (~0.75 s): ``OpenAIChatModel`` and
``list_models`` import it when first used.

One deliberate difference from AgentScope that tests can see: ``OpenAIChatModel`` passes
``messages`` and ``tools`` to ``client.chat.completions.create`` inside ``extra_body`` (the
keyword arguments of those names are empty lists). The JSON on the wire is identical; the SDK's
request transform would otherwise walk every message on the event loop (~0.35 ms each,
seconds for a 10,000-message session). Code that mocks ``chat.completions.create`` finds
them in ``kwargs["extra_body"]``.
"""

from desktop_agent.model._exceptions import (
    ModelAPIError,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelError,
    ModelNotFoundError,
    ModelRateLimitError,
    ModelResponseError,
)
from desktop_agent.model._list_models import list_models
from desktop_agent.model._model_base import ChatModelBase
from desktop_agent.model._model_response import ChatResponse, ChatUsage
from desktop_agent.model._openai_model import OpenAIChatModel

__all__ = [
    "ChatModelBase",
    "ChatResponse",
    "ChatUsage",
    "ModelAPIError",
    "ModelAuthenticationError",
    "ModelConnectionError",
    "ModelError",
    "ModelNotFoundError",
    "ModelRateLimitError",
    "ModelResponseError",
    "OpenAIChatModel",
    "list_models",
]
