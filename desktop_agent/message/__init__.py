"""Messages and their content blocks (mirror of ``agentscope.message``)."""

from desktop_agent.message._message_base import Msg
from desktop_agent.message._message_block import (
    AudioBlock,
    Base64Source,
    ContentBlock,
    ImageBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    URLSource,
    VideoBlock,
)

__all__ = [
    "AudioBlock",
    "Base64Source",
    "ContentBlock",
    "ImageBlock",
    "Msg",
    "TextBlock",
    "ThinkingBlock",
    "ToolResultBlock",
    "ToolUseBlock",
    "URLSource",
    "VideoBlock",
]
