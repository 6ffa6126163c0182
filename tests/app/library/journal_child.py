"""A process autosaving a growing chat until it is killed (run as a script).

``journal_child.py ROOT [SESSION_ID]``: create a session (or load ``SESSION_ID``), print
``session <id>``, then forever: stream a short reply (a few changes with the reply
unfinished), add it and a user message, let the autosaver save them as the app does,
and now and then pause long enough for an idle checkpoint. Prints, flushed:
``added <count> <monotonic time>`` after each message is in memory and ``durable
<count>`` when a flush says the first ``count`` messages are on disk. Message ``n``'s
text is ``m<n>``, so a reader can check that what survives is an unbroken prefix.
Used by ``test_library_journal_kill.py`` and ``benchmarks/bench_autosave.py``.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from typing import Literal, cast

from desktop_agent.app import AgentState
from desktop_agent.app._session_memory import SessionMemory
from desktop_agent.app.library import Autosaver, SessionLibrary
from desktop_agent.message import Msg


async def main(root: str, session_id: str | None) -> None:
    library = SessionLibrary(root)
    state = AgentState()
    if session_id is None:
        session_id = await library.create()
    else:
        await library.load(session_id, agent=state)
    print(f"session {session_id}", flush=True)
    autosaver = Autosaver(library, session_id, {"agent": state}, checkpoint_after=0.2)
    memory = cast(SessionMemory, state.memory)
    rounds = 0
    while True:
        rounds += 1
        await add(memory, autosaver, "user")
        reply = Msg("assistant", "", "assistant")
        for _ in range(random.randint(1, 4)):
            reply.content = f"{reply.content}word "
            autosaver.changed(unfinished_reply=reply)
            await asyncio.sleep(random.uniform(0.0005, 0.005))
        reply.content = f"m{len(memory.content)}"
        await add(memory, autosaver, "assistant", reply)
        if rounds % 3 == 0:
            count = len(memory.content)
            await autosaver.flush()
            print(f"durable {count}", flush=True)
        if rounds % 25 == 0:
            await asyncio.sleep(random.uniform(0.1, 0.4))  # idle: a checkpoint may start


async def add(
    memory: SessionMemory,
    autosaver: Autosaver,
    role: Literal["user", "assistant"],
    msg: Msg | None = None,
) -> None:
    content = memory.content
    await memory.add(msg or Msg(role, f"m{len(content)}", role))
    autosaver.message_finished()
    print(f"added {len(content)} {time.monotonic():.6f}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
