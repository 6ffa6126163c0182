"""``MCPClientBase`` and the conversion of MCP content items into message blocks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mcp.types

from desktop_agent._logging import logger
from desktop_agent.message import AudioBlock, Base64Source, ImageBlock, TextBlock, VideoBlock

ContentList = list[TextBlock | ImageBlock | AudioBlock | VideoBlock]


class MCPClientBase:
    """A client of one MCP server.

    Args:
        name: The server's name, unique among the servers in use; registered tools carry it
            as their ``mcp_name``.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    async def get_callable_function(
        self,
        func_name: str,
        wrap_tool_result: bool = True,
        execution_timeout: float | None = None,
    ) -> Callable[..., Any]:
        """The server tool ``func_name`` as an async callable (implemented by subclasses)."""
        raise NotImplementedError

    @staticmethod
    def _convert_mcp_content_to_as_blocks(content: Sequence[Any]) -> ContentList:
        """MCP content items as blocks, in order; unsupported items are skipped (logged)."""
        blocks: ContentList = []
        for item in content:
            block = _convert_item(item)
            if block is not None:
                blocks.append(block)
        return blocks


def _base64_source(item: mcp.types.ImageContent | mcp.types.AudioContent) -> Base64Source:
    return Base64Source(type="base64", media_type=item.mimeType, data=item.data)


def _convert_item(item: Any) -> TextBlock | ImageBlock | AudioBlock | None:
    if isinstance(item, mcp.types.TextContent):
        return TextBlock(type="text", text=item.text)
    if isinstance(item, mcp.types.ImageContent):
        return ImageBlock(type="image", source=_base64_source(item))
    if isinstance(item, mcp.types.AudioContent):
        return AudioBlock(type="audio", source=_base64_source(item))
    if isinstance(item, mcp.types.EmbeddedResource):
        if isinstance(item.resource, mcp.types.TextResourceContents):
            return TextBlock(type="text", text=item.resource.model_dump_json(indent=2))
        logger.error(
            "Unsupported EmbeddedResource content type: %s. Skipping this content.",
            type(item.resource),
        )
        return None
    logger.warning("Unsupported content type: %s. Skipping this content.", type(item))
    return None
