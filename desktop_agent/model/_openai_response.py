"""Parsing a complete (non-streamed) OpenAI chat completion into a ``ChatResponse``."""

from __future__ import annotations

from typing import Any

from desktop_agent.model._model_response import ChatResponse
from desktop_agent.model._openai_stream import field, reasoning_of, usage_of
from desktop_agent.model._tool_arguments import parse_tool_arguments


def parse_completion(response: Any, *, started: float, audio_media_type: str) -> ChatResponse:
    """Blocks in AgentScope's non-stream order: Thinking, Text, Audio + transcript, ToolUse.

    Args:
        response: The SDK's ``ChatCompletion`` (or ``ParsedChatCompletion``).
        started: ``time.monotonic()`` when the request was sent.
        audio_media_type: Media type of returned audio, e.g. ``"audio/mp3"``.
    """
    blocks: list[Any] = []
    finish_reason: str | None = None
    choices = field(response, "choices") or []
    if choices:
        message = field(choices[0], "message")
        if message is not None:
            blocks = _message_blocks(message, audio_media_type)
        finish_reason = field(choices[0], "finish_reason") or None
    raw_usage = field(response, "usage")
    result = ChatResponse(
        content=blocks,
        usage=usage_of(raw_usage, started) if raw_usage else None,
        finish_reason=finish_reason,
    )
    response_id = field(response, "id")
    if response_id:
        result.id = response_id
    return result


def _message_blocks(message: Any, audio_media_type: str) -> list[Any]:
    blocks: list[Any] = []
    reasoning = reasoning_of(message)
    if isinstance(reasoning, str):
        blocks.append({"type": "thinking", "thinking": reasoning})
    content = field(message, "content")
    if content:
        blocks.append({"type": "text", "text": content})
    audio = field(message, "audio")
    if audio:
        source = {"type": "base64", "media_type": audio_media_type, "data": field(audio, "data")}
        blocks.append({"type": "audio", "source": source})
        blocks.append({"type": "text", "text": field(audio, "transcript") or ""})
    for call in field(message, "tool_calls") or []:
        function = field(call, "function")
        if function is None:
            continue
        blocks.append(
            {
                "type": "tool_use",
                "id": field(call, "id") or "",
                "name": field(function, "name") or "",
                "input": parse_tool_arguments(field(function, "arguments")),
            }
        )
    return blocks
