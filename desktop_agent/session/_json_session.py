"""``JSONSession``: one JSON file per session, ``{name: state_dict, ...}`` inside.

Same files, names, log lines and errors as AgentScope 1.0, with three changes (SPEC §3):
files are replaced atomically (a crash leaves the old file or the new one, never a
truncated one); ids that would leave ``save_dir`` are refused; a file that cannot be
loaded raises ``SessionFileError`` and is never modified. ``state_dict()`` and
``load_state_dict()`` run on the caller's thread (modules are not thread-safe), while
reading, writing, encoding and decoding run in a worker thread so a GUI loop keeps
painting. The last save called wins: a save overtaken by a later one of the same file
(same ``JSONSession``) does not overwrite it.
"""

from __future__ import annotations

import asyncio
import itertools
import ntpath
import os
import threading
from typing import Any

from desktop_agent._logging import logger
from desktop_agent.module import StateModule
from desktop_agent.session._atomic_write import atomic_write_bytes
from desktop_agent.session._exceptions import SessionFileError
from desktop_agent.session._json_codec import decode_json, encode_json, gc_paused
from desktop_agent.session._session_base import SessionBase

_MISSING = object()


class JSONSession(SessionBase):
    """Saves each session as ``{save_dir}/{user_id}_{session_id}.json``.

    Without a ``user_id`` the file is ``{save_dir}/{session_id}.json``.
    """

    def __init__(self, save_dir: str = "./") -> None:
        """Create the session store.

        Args:
            save_dir: The folder of the session files; created when first needed.
        """
        self.save_dir = save_dir
        self._write_lock = threading.Lock()
        self._tickets = itertools.count()
        self._written: dict[str, int] = {}  # path -> ticket of the save on disk

    def _get_save_path(self, session_id: str, user_id: str = "") -> str:
        """The session's file path; creates ``save_dir`` if needed.

        Raises:
            ValueError: An id would name a file outside ``save_dir``.
        """
        filename = _file_name(session_id, user_id)
        os.makedirs(self.save_dir, exist_ok=True)
        return os.path.join(self.save_dir, filename)

    async def save_session_state(
        self,
        session_id: str,
        user_id: str = "",
        **state_modules_mapping: StateModule,
    ) -> None:
        """Save ``{name: module.state_dict()}`` for every module given, atomically.

        The states are read before the first ``await``. Cancelling the caller does not stop a
        write already under way; it still completes atomically.

        Args:
            session_id: The session.
            user_id: The user the session belongs to; ``""`` for none.
            **state_modules_mapping: The modules, by the name they are saved under.

        Raises:
            ValueError: An id would name a file outside ``save_dir``.
            TypeError: A state holds something JSON cannot represent (nothing written).
            OSError: The file could not be written (the previous file is intact).
        """
        _file_name(session_id, user_id)  # refuse a bad id before doing any work
        with gc_paused():
            states = {name: module.state_dict() for name, module in state_modules_mapping.items()}
        ticket = next(self._tickets)
        path, written = await asyncio.to_thread(
            self._write_states, session_id, user_id, states, ticket
        )
        if written:
            logger.info("Saved session state to %s successfully.", path)
        else:
            logger.debug("Session file %s already holds a newer save; not overwritten.", path)

    async def load_session_state(
        self,
        session_id: str,
        user_id: str = "",
        allow_not_exist: bool = True,
        **state_modules_mapping: StateModule,
    ) -> None:
        """Load the saved state into every module given whose name is in the file.

        The file is read and checked completely before the first module is touched.

        Args:
            session_id: The session.
            user_id: The user the session belongs to; ``""`` for none.
            allow_not_exist: Return quietly when the file does not exist.
            **state_modules_mapping: The modules, by the name they were saved under.

        Raises:
            ValueError: An id would name a file outside ``save_dir``, or the file does
                not exist and ``allow_not_exist`` is false.
            SessionFileError: The file cannot be read or decoded, is not
                ``{name: state_dict, ...}``, or a module rejects its state.
        """
        _file_name(session_id, user_id)
        path, states = await asyncio.to_thread(self._read_states, session_id, user_id)
        if states is _MISSING:
            if allow_not_exist:
                logger.info("Session file %s does not exist. Skip loading session state.", path)
                return
            raise ValueError(f"Failed to load session state for file {path} does not exist.")
        _check_shape(path, states, state_modules_mapping)
        with gc_paused():
            for name, module in state_modules_mapping.items():
                if name in states:
                    _load_module(path, name, module, states[name])
        logger.info("Load session state from %s successfully.", path)

    def _write_states(
        self, session_id: str, user_id: str, states: dict[str, Any], ticket: int
    ) -> tuple[str, bool]:
        path = self._get_save_path(session_id, user_id)
        data = encode_json(states)
        with self._write_lock:
            if self._written.get(path, -1) > ticket:
                return path, False
            atomic_write_bytes(path, data)
            self._written[path] = ticket
        return path, True

    def _read_states(self, session_id: str, user_id: str) -> tuple[str, Any]:
        path = self._get_save_path(session_id, user_id)
        try:
            with open(path, "rb") as file:
                data = file.read()
        except FileNotFoundError:
            return path, _MISSING
        except OSError as exc:
            raise SessionFileError(path, f"it cannot be read ({exc})") from exc
        return path, _decode(path, data)


def _decode(path: str, data: bytes) -> Any:
    if not data or data.isspace():
        raise SessionFileError(path, "it is empty")
    try:
        with gc_paused():
            return decode_json(data)
    except UnicodeDecodeError as exc:
        raise SessionFileError(path, f"it is not UTF-8 text ({exc})") from exc
    except ValueError as exc:  # json.JSONDecodeError
        raise SessionFileError(path, f"it is not valid JSON ({exc})") from exc
    except RecursionError as exc:
        raise SessionFileError(path, "its JSON nests too deeply to be read") from exc


def _check_shape(path: str, states: Any, modules: dict[str, StateModule]) -> None:
    if not isinstance(states, dict):
        raise SessionFileError(
            path,
            f"its top level is a JSON {_json_kind(states)}, not an object mapping "
            "module names to their states",
        )
    for name in modules:
        if name in states and not isinstance(states[name], dict):
            raise SessionFileError(
                path, f"the state of {name!r} is a JSON {_json_kind(states[name])}, not an object"
            )


def _load_module(path: str, name: str, module: StateModule, state: dict[str, Any]) -> None:
    try:
        module.load_state_dict(state)
    except Exception as exc:
        raise SessionFileError(
            path, f"the state of {name!r} does not fit the module ({type(exc).__name__}: {exc})"
        ) from exc


def _json_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    return "number"


def _file_name(session_id: str, user_id: str) -> str:
    """The file name of a session, AgentScope's, after checking both ids.

    Raises:
        ValueError: An id is empty (``session_id`` only), contains a path separator or
            NUL, is ``.`` or ``..``, or is an absolute path or drive.
    """
    _check_id("session_id", session_id)
    if user_id:
        _check_id("user_id", user_id)
        return f"{user_id}_{session_id}.json"
    return f"{session_id}.json"


def _check_id(kind: str, value: Any) -> None:
    problem = _id_problem(str(value))
    if problem:
        raise ValueError(
            f"Invalid {kind} {value!r}: {problem}; a session file must stay inside save_dir."
        )


def _id_problem(text: str) -> str:
    if not text:
        return "it is empty"
    if "\x00" in text:
        return "it contains a NUL character"
    if text.startswith(("/", "\\")) or ntpath.splitdrive(text)[0]:
        return "it is an absolute path"
    if "/" in text or "\\" in text:
        return "it contains a path separator"
    if text in (".", ".."):
        return "it is a relative path component"
    return ""
