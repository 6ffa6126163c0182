"""Formatters: ``Msg`` lists to model-API messages (mirror of ``agentscope.formatter``).

Also the offline token estimate used to truncate long histories,
``EstimatingTokenCounter``. ``CharTokenCounter`` and ``TokenCounterBase`` are
re-exported from :mod:`desktop_agent.token` (AgentScope's ``agentscope.token``).
"""

from desktop_agent.formatter._formatter_base import FormatterBase
from desktop_agent.formatter._media import MediaPolicy
from desktop_agent.formatter._openai_formatter import (
    OpenAIChatFormatter,
    OpenAIMultiAgentFormatter,
)
from desktop_agent.formatter._token_counter import (
    CharTokenCounter,
    EstimatingTokenCounter,
    TokenCounterBase,
)
from desktop_agent.formatter._truncated_formatter_base import TruncatedFormatterBase

__all__ = [
    "CharTokenCounter",
    "EstimatingTokenCounter",
    "FormatterBase",
    "MediaPolicy",
    "OpenAIChatFormatter",
    "OpenAIMultiAgentFormatter",
    "TokenCounterBase",
    "TruncatedFormatterBase",
]
