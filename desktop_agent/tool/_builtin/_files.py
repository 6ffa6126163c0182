"""``read_text_file`` and ``write_text_file``: files the user names, read and written safely.

Reading is bounded (a model cannot ask for a 10 GB log), refuses binary files and anything
that is not a regular file (a FIFO would block forever), and never fails on bad encodings.
Writing is atomic — temporary file in the same folder, flush + fsync, ``os.replace`` — so
a crash never leaves half a file. Both run in a worker thread to keep the loop free.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import stat
import tempfile
from pathlib import Path

from desktop_agent.tool._exceptions import ToolError
from desktop_agent.tool._execution import text_response
from desktop_agent.tool._response import ToolResponse

DEFAULT_MAX_CHARS = 100_000
MAX_CHARS_LIMIT = 1_000_000
"""``max_chars`` is clamped to this, whatever the model asks for."""
_NEW_FILE_MODE = 0o644


def resolve_path(path: str, working_folder: str = "") -> Path:
    """``path`` as an absolute path: ``~`` expanded, a relative path taken from
    ``working_folder`` (the home folder when empty) — never the app's current folder."""
    given = Path(path).expanduser()
    if given.is_absolute():
        return given
    base = Path(working_folder).expanduser() if working_folder.strip() else Path.home()
    return (base / given).absolute()


def _resolve(path: str, working_folder: str = "") -> Path:
    if not path.strip():
        raise ToolError("the path is empty.")
    return resolve_path(path, working_folder)


def _os_error(action: str, path: Path, exc: OSError) -> ToolError:
    if isinstance(exc, FileNotFoundError):
        return ToolError(f"Cannot {action} {str(path)!r}: no such file or folder.")
    if isinstance(exc, PermissionError):
        return ToolError(f"Cannot {action} {str(path)!r}: permission denied.")
    if isinstance(exc, IsADirectoryError):
        return ToolError(f"Cannot {action} {str(path)!r}: it is a folder, not a file.")
    return ToolError(f"Cannot {action} {str(path)!r}: {exc.strerror or exc}.")


def _require_regular_file(action: str, path: Path, mode: int) -> None:
    if stat.S_ISDIR(mode):
        raise ToolError(f"Cannot {action} {str(path)!r}: it is a folder, not a file.")
    if not stat.S_ISREG(mode):
        raise ToolError(f"Cannot {action} {str(path)!r}: it is not a regular file.")


def _decode(data: bytes, complete: bool) -> tuple[str, bool]:
    """The text of ``data`` and whether it was valid UTF-8."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")(errors="strict")
    try:
        return decoder.decode(data, final=complete), True
    except UnicodeDecodeError:
        decoder = codecs.getincrementaldecoder("utf-8-sig")(errors="replace")
        return decoder.decode(data, final=complete), False


def _read(path: Path, max_chars: int) -> str:
    try:
        info = path.stat()
        _require_regular_file("read", path, info.st_mode)
        size = info.st_size
        with path.open("rb") as file:
            data = file.read(max_chars * 4 + 4)
    except OSError as exc:
        raise _os_error("read", path, exc) from exc
    if b"\x00" in data[:8192]:
        raise ToolError(f"Cannot read {str(path)!r}: it looks like a binary file.")
    text, valid = _decode(data, complete=len(data) >= size)
    notes = []
    if not valid:
        notes.append("The file is not valid UTF-8; undecodable bytes are shown as '\ufffd'.")
    if len(text) > max_chars or len(data) < size:
        text = text[:max_chars]
        notes.append(f"Only the first {len(text)} characters are shown; the file has {size} bytes.")
    return text + "".join(f"\n\n[{note}]" for note in notes)


async def read_text_file(
    path: str, max_chars: int = DEFAULT_MAX_CHARS, *, working_folder: str = ""
) -> ToolResponse:
    """Read a text file and return its content.

    Args:
        path (str): The file's path; "~" stands for the user's home folder.
        max_chars (int): The most characters to return; a longer file is cut off with a note.
        working_folder (str): Where a relative path starts (default: the home folder).
    """
    if max_chars < 1:
        raise ToolError("max_chars must be at least 1.")
    resolved = _resolve(path, working_folder)
    text = await asyncio.to_thread(_read, resolved, min(max_chars, MAX_CHARS_LIMIT))
    return text_response(text)


def _atomic_write(path: Path, content: str) -> bool:
    """Write ``content`` to ``path`` atomically; return whether the file existed."""
    existing = path.stat() if path.exists() else None
    if existing is not None:
        _require_regular_file("write", path, existing.st_mode)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(tmp, stat.S_IMODE(existing.st_mode) if existing else _NEW_FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return existing is not None


def _write(path: Path, content: str) -> str:
    try:
        existed = _atomic_write(path, content)
    except OSError as exc:
        raise _os_error("write", path, exc) from exc
    verb = "Overwrote" if existed else "Created"
    return f"{verb} {str(path)!r} with {len(content)} characters."


async def write_text_file(path: str, content: str, *, working_folder: str = "") -> ToolResponse:
    """Write text to a file, replacing the file if it exists (missing folders are created).

    Args:
        path (str): The file's path; "~" stands for the user's home folder.
        content (str): The complete new content of the file.
        working_folder (str): Where a relative path starts (default: the home folder).
    """
    resolved = _resolve(path, working_folder).resolve()
    message = await asyncio.to_thread(_write, resolved, content)
    return text_response(message)
