"""The live preview's build: what the next turn would send with the draft template.

The design decision: a preview never touches the session's ``InputModule``. It builds
with a *copy* that shares the registered variables and importance functions (so they
resolve exactly as in the session) but has its own config and its own short-term memory
deque, so neither the draft config nor a build's report leaks into the live session
before Apply. No Qt here; ``_preview_pane.PreviewController`` schedules it.
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from desktop_agent.context import ContextConfig, InputModule, ModuleReport
from desktop_agent.context._conversation import block_text
from desktop_agent.message import Msg

if TYPE_CHECKING:
    from desktop_agent.memory import MemoryBase


@dataclass(frozen=True)
class PreviewMessage:
    """One message of the preview: its role, speaker and text (tool calls as tags)."""

    role: str
    name: str
    text: str


@dataclass(frozen=True)
class Preview:
    """The result of a preview build.

    Attributes:
        messages: What ``build_messages`` returned, in order.
        prompt: What ``build_prompt`` returned.
        reports: One report per module: included or not, why, and its tokens.
    """

    messages: tuple[PreviewMessage, ...]
    prompt: str
    reports: tuple[ModuleReport, ...]

    @property
    def included_tokens(self) -> int:
        """The estimated tokens of the included modules."""
        return sum(report.tokens for report in self.reports if report.included)


def preview_module(source: InputModule, config: ContextConfig) -> InputModule:
    """A copy of ``source`` using ``config``, sharing its functions but not its state.

    Raises:
        ContextConfigError: ``config`` is not valid for ``source``'s functions.
    """
    twin = copy.copy(source)
    # A deque of its own (maxlen None forces load_config to rebuild both deques), so
    # trimming to the draft's bounds cannot drop utterances from the session.
    twin.short_term_memory = deque(source.short_term_memory)
    twin.last_build_report = []
    twin.load_config(config)
    return twin


async def build_preview(
    source: InputModule,
    config: ContextConfig,
    *,
    memory: MemoryBase | None = None,
    user_input: str | None = None,
    variables: Mapping[str, Any] | None = None,
) -> Preview:
    """Build the messages and the prompt ``config`` gives for the session.

    Args:
        source: The session's input module (left unchanged).
        config: The draft config (validated).
        memory: The session's conversation.
        user_input: A sample input; ``None`` uses the conversation's current message.
        variables: Build values the agent passes (``agent_name``, ``sys_prompt``).

    Raises:
        ContextConfigError: ``config`` is not valid for ``source``'s functions.
    """
    module = preview_module(source, config)
    values = dict(variables or {})
    messages = await module.build_messages(user_input, memory=memory, **values)
    reports = tuple(module.last_build_report)
    prompt = await module.build_prompt(user_input, memory=memory, **values)
    return Preview(tuple(_preview_message(msg) for msg in messages), prompt, reports)


def _preview_message(msg: Msg) -> PreviewMessage:
    if isinstance(msg.content, str):
        return PreviewMessage(msg.role, msg.name, msg.content)
    pieces = [piece for block in msg.content if (piece := block_text(block))]
    return PreviewMessage(msg.role, msg.name, "\n".join(pieces))
