"""Short-term memory of an agent (mirror of ``agentscope.memory``, 1.0.12+ API)."""

from desktop_agent.memory._in_memory_memory import InMemoryMemory
from desktop_agent.memory._memory_base import MemoryBase

__all__ = ["InMemoryMemory", "MemoryBase"]
