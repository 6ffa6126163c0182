"""``FormatterBase``: turns ``Msg`` lists into the message dicts a model API expects.

Also home of the helpers every formatter shares: the input check and the conversion of
a tool result (text and media blocks) into the text a ``role: "tool"`` message carries.
Media given inline as base64 is written to a temporary file by :func:`_save_base64_data`
(looked up at call time, so tests can patch it here) and referred to by its path.
"""

from __future__ import annotations

import base64
import tempfile
from typing import Any

from desktop_agent.message import Msg

_MEDIA_TYPES = ("image", "audio", "video")


def _save_base64_data(media_type: str, base64_data: str) -> str:
    """Decode ``base64_data`` into a new temporary file; its path.

    Args:
        media_type: E.g. ``"image/png"``; its subtype becomes the file suffix.
        base64_data: Raw base64 (no ``data:`` prefix).
    """
    suffix = "." + media_type.split("/")[-1]
    with tempfile.NamedTemporaryFile(suffix=suffix, delete=False) as file:
        file.write(base64.b64decode(base64_data))
        return file.name


class FormatterBase:
    """Base of formatters: ``await formatter.format(msgs)`` gives API-ready dicts."""

    async def format(self, *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        """Format messages for the model API."""
        raise NotImplementedError(f"{type(self).__name__} does not implement format().")

    @staticmethod
    def assert_list_of_msgs(msgs: Any) -> None:
        """Check ``msgs`` is a list of ``Msg``.

        Raises:
            TypeError: Not a list, or an element is not a ``Msg``.
        """
        if not isinstance(msgs, list):
            raise TypeError("Input must be a list of Msg objects.")
        for msg in msgs:
            if not isinstance(msg, Msg):
                raise TypeError(f"Expected Msg object, got {type(msg)} instead.")

    @staticmethod
    def convert_tool_result_to_string(
        output: str | list[dict[str, Any]] | None,
    ) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
        """The text of a tool result, and its media as ``(path_or_url, block)`` pairs.

        Text blocks contribute their text; a media block contributes
        ``"The returned {type} can be found at: {url_or_path}"`` (inline base64 data is
        saved to a temporary file first). One piece is returned bare, several as a
        ``"- "`` bulleted list.

        Raises:
            ValueError: A block of another type, or a media source of unknown type.
        """
        if output is None:
            return "", []
        if isinstance(output, str):
            return output, []
        pieces: list[str] = []
        media: list[tuple[str, dict[str, Any]]] = []
        for block in output:
            block_type = block.get("type")
            if block_type == "text":
                pieces.append(block.get("text", ""))
            elif block_type in _MEDIA_TYPES:
                location = _media_location(block)
                pieces.append(f"The returned {block_type} can be found at: {location}")
                media.append((location, block))
            else:
                raise ValueError(f"Unsupported block type {block_type!r} in the tool result.")
        if len(pieces) == 1:
            return pieces[0], media
        return "\n".join("- " + piece for piece in pieces), media


def _media_location(block: dict[str, Any]) -> str:
    source = block.get("source")
    if not isinstance(source, dict):
        raise ValueError(f"The {block.get('type')} block has no source: {block!r}.")
    if source.get("type") == "url":
        return str(source["url"])
    if source.get("type") == "base64":
        return _save_base64_data(source["media_type"], source["data"])
    raise ValueError(f"Unsupported source type {source.get('type')!r} in a {block['type']} block.")
