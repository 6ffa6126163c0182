"""Chat models (mirror of ``agentscope.model``), plus the errors of a model run.

Importing this package does not import ``openai`` (~0.75 s): ``OpenAIChatModel`` and
``list_models`` import it when first used.
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
