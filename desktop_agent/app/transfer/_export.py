"""Exporting saved sessions: read off the loop, render, and encode in slices.

A session is read with ``SessionLibrary.read_parts`` (a consistent saved version, also
while the window writes it); turning it into a document and rendering it run in a worker
thread. The JSON is encoded a few hundred messages at a time with the GIL given up in
between, so a 10,000-message export never holds the event loop for long.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from desktop_agent.app.library import SessionLibrary, SessionSummary
from desktop_agent.app.library._codec import SLICE_ITEMS, dumps, yield_gil
from desktop_agent.app.transfer._document import conversation_from_parts, new_document
from desktop_agent.app.transfer._html import conversation_html
from desktop_agent.app.transfer._markdown import MarkdownOptions, conversation_markdown
from desktop_agent.session._atomic_write import atomic_write_bytes
from desktop_agent.session._json_codec import gc_paused

ExportFormat = Literal["markdown", "html", "json", "pdf"]
FORMATS: tuple[ExportFormat, ...] = ("markdown", "html", "pdf", "json")
_UNSAFE = frozenset('<>:"/\\|?*')  # not allowed in file names on some systems
SUFFIXES: dict[str, str] = {"markdown": ".md", "html": ".html", "pdf": ".pdf", "json": ".json"}


@dataclass
class Rendered:
    """An export's bytes and the media files to write beside it (relative path → bytes)."""

    data: bytes
    files: dict[str, bytes] = field(default_factory=dict)


async def read_conversation(library: SessionLibrary, session_id: str) -> dict[str, Any]:
    """One session as an exported conversation (media inlined), read off the loop.

    Raises:
        SessionNotFoundError, SessionCorruptError, SessionFromNewerVersionError.
    """
    # The collector paused: scanning the tens of thousands of new objects of a long chat
    # would hold the GIL (and stall the loop) longer than building them.
    with gc_paused():
        parts = await library.read_parts(session_id)
        return await asyncio.to_thread(conversation_from_parts, session_id, parts)


def render(
    conversation: dict[str, Any],
    fmt: ExportFormat,
    *,
    images: Literal["files", "inline", "omit"] = "inline",
    thinking: bool = True,
    files_dir: str = "media",
) -> Rendered:
    """The bytes of ``conversation`` in ``fmt`` (``"pdf"`` is rendered by the ``ui`` layer).

    Run it in a worker thread for long conversations.
    """
    with gc_paused():
        return _render(conversation, fmt, images, thinking, files_dir)


def _render(
    conversation: dict[str, Any],
    fmt: ExportFormat,
    images: Literal["files", "inline", "omit"],
    thinking: bool,
    files_dir: str,
) -> Rendered:
    if fmt == "json":
        return Rendered(encode_document(new_document([conversation])))
    if fmt == "markdown":
        options = MarkdownOptions(images, "details" if thinking else "omit", files_dir)
        result = conversation_markdown(conversation, options)
        return Rendered(result.text.encode("utf-8"), result.files)
    if fmt == "html":
        return Rendered(conversation_html(conversation, thinking=thinking).text.encode("utf-8"))
    raise ValueError(f"{fmt!r} is rendered by desktop_agent.ui.export (it needs Qt).")


def write_rendered(rendered: Rendered, path: Path) -> None:
    """Write an export and its media files (beside it) atomically."""
    for name, data in rendered.files.items():
        target = path.parent / name
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(target, data, mode=0o644)
    atomic_write_bytes(path, rendered.data, mode=0o644)


def encode_document(document: dict[str, Any]) -> bytes:
    """The export document as JSON bytes, long message lists encoded in slices."""
    head = {k: v for k, v in document.items() if k != "conversations"}
    chunks = [dumps(head)[:-1], b',"conversations":[']
    for number, conversation in enumerate(document.get("conversations", [])):
        if number:
            chunks.append(b",")
        chunks.append(_encode_conversation(conversation))
    chunks.append(b"]}")
    return b"".join(chunks)


def _encode_conversation(conversation: dict[str, Any]) -> bytes:
    out: list[bytes] = []
    for number, (key, value) in enumerate(conversation.items()):
        out.append((b"," if number else b"{") + dumps(key) + b":")
        if key == "messages" and isinstance(value, list):
            out.append(_encode_list(value))
        else:
            out.append(dumps(value))
    out.append(b"}" if out else b"{}")
    return b"".join(out)


def _encode_list(items: list[Any]) -> bytes:
    out = [b"["]
    for start in range(0, len(items), SLICE_ITEMS):
        if start:
            out.append(b",\n")
            yield_gil()
        out.append(dumps(items[start : start + SLICE_ITEMS])[1:-1])
    out.append(b"]")
    return b"".join(out)


def find_session(rows: Sequence[SessionSummary], wanted: str) -> SessionSummary:
    """The session whose id is ``wanted``, else the one whose title is (any case).

    Raises:
        LookupError: None, or several titles match (the message lists them).
    """
    for row in rows:
        if row.session_id == wanted:
            return row
    key = " ".join(wanted.split()).casefold()
    matches = [row for row in rows if row.title.casefold() == key]
    if not matches:
        matches = [row for row in rows if key and key in row.title.casefold()]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise LookupError(f"No chat has the id or title {wanted!r}.")
    listed = ", ".join(f"{row.session_id} ({row.title})" for row in matches[:5])
    raise LookupError(f"Several chats match {wanted!r}: {listed}. Use an id.")


def default_file_name(title: str, fmt: ExportFormat) -> str:
    """A file name for an export: the title with unsafe characters replaced."""
    safe = "".join("_" if c in _UNSAFE or ord(c) < 32 else c for c in title).strip(" .")
    return f"{(safe or 'chat')[:80]}{SUFFIXES[fmt]}"
