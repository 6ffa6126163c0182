"""Agents (mirror of ``agentscope.agent``): hooks, ReAct, user input, and their helpers.

Besides AgentScope's names this package exports the long-term memory, knowledge and plan
interfaces ``ReActAgent`` accepts, each with a small working in-memory implementation
(``Plan``, ``PlanNotebook`` and ``SubTask`` are re-exported from ``desktop_agent.plan``).
"""

from desktop_agent.agent._agent_base import AgentBase
from desktop_agent.agent._compression import CompressionConfig, SummarySchema
from desktop_agent.agent._knowledge import Document, InMemoryKnowledgeBase, KnowledgeBase
from desktop_agent.agent._long_term_memory import InMemoryLongTermMemory, LongTermMemoryBase
from desktop_agent.agent._react_agent import ReActAgent
from desktop_agent.agent._react_agent_base import ReActAgentBase
from desktop_agent.agent._user_agent import UserAgent
from desktop_agent.agent._user_input import TerminalUserInput, UserInputBase, UserInputData
from desktop_agent.plan import Plan, PlanNotebook, SubTask  # moved to desktop_agent.plan

__all__ = [
    "AgentBase",
    "CompressionConfig",
    "Document",
    "InMemoryKnowledgeBase",
    "InMemoryLongTermMemory",
    "KnowledgeBase",
    "LongTermMemoryBase",
    "Plan",
    "PlanNotebook",
    "ReActAgent",
    "ReActAgentBase",
    "SubTask",
    "SummarySchema",
    "TerminalUserInput",
    "UserAgent",
    "UserInputBase",
    "UserInputData",
]
