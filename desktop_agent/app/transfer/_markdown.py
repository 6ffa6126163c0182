"""A conversation as readable Markdown: a heading per speaker, code kept as it was.

Text blocks are Markdown already and are copied verbatim. Thinking goes into a
collapsible ``<details>`` (or is left out), tool calls and results become short fenced
blocks, and media either become files beside the ``.md`` (``images="files"``: the caller
writes :attr:`MarkdownResult.files`) or inline ``data:`` URIs (``images="inline"``).
Every fence is longer than any run of backticks inside it, so nothing can close it early.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import mimetypes
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from desktop_agent.app.transfer._document import local_path

ImageMode = Literal["files", "inline", "omit"]
ThinkingMode = Literal["details", "omit"]
TOOL_OUTPUT_MAX_CHARS = 4000
_BACKTICKS = re.compile(r"`+")


@dataclass(frozen=True)
class MarkdownOptions:
    """How to write media and thinking.

    Attributes:
        images: ``"files"``: media are files in ``files_dir`` beside the ``.md``;
            ``"inline"``: ``data:`` URIs inside the text; ``"omit"``: a placeholder
            (for the clipboard).
        thinking: ``"details"``: a collapsible block; ``"omit"``: left out.
        files_dir: The folder name (relative to the ``.md``) media files go to.
    """

    images: ImageMode = "inline"
    thinking: ThinkingMode = "details"
    files_dir: str = "media"


@dataclass
class MarkdownResult:
    """The Markdown text and the media files to write beside it (``relative path → bytes``)."""

    text: str
    files: dict[str, bytes] = field(default_factory=dict)


def speaker(message: dict[str, Any]) -> str:
    """The heading of a message: ``User``, the assistant's name, or ``Tool``."""
    role, name = message.get("role"), str(message.get("name") or "")
    content = message.get("content")
    if isinstance(content, list) and content and all(_kind(b) == "tool_result" for b in content):
        return "Tool"
    if role == "user":
        return "User"
    if role == "assistant":
        return name or "Assistant"
    return name.capitalize() if name else "System"


def conversation_markdown(
    conversation: dict[str, Any], options: MarkdownOptions | None = None
) -> MarkdownResult:
    """The Markdown of one exported conversation (see ``_document``)."""
    writer = MarkdownWriter(options or MarkdownOptions())
    title = conversation.get("title") or "Untitled chat"
    writer.lines.append(f"# {_one_line(title)}")
    facts = [f"{len(conversation['messages'])} messages"]
    if conversation.get("model"):
        facts.append(f"model {conversation['model']}")
    if conversation.get("created"):
        facts.append(f"started {str(conversation['created'])[:16].replace('T', ' ')}")
    writer.lines += ["", f"*{' · '.join(facts)}*"]
    for message in conversation["messages"]:
        writer.message(message)
    return MarkdownResult("\n".join(writer.lines).rstrip() + "\n", writer.files)


class MarkdownWriter:
    """Appends a conversation's Markdown to ``lines``, collecting media files."""

    def __init__(self, options: MarkdownOptions) -> None:
        self.options = options
        self.lines: list[str] = []
        self.files: dict[str, bytes] = {}

    def message(self, message: dict[str, Any]) -> None:
        while self.lines and not self.lines[-1]:
            self.lines.pop()
        self.lines += ["", f"## {speaker(message)}", ""]
        content = message.get("content")
        if isinstance(content, str):
            self.lines.append(content.strip())
            return
        for block in content if isinstance(content, list) else []:
            self.block(block)

    def block(self, block: Any) -> None:
        kind = _kind(block)
        if kind == "text":
            self._para(str(block.get("text", "")).strip())
        elif kind == "thinking" and self.options.thinking == "details":
            self._thinking(str(block.get("thinking", "")).strip())
        elif kind == "tool_use":
            arguments = json.dumps(block.get("input", {}), ensure_ascii=False, indent=2)
            self._para(f"**Tool call** `{block.get('name', '')}`")
            self._fenced(arguments, "json")
        elif kind == "tool_result":
            self._tool_result(block)
        elif kind in ("image", "audio", "video"):
            self._para(self.media(block))

    def _para(self, text: str) -> None:
        if text:
            self.lines += [text, ""]

    def _thinking(self, text: str) -> None:
        if text:
            self.lines += [
                "<details>",
                "<summary>Thinking</summary>",
                "",
                text,
                "",
                "</details>",
                "",
            ]

    def _tool_result(self, block: dict[str, Any]) -> None:
        self._para(f"**Tool result** `{block.get('name', '')}`")
        output = block.get("output")
        blocks = [{"type": "text", "text": output}] if isinstance(output, str) else output or []
        texts = [str(b.get("text", "")) for b in blocks if _kind(b) == "text"]
        text = "\n".join(texts)
        if len(text) > TOOL_OUTPUT_MAX_CHARS:
            text = (
                text[:TOOL_OUTPUT_MAX_CHARS]
                + f"\n… ({len(text) - TOOL_OUTPUT_MAX_CHARS} more characters)"
            )
        if text:
            self._fenced(text, "text")
        for item in blocks:
            if _kind(item) in ("image", "audio", "video"):
                self._para(self.media(item))

    def _fenced(self, text: str, language: str) -> None:
        longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
        fence = "`" * max(3, longest + 1)
        self.lines += [f"{fence}{language}", text, fence, ""]

    def media(self, block: dict[str, Any]) -> str:
        """A Markdown image (or link, for audio and video) for a media block."""
        kind = _kind(block)
        source = block.get("source") if isinstance(block.get("source"), dict) else {}
        assert isinstance(source, dict)
        target = self._target(source)
        if not target:
            return f"*[{kind}]*"
        return f"![{kind}]({target})" if kind == "image" else f"[{kind}]({target})"

    def _target(self, source: dict[str, Any]) -> str:
        raw, media_type = _media_bytes(source)
        if raw is None:
            url = source.get("url")
            return str(url) if isinstance(url, str) else ""
        if self.options.images == "omit":
            return ""
        if self.options.images == "inline":
            return f"data:{media_type};base64,{base64.b64encode(raw).decode('ascii')}"
        extension = mimetypes.guess_extension(media_type) or ".bin"
        name = f"{self.options.files_dir}/{hashlib.sha256(raw).hexdigest()[:16]}{extension}"
        self.files[name] = raw
        return name


def _media_bytes(source: dict[str, Any]) -> tuple[bytes | None, str]:
    """The bytes of a base64 or local-file source and its media type."""
    media_type = str(source.get("media_type") or "")
    if source.get("type") == "base64" and isinstance(source.get("data"), str):
        try:
            return base64.b64decode(source["data"], validate=True), media_type
        except (binascii.Error, ValueError):
            return None, media_type
    path = local_path(source)
    if path is None:
        return None, media_type
    try:
        return path.read_bytes(), media_type or mimetypes.guess_type(path.name)[0] or ""
    except OSError:
        return None, media_type


def _kind(block: Any) -> str:
    return str(block.get("type", "")) if isinstance(block, dict) else ""


def _one_line(text: str) -> str:
    return " ".join(str(text).split())
