"""OpenAI chat formatters: one message per ``Msg``, or a multi-agent history.

``OpenAIChatFormatter`` maps each ``Msg`` to one OpenAI message (name kept), tool calls
to ``tool_calls``, and each tool result to a ``role: "tool"`` message emitted at once —
before the message that holds it, as AgentScope does. ``OpenAIMultiAgentFormatter``
folds runs of ordinary messages into one user message wrapped in ``<history>`` tags
(``name: text`` lines), for models that only know "user" and "assistant".
"""

from __future__ import annotations

import json
from typing import Any

from desktop_agent._logging import logger
from desktop_agent.formatter._media import MediaPolicy, image_url, input_audio
from desktop_agent.formatter._token_counter import TokenCounterBase
from desktop_agent.formatter._truncated_formatter_base import TruncatedFormatterBase
from desktop_agent.message import Msg

DEFAULT_CONVERSATION_HISTORY_PROMPT = (
    "# Conversation History\n"
    "The content between <history></history> tags contains your conversation history\n"
)


class OpenAIChatFormatter(TruncatedFormatterBase):
    """Formats a chat between a user and one agent for the OpenAI chat API.

    Args:
        promote_tool_result_images: Also show images returned by tools to the model, in a
            user message inserted right after the tool result (tool messages cannot
            carry images).
        token_counter: See :class:`TruncatedFormatterBase`.
        max_tokens: See :class:`TruncatedFormatterBase`.
    """

    def __init__(
        self,
        promote_tool_result_images: bool = False,
        token_counter: TokenCounterBase | None = None,
        max_tokens: int | None = None,
    ) -> None:
        super().__init__(token_counter=token_counter, max_tokens=max_tokens)
        self.promote_tool_result_images = promote_tool_result_images
        self.media_policy: MediaPolicy | None = None
        """Which local files and remote audio may be read (``None``: any, as AgentScope)."""

    async def _format(self, msgs: list[Msg]) -> list[dict[str, Any]]:
        """Each ``Msg`` in order, with no special handling of the system message."""
        self.assert_list_of_msgs(msgs)
        msgs = list(msgs)
        formatted: list[dict[str, Any]] = []
        index = 0
        while index < len(msgs):
            promoted = await self._format_msg(msgs[index], formatted)
            msgs[index + 1 : index + 1] = promoted
            index += 1
        return formatted

    async def _format_msg(self, msg: Msg, formatted: list[dict[str, Any]]) -> list[Msg]:
        """Append ``msg``'s entries to ``formatted``; the messages to format next."""
        content: list[dict[str, Any]] = []
        tool_calls: list[dict[str, Any]] = []
        promoted: list[Msg] = []
        for block in msg.get_content_blocks():
            block_type = block.get("type")
            if block_type == "text":
                content.append(_text_part(block, self.media_policy, msg.role))
            elif block_type == "tool_use":
                tool_calls.append(_tool_call(block))
            elif block_type == "tool_result":
                formatted.append(self._tool_message(block, promoted))
            elif block_type == "image":
                content.append(await _image_part(block, self.media_policy, msg.role))
            elif block_type == "audio":
                if msg.role != "assistant":
                    content.append(await _audio_part(block, self.media_policy, msg.role))
            elif block_type != "thinking":  # reasoning is never sent back: no warning
                logger.warning("Unsupported block type %s in the message, skipped.", block_type)
        message: dict[str, Any] = {"role": msg.role, "name": msg.name, "content": content or None}
        if tool_calls:
            message["tool_calls"] = tool_calls
        if content or tool_calls:
            formatted.append(message)
        elif msg.role == "assistant" and not msg.has_content_blocks("tool_result"):
            # A reply with nothing to send (only thinking, or stopped before its first
            # word) still takes its turn: two user messages in a row are rejected by chat
            # templates that require alternating roles.
            message["content"] = ""
            formatted.append(message)
        return promoted

    def _tool_message(self, block: dict[str, Any], promoted: list[Msg]) -> dict[str, Any]:
        text, media = self.convert_tool_result_to_string(block.get("output"))
        images = [(location, item) for location, item in media if item.get("type") == "image"]
        if self.promote_tool_result_images and images:
            promoted.append(_promoted_images_msg(block.get("name", ""), images))
        return {
            "role": "tool",
            "tool_call_id": block.get("id"),
            "content": text,
            "name": block.get("name"),
        }


class OpenAIMultiAgentFormatter(TruncatedFormatterBase):
    """Formats a conversation among several agents for the OpenAI chat API.

    Args:
        conversation_history_prompt: Put before the first ``<history>`` block.
        promote_tool_result_images: See :class:`OpenAIChatFormatter`.
        token_counter: See :class:`TruncatedFormatterBase`.
        max_tokens: See :class:`TruncatedFormatterBase`.
    """

    def __init__(
        self,
        conversation_history_prompt: str = DEFAULT_CONVERSATION_HISTORY_PROMPT,
        promote_tool_result_images: bool = False,
        token_counter: TokenCounterBase | None = None,
        max_tokens: int | None = None,
    ) -> None:
        super().__init__(token_counter=token_counter, max_tokens=max_tokens)
        self.conversation_history_prompt = conversation_history_prompt
        self.promote_tool_result_images = promote_tool_result_images

    async def _format_tool_sequence(self, msgs: list[Msg]) -> list[dict[str, Any]]:
        """Tool calls and results, formatted as by :class:`OpenAIChatFormatter`."""
        formatter = OpenAIChatFormatter(promote_tool_result_images=self.promote_tool_result_images)
        return await formatter._format(msgs)

    async def _format_agent_message(
        self, msgs: list[Msg], is_first: bool = True
    ) -> list[dict[str, Any]]:
        """One user message: ``<history>`` of ``name: text`` lines, then images and audio."""
        lines: list[str] = []
        media: list[dict[str, Any]] = []
        for msg in msgs:
            for block in msg.get_content_blocks():
                block_type = block.get("type")
                if block_type == "text":
                    lines.append(f"{msg.name}: {block.get('text', '')}")
                elif block_type == "image":
                    media.append(await _image_part(block))
                elif block_type == "audio":
                    if msg.role != "assistant":
                        media.append(await _audio_part(block))
                elif block_type != "thinking":
                    logger.warning("Unsupported block type %s in the message, skipped.", block_type)
        content: list[dict[str, Any]] = []
        if lines:
            prompt = self.conversation_history_prompt if is_first else ""
            history = prompt + "<history>\n" + "\n".join(lines) + "\n</history>"
            content.append({"type": "text", "text": history})
        content.extend(media)
        return [{"role": "user", "content": content}] if content else []


def _tool_call(block: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": block.get("id"),
        "type": "function",
        "function": {
            "name": block.get("name"),
            "arguments": json.dumps(block.get("input", {}), ensure_ascii=False),
        },
    }


def _text_part(block: Any, policy: MediaPolicy | None, role: str) -> dict[str, Any]:
    limit = policy.max_answer_chars if policy is not None else None
    text = block.get("text")
    if limit is None or role != "assistant" or not isinstance(text, str) or len(text) <= limit:
        return dict(block)
    omitted = len(text) - limit
    note = f"\n[… {omitted:,} more characters of this earlier answer are not repeated here …]"
    return {**block, "text": text[:limit] + note}


async def _image_part(
    block: dict[str, Any], policy: MediaPolicy | None = None, role: str = "user"
) -> dict[str, Any]:
    refusal = policy.refusal(block["source"], role, "image") if policy else None
    if refusal is not None:
        return {"type": "text", "text": refusal}
    return {"type": "image_url", "image_url": {"url": await image_url(block["source"])}}


async def _audio_part(
    block: dict[str, Any], policy: MediaPolicy | None = None, role: str = "user"
) -> dict[str, Any]:
    refusal = policy.refusal(block["source"], role, "audio") if policy else None
    if refusal is not None:
        return {"type": "text", "text": refusal}
    return {"type": "input_audio", "input_audio": await input_audio(block["source"])}


def _promoted_images_msg(tool_name: str, images: list[tuple[str, dict[str, Any]]]) -> Msg:
    content: list[Any] = [
        {
            "type": "text",
            "text": "<system-info>The following are the image contents from the tool "
            f"result of '{tool_name}':",
        }
    ]
    for location, _ in images:
        content.append({"type": "text", "text": f"\n- The image from '{location}': "})
        content.append({"type": "image", "source": {"type": "url", "url": location}})
    content.append({"type": "text", "text": "</system-info>"})
    return Msg("user", content, "user")
