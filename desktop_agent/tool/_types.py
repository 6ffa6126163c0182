"""The records a ``Toolkit`` keeps: registered functions, tool groups and agent skills."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel
from typing_extensions import TypedDict

from desktop_agent.message import ToolUseBlock
from desktop_agent.tool._response import ToolResponse
from desktop_agent.tool._schema import merge_extended_schema

ToolFunction = Callable[
    ...,
    ToolResponse
    | Generator[ToolResponse, None, None]
    | AsyncGenerator[ToolResponse, None]
    | Awaitable[ToolResponse | AsyncGenerator[ToolResponse, None]],
]
"""What may be registered: sync or async, returning a response or (a)sync generator of them."""

PostprocessFunction = Callable[
    [ToolUseBlock, ToolResponse], ToolResponse | Awaitable[ToolResponse | None] | None
]
"""``postprocess_func(tool_call, response)``; a truthy return replaces the chunk."""


@dataclass
class ToolGroup:
    """A named set of tools the agent can switch on and off (the ``basic`` group is implicit)."""

    name: str
    active: bool
    description: str
    notes: str | None = None


@dataclass
class RegisteredToolFunction:
    """A tool as the toolkit knows it: what to call, with which schema and presets."""

    name: str
    group: str
    source: Literal["function", "mcp_server"]
    original_func: Callable[..., Any]
    json_schema: dict[str, Any]
    preset_kwargs: dict[str, Any] = field(default_factory=dict)
    original_name: str | None = None
    extended_model: type[BaseModel] | None = None
    mcp_name: str | None = None
    postprocess_func: PostprocessFunction | None = None
    async_execution: bool = False

    @property
    def extended_json_schema(self) -> dict[str, Any]:
        """The schema with the extended model's fields merged into its parameters.

        Raises:
            ValueError: The extended model clashes with the function's own parameters.
        """
        if self.extended_model is None:
            return self.json_schema
        return merge_extended_schema(self.json_schema, self.name, self.extended_model)


class AgentSkill(TypedDict):
    """A folder of instructions (``SKILL.md``) the agent may read when a task needs it."""

    name: str
    description: str
    dir: str
