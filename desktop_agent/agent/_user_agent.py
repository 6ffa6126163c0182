"""``UserAgent``: the human in a pipeline; its reply is what the user enters."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel

from desktop_agent.agent._agent_base import AgentBase
from desktop_agent.agent._user_input import TerminalUserInput, UserInputBase
from desktop_agent.message import Msg


class UserAgent(AgentBase):
    """An agent whose replies come from a user input method (the terminal by default).

    Args:
        name: The user's name.
    """

    _input_method: ClassVar[UserInputBase] = TerminalUserInput()

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    async def reply(
        self,
        msg: Msg | list[Msg] | None = None,
        structured_model: type[BaseModel] | None = None,
    ) -> Msg:
        """Ask the user for input and return it as a user message.

        Args:
            msg: The message being answered (not used).
            structured_model: Also ask for these fields; they become the ``metadata``.
        """
        data = await self._input_method(
            agent_id=self.id, agent_name=self.name, structured_model=structured_model
        )
        content: Any = data.blocks_input
        if content and len(content) == 1 and content[0].get("type") == "text":
            content = content[0].get("text", "")
        reply_msg = Msg(self.name, content=content, role="user", metadata=data.structured_input)
        await self.print(reply_msg)
        return reply_msg

    def override_instance_input_method(self, input_method: UserInputBase) -> None:
        """Use ``input_method`` for this agent only.

        Raises:
            ValueError: ``input_method`` is not a ``UserInputBase``.
        """
        if not isinstance(input_method, UserInputBase):
            raise ValueError(
                f"The input method should be an instance of UserInputBase, got "
                f"{type(input_method).__name__}."
            )
        self._input_method = input_method  # type: ignore[misc]

    @classmethod
    def override_class_input_method(cls, input_method: UserInputBase) -> None:
        """Use ``input_method`` for every instance without its own.

        Raises:
            ValueError: ``input_method`` is not a ``UserInputBase``.
        """
        if not isinstance(input_method, UserInputBase):
            raise ValueError(
                f"The input method should be an instance of UserInputBase, got "
                f"{type(input_method).__name__}."
            )
        cls._input_method = input_method

    async def observe(self, msg: Msg | list[Msg] | None) -> None:
        """Do nothing: the user reads messages on screen."""

    async def handle_interrupt(self, *args: Any, **kwargs: Any) -> Msg:
        """Not supported for user agents."""
        raise NotImplementedError(
            f"The handle_interrupt function is not implemented in {type(self).__name__} class."
        )
