"""Formatters: ``Msg`` lists to model-API messages (mirror of ``agentscope.formatter``).

Also the offline token estimate used to truncate long histories (AgentScope keeps token
counters in ``agentscope.token``; here they sit next to the formatters that use them).
"""

from desktop_agent.formatter._formatter_base import FormatterBase
from desktop_agent.formatter._openai_formatter import (
    OpenAIChatFormatter,
    OpenAIMultiAgentFormatter,
)
from desktop_agent.formatter._token_counter import CharTokenCounter, TokenCounterBase
from desktop_agent.formatter._truncated_formatter_base import TruncatedFormatterBase

__all__ = [
    "CharTokenCounter",
    "FormatterBase",
    "OpenAIChatFormatter",
    "OpenAIMultiAgentFormatter",
    "TokenCounterBase",
    "TruncatedFormatterBase",
]
