"""Tools and the toolkit (mirror of ``agentscope.tool``)."""

from desktop_agent.tool._response import ToolResponse

__all__ = ["ToolResponse"]
