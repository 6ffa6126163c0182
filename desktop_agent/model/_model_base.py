"""``ChatModelBase``: what the agent needs of a chat model."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

from desktop_agent.model._model_response import ChatResponse

TOOL_CHOICE_MODES = ["auto", "none", "required"]


class ChatModelBase:
    """Base of chat models: ``await model(messages, tools=..., tool_choice=...)``.

    A streaming model (``stream=True``) returns an async generator of cumulative
    ``ChatResponse``s; otherwise one ``ChatResponse``.
    """

    model_name: str
    stream: bool

    def __init__(self, model_name: str, stream: bool) -> None:
        self.model_name = model_name
        self.stream = stream

    async def __call__(
        self, *args: Any, **kwargs: Any
    ) -> ChatResponse | AsyncGenerator[ChatResponse, None]:
        raise NotImplementedError(f"{type(self).__name__} does not implement __call__.")

    def _validate_tool_choice(self, tool_choice: str, tools: list[dict[str, Any]] | None) -> None:
        """Check ``tool_choice`` is a mode or the name of one of ``tools``.

        Raises:
            TypeError: ``tool_choice`` is not a str.
            ValueError: ``tool_choice`` is neither a mode nor a tool name.
        """
        if not isinstance(tool_choice, str):
            raise TypeError(f"tool_choice must be str, got {type(tool_choice)}")
        if tool_choice in TOOL_CHOICE_MODES:
            return
        names = [tool["function"]["name"] for tool in tools or []]
        if tool_choice not in names:
            options = ", ".join(sorted(TOOL_CHOICE_MODES + names))
            raise ValueError(f"Invalid tool_choice '{tool_choice}'. Available options: {options}")
