"""A session opened from a data folder that cannot be written says so — not that another
window has it open."""

from __future__ import annotations

from pathlib import Path

from library_helpers import memory_with
from test_library_faults import read_only

from desktop_agent.app.library import SessionLibrary
from desktop_agent.memory import InMemoryMemory


async def test_a_read_only_folder_is_named_as_the_reason(tmp_path: Path) -> None:
    writer = SessionLibrary(tmp_path)
    session_id = await writer.create()
    await writer.save(session_id, memory=await memory_with("hello"))
    await writer.close_all()

    library = SessionLibrary(tmp_path)
    with read_only(library.sessions_dir):
        loaded = await library.load(session_id, memory=InMemoryMemory())
    await library.close_all()
    assert loaded.read_only
    assert "data folder" in loaded.read_only_reason
    assert str(library.sessions_dir) in loaded.read_only_reason
    assert "another" not in loaded.read_only_reason


async def test_a_session_held_elsewhere_names_the_other_window(tmp_path: Path) -> None:
    holder = SessionLibrary(tmp_path)
    session_id = await holder.create()
    await holder.save(session_id, memory=await memory_with("hello"))
    library = SessionLibrary(tmp_path)
    loaded = await library.load(session_id, memory=InMemoryMemory())
    assert loaded.read_only
    assert "another desktop-agent window" in loaded.read_only_reason
    await library.close_all()
    await holder.close_all()
