"""Helpers for agent tests: a quiet ReActAgent, tool-call blocks, memory checks."""

from __future__ import annotations

from typing import Any

from desktop_agent.agent import ReActAgent
from desktop_agent.formatter import OpenAIChatFormatter
from desktop_agent.message import Msg, ToolUseBlock
from desktop_agent.model import ChatModelBase


def tool_use(call_id: str, tool_name: str, /, **arguments: Any) -> ToolUseBlock:
    """A tool-call block."""
    return ToolUseBlock(type="tool_use", id=call_id, name=tool_name, input=arguments)


def make_agent(model: ChatModelBase, **kwargs: Any) -> ReActAgent:
    """A ``ReActAgent`` named Friday with console output off."""
    agent = ReActAgent(
        name="Friday",
        sys_prompt="You are a helpful assistant.",
        model=model,
        formatter=OpenAIChatFormatter(),
        **kwargs,
    )
    agent.set_console_output_enabled(False)
    return agent


def user(text: str) -> Msg:
    """A user message from Ada."""
    return Msg("Ada", text, "user")


async def tool_pairs_are_complete(agent: ReActAgent) -> bool:
    """Whether every tool call in the agent's memory has a result."""
    calls, results = set(), set()
    for msg in await agent.memory.get_memory():
        calls |= {b["id"] for b in msg.get_content_blocks("tool_use")}
        results |= {b["id"] for b in msg.get_content_blocks("tool_result")}
    return calls <= results
