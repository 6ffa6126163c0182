"""Owner-only atomic file writes and the application's folders.

Settings hold API keys, so the file is created with mode 0600 from the first byte (the
temporary file is opened with ``os.open(..., 0o600)``; it never exists world-readable,
not even between creation and ``chmod``), then renamed over the old file.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path
from typing import Any

import platformdirs

from desktop_agent._logging import logger
from desktop_agent.session._atomic_write import fsync_folder

APP_NAME = "desktop-agent"
HOME_ENV = "DESKTOP_AGENT_HOME"


def config_dir() -> Path:
    """Where settings live: ``$DESKTOP_AGENT_HOME`` if set, else the platform config folder."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home)
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """The app's data folder, as ``desktop_agent.app.library.data_root`` says, for callers
    that run before the window's first paint (the library package loads after it)."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home)
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def read_json(path: Path, what: str) -> Any:
    """The JSON document in ``path``; ``None`` when there is no such file, or it cannot be
    read or parsed (a warning naming ``what``, e.g. ``"assistants"``, is logged: the caller
    goes on with its defaults)."""
    try:
        return json.loads(path.read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:  # a UnicodeDecodeError is a ValueError
        logger.warning("Ignoring the unreadable %s file %s: %s", what, path, exc)
        return None


def write_private_file(path: Path, data: bytes) -> None:
    """Atomically replace ``path`` with ``data``; the result is readable by its owner only.

    The data goes to a temporary file in the same folder (created 0600), is flushed and
    fsynced, and is then renamed over ``path``; the folder is fsynced too on POSIX.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(tmp, flags, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_folder(path.parent)
