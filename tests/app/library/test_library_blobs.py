"""Large images and audio are saved as files beside the session, not inside it."""

from __future__ import annotations

import base64
import copy
import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest
from library_helpers import big_base64, read_file

from desktop_agent.app.library import BLOB_THRESHOLD, SessionLibrary
from desktop_agent.app.library._scan import StateScanner
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg


def media(kind: str, media_type: str, data: str) -> dict[str, object]:
    return {"type": kind, "source": {"type": "base64", "media_type": media_type, "data": data}}


async def test_large_media_become_blob_files_and_the_json_stays_small(tmp_path: Path) -> None:
    image, audio, small = big_base64(300_000), big_base64(500_000), big_base64(1_000)
    memory = InMemoryMemory()
    await memory.add(
        Msg("user", [{"type": "text", "text": "look"}, media("image", "image/png", image)], "user")
    )
    await memory.add(Msg("user", [media("image", "image/png", image)], "user"))  # same picture
    await memory.add(Msg("assistant", [media("audio", "audio/wav", audio)], "assistant"))
    await memory.add(Msg("user", [media("image", "image/jpeg", small)], "user"))
    tool_output = [media("image", "image/webp", "!!not base64!!" * 10_000)]
    await memory.add(
        Msg(
            "system",
            [{"type": "tool_result", "id": "1", "name": "t", "output": tool_output}],
            "system",
        )
    )
    live_before = copy.deepcopy([msg.content for msg, _ in memory.content])

    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    await library.save(session_id, memory=memory)

    assert [msg.content for msg, _ in memory.content] == live_before  # live messages untouched
    blobs = library.sessions_dir / f"{session_id}.blobs"
    assert sorted(p.suffix for p in blobs.iterdir()) == [".png", ".wav"]
    assert {p.read_bytes() for p in blobs.iterdir()} == {
        base64.b64decode(image),
        base64.b64decode(audio),
    }
    data = (library.sessions_dir / f"{session_id}.json").read_bytes()
    assert len(data) < 150_000  # the invalid "base64" (140 KB) stays inline, as it was
    assert image.encode() not in data and audio.encode() not in data
    assert small.encode() in data  # below the threshold: inline
    assert (library.sessions_dir / "index.json").stat().st_size < 1_000

    restored = InMemoryMemory()
    await library.load(session_id, memory=restored)
    first = restored.content[0][0].content[1]["source"]
    assert first["type"] == "url" and first["media_type"] == "image/png"
    assert read_file(first["url"]) == base64.b64decode(image)
    assert restored.content[3][0].content[0]["source"]["data"] == small
    assert BLOB_THRESHOLD == 64 * 1024


async def test_blob_references_follow_a_moved_data_folder(tmp_path: Path) -> None:
    old_root, new_root = tmp_path / "old", tmp_path / "new"
    library = SessionLibrary(old_root)
    session_id = await library.create()
    memory = InMemoryMemory()
    await memory.add(Msg("user", [media("image", "image/gif", big_base64())], "user"))
    await library.save(session_id, memory=memory)
    await library.close_all()
    shutil.copytree(old_root, new_root)
    shutil.rmtree(old_root)

    restored = InMemoryMemory()
    await SessionLibrary(new_root).load(session_id, memory=restored)
    url = Path(restored.content[0][0].content[0]["source"]["url"])
    assert url.parent == new_root / "sessions" / f"{session_id}.blobs"
    assert read_file(url)


async def test_an_unchanged_message_is_not_scanned_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored: list[str] = []
    real = StateScanner._store

    def counting_store(self: StateScanner, source: dict[str, Any]) -> dict[str, Any]:
        stored.append(source["media_type"])
        return real(self, source)

    monkeypatch.setattr(StateScanner, "_store", counting_store)
    library = SessionLibrary(tmp_path)
    session_id = await library.create()
    memory = InMemoryMemory()
    await memory.add(Msg("user", [media("image", "image/png", big_base64())], "user"))
    for number in range(3):
        await memory.add(Msg("assistant", f"reply {number}", "assistant"))
        await library.save(session_id, memory=memory)
    assert stored == ["image/png"]  # decoded and hashed once, not at every save
    saved = orjson.loads((library.sessions_dir / f"{session_id}.json").read_bytes())
    assert saved["memory"]["content"][0][0]["content"][0]["source"]["type"] == "url"
