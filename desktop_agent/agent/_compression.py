"""Memory compression for ``ReActAgent``: summarise old messages once the context grows.

Simple on purpose. Before each reasoning step, when enabled, the agent counts the tokens
of its not-yet-compressed memory without the ``keep_recent`` newest messages (never
splitting a tool call from its result). Above ``trigger_threshold`` it asks the model for
a ``summary_schema`` structured output over those messages, renders it with
``summary_template``, stores it with ``memory.update_compressed_summary`` and marks the
messages ``"compressed"``: they stay in memory (and in the session) but are no longer sent;
the summary is sent in their place.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from desktop_agent._logging import logger
from desktop_agent.message import Msg
from desktop_agent.token import TokenCounterBase

if TYPE_CHECKING:
    from desktop_agent.memory import MemoryBase

# The exact AgentScope 1.0.21 defaults (reference/agentscope-1.0-texts.md).
DEFAULT_COMPRESSION_PROMPT = (
    "<system-hint>You have been working on the task described above but have not yet "
    "completed it. Now write a continuation summary that will allow you to resume work "
    "efficiently in a future context window where the conversation history will be replaced "
    "with this summary. Your summary should be structured, concise, and actionable."
    "</system-hint>"
)

DEFAULT_SUMMARY_TEMPLATE = (
    "<system-info>Here is a summary of your previous work\n"
    "# Task Overview\n{task_overview}\n\n"
    "# Current State\n{current_state}\n\n"
    "# Important Discoveries\n{important_discoveries}\n\n"
    "# Next Steps\n{next_steps}\n\n"
    "# Context to Preserve\n{context_to_preserve}</system-info>"
)


class SummarySchema(BaseModel):
    """The structured summary the model writes when memory is compressed."""

    task_overview: str = Field(
        max_length=300,
        description=(
            "The user's core request and success criteria.\n"
            "Any clarifications or constraints they specified"
        ),
    )
    current_state: str = Field(
        max_length=300,
        description=(
            "What has been completed so far.\n"
            "File created, modified, or analyzed (with paths if relevant).\n"
            "Key outputs or artifacts produced."
        ),
    )
    important_discoveries: str = Field(
        max_length=300,
        description=(
            "Technical constraints or requirements uncovered.\n"
            "Decisions made and their rationale.\n"
            "Errors encountered and how they were resolved.\n"
            "What approaches were tried that didn't work (and why)"
        ),
    )
    next_steps: str = Field(
        max_length=200,
        description=(
            "Specific actions needed to complete the task.\n"
            "Any blockers or open questions to resolve.\n"
            "Priority order if multiple steps remain"
        ),
    )
    context_to_preserve: str = Field(
        max_length=300,
        description=(
            "User preferences or style requirements.\n"
            "Domain-specific details that aren't obvious.\n"
            "Any promises made to the user"
        ),
    )


class CompressionConfig(BaseModel):
    """When and how ``ReActAgent`` compresses its memory (``ReActAgent.CompressionConfig``)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    enable: bool
    agent_token_counter: TokenCounterBase = Field(
        description="Counts the formatted messages to compress (a TokenCounterBase)."
    )
    trigger_threshold: int
    keep_recent: int = 3
    compression_prompt: str = DEFAULT_COMPRESSION_PROMPT
    summary_template: str = DEFAULT_SUMMARY_TEMPLATE
    summary_schema: type[BaseModel] = SummarySchema
    compression_model: Any = None
    compression_formatter: Any = None


def _tool_ids(msg: Msg, block_type: str) -> set[str]:
    return {str(b.get("id")) for b in msg.get_content_blocks(block_type)}


def split_for_compression(msgs: list[Msg], keep_recent: int) -> int:
    """How many of the oldest ``msgs`` to compress, keeping ``keep_recent`` newest ones.

    The split moves earlier until no kept tool result answers a compressed tool call.
    """
    split = max(len(msgs) - max(keep_recent, 0), 0)
    while split > 0:
        kept_results: set[str] = set()
        for msg in msgs[split:]:
            kept_results |= _tool_ids(msg, "tool_result")
        if not any(_tool_ids(m, "tool_use") & kept_results for m in msgs[:split]):
            return split
        split -= 1
    return 0


async def _final_response(result: Any) -> Any:
    if isinstance(result, AsyncGenerator):
        last = None
        async for chunk in result:
            last = chunk
        return last
    return result


async def compress_memory(
    config: CompressionConfig,
    memory: MemoryBase,
    sys_prompt: str,
    model: Any,
    formatter: Any,
) -> bool:
    """Compress the old part of ``memory`` if it exceeds the threshold.

    Returns:
        Whether a summary was written.
    """
    msgs = await memory.get_memory(exclude_mark="compressed", prepend_summary=False)
    split = split_for_compression(msgs, config.keep_recent)
    if split == 0:
        return False
    old = msgs[:split]
    tokens = await config.agent_token_counter.count(await formatter.format(msgs=old))
    if tokens <= config.trigger_threshold:
        return False
    summary = await _summarise(config, memory, old, sys_prompt, model, formatter)
    if summary is None:
        return False
    await memory.update_compressed_summary(summary)
    await memory.update_messages_mark(new_mark="compressed", msg_ids=[m.id for m in old])
    return True


async def _summarise(
    config: CompressionConfig,
    memory_summary_holder: Any,
    old: list[Msg],
    sys_prompt: str,
    model: Any,
    formatter: Any,
) -> str | None:
    model = config.compression_model or model
    formatter = config.compression_formatter or formatter
    # A second compression folds the previous summary into the new one.
    previous_summary = str(getattr(memory_summary_holder, "_compressed_summary", "") or "")
    previous = [Msg("user", previous_summary, "user")] if previous_summary else []
    prompt = await formatter.format(
        msgs=[
            Msg("system", sys_prompt, "system"),
            *previous,
            *old,
            Msg("user", config.compression_prompt, "user"),
        ]
    )
    response = await _final_response(await model(prompt, structured_model=config.summary_schema))
    structured = getattr(response, "metadata", None) if response is not None else None
    if not structured:
        return None
    try:
        fields = config.summary_schema.model_validate(structured).model_dump()
    except ValidationError as exc:  # e.g. a field over its max_length: try again next step
        logger.warning("The memory summary does not fit %s: %s", config.summary_schema, exc)
        return None
    return config.summary_template.format(**fields)
