"""A second process for the session library tests (run as a script).

Modes (each prints one line per event, flushed):

- ``hold ROOT ID``: load the session (taking its lock), print ``held``; then for each
  line ``save TEXT`` on stdin add a message and save (print ``saved``); at ``quit``
  close it and print ``closed``.
- ``try-save ROOT ID``: load the session, print ``read_only <bool>``, ``status <status>``
  as listed, then try to save and print ``saved`` or ``error <ErrorType>``.
- ``stream ROOT INTERVAL``: create a session, print ``session <id>``, then append a
  message every couple of milliseconds forever, autosaving as a stream would; prints
  ``appended <count> <monotonic time>`` after each message and ``saved <count>`` after
  each save.
"""

from __future__ import annotations

import asyncio
import sys
import time

from desktop_agent.app.library import Autosaver, SessionError, SessionLibrary, SessionSummary
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg


async def hold(root: str, session_id: str) -> None:
    library = SessionLibrary(root)
    memory = InMemoryMemory()
    loaded = await library.load(session_id, memory=memory)
    print("held" if not loaded.read_only else "not-held", flush=True)
    while (line := await asyncio.to_thread(sys.stdin.readline)).startswith("save "):
        await memory.add(Msg("user", line[5:].strip(), "user"))
        await library.save(session_id, memory=memory)
        print("saved", flush=True)
    await library.close_all()
    print("closed", flush=True)


async def try_save(root: str, session_id: str) -> None:
    library = SessionLibrary(root)
    memory = InMemoryMemory()
    loaded = await library.load(session_id, memory=memory)
    print(f"read_only {loaded.read_only}", flush=True)
    rows = {row.session_id: row for row in await library.list()}
    print(f"status {rows[session_id].status.value}", flush=True)
    await memory.add(Msg("user", "written by the second process", "user"))
    try:
        await library.save(session_id, memory=memory)
    except SessionError as exc:
        print(f"error {type(exc).__name__}", flush=True)
    else:
        print("saved", flush=True)


async def stream(root: str, interval: float) -> None:
    library = SessionLibrary(root)
    session_id = await library.create(model="scripted")
    print(f"session {session_id}", flush=True)
    memory = InMemoryMemory()

    def saved(summary: SessionSummary) -> None:
        print(f"saved {summary.message_count}", flush=True)

    autosaver = Autosaver(
        library, session_id, {"memory": memory}, interval=interval, on_saved=saved
    )
    count = 0
    while True:
        count += 1
        role = "user" if count % 2 else "assistant"
        await memory.add(Msg(role, f"message {count} " + "lorem ipsum " * 80, role))
        print(f"appended {count} {time.monotonic()}", flush=True)
        autosaver.changed()
        await asyncio.sleep(0.002)


def main() -> None:
    mode, root, arg = sys.argv[1:4]
    if mode == "hold":
        asyncio.run(hold(root, arg))
    elif mode == "try-save":
        asyncio.run(try_save(root, arg))
    elif mode == "stream":
        asyncio.run(stream(root, float(arg)))
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main()
