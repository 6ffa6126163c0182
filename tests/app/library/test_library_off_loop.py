"""Nothing blocking on the event loop: file I/O and JSON work happen in worker threads."""

from __future__ import annotations

import builtins
import io
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from library_helpers import big_base64, memory_with

from desktop_agent.app.library import Autosaver, SessionLibrary, _codec
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg


def recording(
    calls: list[tuple[bool, str]], name: str, real: Callable[..., Any]
) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        on_loop = threading.current_thread() is threading.main_thread()
        calls.append((on_loop, name if name != "open" else f"open {args[0]}"))
        return real(*args, **kwargs)

    return wrapper


async def test_the_library_does_its_io_and_json_off_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = SessionLibrary(tmp_path)
    memory = await memory_with(*[f"message {n}" for n in range(600)])
    image = {"type": "base64", "media_type": "image/png", "data": big_base64()}
    await memory.add(Msg("user", [{"type": "image", "source": image}], "user"))
    calls: list[tuple[bool, str]] = []
    for name, module in (("open", builtins), ("open", io)):
        monkeypatch.setattr(module, name, recording(calls, name, getattr(module, name)))
    monkeypatch.setattr(_codec, "encode_json", recording(calls, "encode", _codec.encode_json))
    monkeypatch.setattr(_codec, "decode_json", recording(calls, "decode", _codec.decode_json))

    session_id = await library.create()
    autosaver = Autosaver(library, session_id, {"memory": memory})
    autosaver.message_finished()
    await autosaver.aclose()
    await library.list()
    await library.search("message 5")
    await library.rename(session_id, "Renamed")
    await library.load(session_id, memory=InMemoryMemory())
    await library.delete(session_id)
    await library.restore(session_id)
    await library.list_trash()
    await library.empty_trash()

    assert [name for on_loop, name in calls if on_loop] == []
    assert {name for _, name in calls} >= {"encode", "decode"}  # the probes do see the work
