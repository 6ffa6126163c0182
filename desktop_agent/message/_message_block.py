"""Content blocks: plain ``TypedDict``s, so a block is just a dict at run time.

As in AgentScope 1.0, constructing a block validates nothing; ``TextBlock(type="text",
text="x") == {"type": "text", "text": "x"}``. Keys marked ``Required`` must be present.
"""

from typing import Literal, Required

from typing_extensions import TypedDict


class TextBlock(TypedDict, total=False):
    """A piece of text."""

    type: Required[Literal["text"]]
    text: str


class ThinkingBlock(TypedDict, total=False):
    """The model's reasoning, shown collapsible and never sent back as text."""

    type: Required[Literal["thinking"]]
    thinking: str


class Base64Source(TypedDict, total=False):
    """Inline binary data: raw base64 without a ``data:`` prefix."""

    type: Required[Literal["base64"]]
    media_type: Required[str]
    data: Required[str]


class URLSource(TypedDict, total=False):
    """A web URL or a local path (``file://`` prefix tolerated)."""

    type: Required[Literal["url"]]
    url: Required[str]


class ImageBlock(TypedDict, total=False):
    """An image from a base64 or URL source."""

    type: Required[Literal["image"]]
    source: Required[Base64Source | URLSource]


class AudioBlock(TypedDict, total=False):
    """Audio from a base64 or URL source."""

    type: Required[Literal["audio"]]
    source: Required[Base64Source | URLSource]


class VideoBlock(TypedDict, total=False):
    """Video from a base64 or URL source."""

    type: Required[Literal["video"]]
    source: Required[Base64Source | URLSource]


class ToolUseBlock(TypedDict, total=False):
    """A tool call the model made; ``raw_input`` is the argument JSON as streamed."""

    type: Required[Literal["tool_use"]]
    id: Required[str]
    name: Required[str]
    input: Required[dict[str, object]]
    raw_input: str


class ToolResultBlock(TypedDict, total=False):
    """The result of the tool call with the same ``id``."""

    type: Required[Literal["tool_result"]]
    id: Required[str]
    name: Required[str]
    output: Required[str | list[TextBlock | ImageBlock | AudioBlock | VideoBlock]]


ContentBlock = (
    TextBlock
    | ThinkingBlock
    | ToolUseBlock
    | ToolResultBlock
    | ImageBlock
    | AudioBlock
    | VideoBlock
)

ContentBlockTypes = Literal[
    "text", "thinking", "tool_use", "tool_result", "image", "audio", "video"
]
