"""``ReActAgentBase``: an agent that alternates reasoning and acting, both hookable."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, ClassVar

from desktop_agent.agent._agent_base import AgentBase
from desktop_agent.agent._agent_meta import HookFunc, _ReActAgentMeta


class ReActAgentBase(AgentBase, metaclass=_ReActAgentMeta):
    """Adds the ``reasoning`` and ``acting`` hook types to :class:`AgentBase`."""

    supported_hook_types: ClassVar[list[str]] = [
        *AgentBase.supported_hook_types,
        "pre_reasoning",
        "post_reasoning",
        "pre_acting",
        "post_acting",
    ]

    _class_pre_reasoning_hooks: ClassVar[OrderedDict[str, HookFunc]]
    _class_post_reasoning_hooks: ClassVar[OrderedDict[str, HookFunc]]
    _class_pre_acting_hooks: ClassVar[OrderedDict[str, HookFunc]]
    _class_post_acting_hooks: ClassVar[OrderedDict[str, HookFunc]]

    def __init__(self) -> None:
        super().__init__()
        self._instance_pre_reasoning_hooks: OrderedDict[str, HookFunc] = OrderedDict()
        self._instance_post_reasoning_hooks: OrderedDict[str, HookFunc] = OrderedDict()
        self._instance_pre_acting_hooks: OrderedDict[str, HookFunc] = OrderedDict()
        self._instance_post_acting_hooks: OrderedDict[str, HookFunc] = OrderedDict()

    async def _reasoning(self, *args: Any, **kwargs: Any) -> Any:
        """Think: call the model and return its message."""
        raise NotImplementedError(
            f"The _reasoning function is not implemented in {type(self).__name__} class."
        )

    async def _acting(self, *args: Any, **kwargs: Any) -> Any:
        """Act: run one tool call."""
        raise NotImplementedError(
            f"The _acting function is not implemented in {type(self).__name__} class."
        )
