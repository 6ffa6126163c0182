"""Nested, serializable component state (mirror of ``agentscope.module``)."""

from desktop_agent.module._state_module import StateModule

__all__ = ["StateModule"]
