"""Helpers shared by the tool tests: building tool calls and reading their chunks."""

from __future__ import annotations

from typing import Any

from desktop_agent.message import ToolUseBlock
from desktop_agent.tool import Toolkit, ToolResponse


def tool_call(name: str, call_id: str = "call-1", **arguments: Any) -> ToolUseBlock:
    """A ``tool_use`` block as a model would send it."""
    return ToolUseBlock(type="tool_use", id=call_id, name=name, input=arguments)


async def run_tool(toolkit: Toolkit, name: str, **arguments: Any) -> list[ToolResponse]:
    """Every chunk of one tool call."""
    return [chunk async for chunk in await toolkit.call_tool_function(tool_call(name, **arguments))]


def texts(chunk: ToolResponse) -> list[str]:
    """The texts of the chunk's text blocks."""
    return [block["text"] for block in chunk.content if block["type"] == "text"]


def text(chunk: ToolResponse) -> str:
    """All the chunk's text, joined."""
    return "".join(texts(chunk))
