"""Token counting (mirror of ``agentscope.token``): the base class and the character counter.

AgentScope's provider counters (OpenAI/tiktoken, Anthropic, Gemini, Hugging Face) need
downloads or network calls and are not mirrored. The offline estimate the app uses is
``desktop_agent.formatter.EstimatingTokenCounter``.
"""

from desktop_agent.token._char_token_counter import CharTokenCounter
from desktop_agent.token._token_base import TokenCounterBase

__all__ = ["CharTokenCounter", "TokenCounterBase"]
