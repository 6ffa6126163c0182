"""Chat models (mirror of ``agentscope.model``)."""

from desktop_agent.model._model_base import ChatModelBase
from desktop_agent.model._model_response import ChatResponse, ChatUsage

__all__ = ["ChatModelBase", "ChatResponse", "ChatUsage"]
