"""Frozen files of every released format keep listing, loading and searching."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest
from library_helpers import FIXTURES, read_file, snapshot

from desktop_agent.agent import ReActAgent
from desktop_agent.app.library import (
    MIGRATIONS,
    SCHEMA_VERSION,
    SessionLibrary,
    SessionStatus,
)
from desktop_agent.context import InputModule
from desktop_agent.formatter import OpenAIChatFormatter
from desktop_agent.testing import ScriptedChatModel


def data_root_from(fixture: str, tmp_path: Path) -> Path:
    root = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, root)
    return root


def agent(input_module: InputModule | None = None) -> ReActAgent:
    return ReActAgent(
        name="someone",
        sys_prompt="placeholder",
        model=ScriptedChatModel(),
        formatter=OpenAIChatFormatter(),
        input_module=input_module,
    )


def test_every_old_format_has_a_migration_and_a_fixture() -> None:
    assert sorted(MIGRATIONS) == list(range(SCHEMA_VERSION))
    assert sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()) == [
        f"v{n}" for n in range(SCHEMA_VERSION + 1)
    ]


async def test_format_0_agentscope_files_are_listed_and_loaded(tmp_path: Path) -> None:
    root = data_root_from("v0", tmp_path)
    before = snapshot(root / "sessions")
    library = SessionLibrary(root)

    rows = {row.session_id: row for row in await library.list()}
    assert set(rows) == {"friday", "hamlet-legacy-memory"}
    friday = rows["friday"]
    assert friday.status is SessionStatus.OK
    assert (friday.title, friday.message_count) == ("Wie spät ist es in Tokio? 🗼", 4)
    assert friday.created < friday.updated
    assert rows["hamlet-legacy-memory"].title == "Summarise the plot of Hamlet in one line."

    restored = agent()
    loaded = await library.load("friday", agent=restored)
    assert loaded.summary.title == friday.title
    memory = await restored.memory.get_memory()
    assert [m.role for m in memory] == ["user", "assistant", "system", "assistant"]
    assert memory[1].content[0]["input"] == {"timezone": "Asia/Tokyo"}
    assert restored.sys_prompt == "You are a helpful assistant named Friday."
    legacy = agent()
    await library.load("hamlet-legacy-memory", agent=legacy)
    assert (await legacy.memory.get_memory())[1].get_text_content() == (
        "A prince avenges his father and everyone dies."
    )
    assert [row.session_id for row in await library.search("tokio")] == ["friday"]

    after = snapshot(root / "sessions")
    assert {name: after[name] for name in before} == before  # migrated in memory only


async def test_format_0_is_written_back_as_the_current_format(tmp_path: Path) -> None:
    root = data_root_from("v0", tmp_path)
    library = SessionLibrary(root)
    restored = agent()
    await library.load("friday", agent=restored)
    await library.save("friday", agent=restored)
    parts = orjson.loads((root / "sessions" / "friday.json").read_bytes())
    assert list(parts) == ["meta", "agent"]
    assert parts["meta"]["schema_version"] == SCHEMA_VERSION
    assert parts["meta"]["title"] == "Wie spät ist es in Tokio? 🗼"


PICTURE, COUNTING = "TPQfCfTydWVDAQkpgZ4Hgt", "NzeKoWmNwXWCrRVTBgR5Z8"


@pytest.mark.parametrize("fresh_index", [True, False])
async def test_format_1_files_load_with_their_blobs(tmp_path: Path, fresh_index: bool) -> None:
    root = data_root_from("v1", tmp_path)
    library = SessionLibrary(root)
    if not fresh_index:
        await library.list()
    row = {r.session_id: r for r in await library.list()}[PICTURE]
    assert (row.title, row.model, row.message_count) == (
        "What is in this picture?",
        "gpt-4o-mini",
        4,
    )

    restored = agent(InputModule())
    loaded = await library.load(row.session_id, agent=restored)
    assert not loaded.read_only
    memory = await restored.memory.get_memory()
    source = memory[0].content[1]["source"]
    blob = Path(source["url"])
    assert blob.parent == root / "sessions" / f"{row.session_id}.blobs"  # relocated
    assert read_file(blob).startswith(b"\x89PNG")
    assert memory[3].get_text_content() == "Squares have four equal sides."
    assert restored.sys_prompt == "You are Friday, a helpful assistant."
    assert [r.session_id for r in await library.search("four equal")] == [row.session_id]


async def test_format_1_sliced_memory_loads(tmp_path: Path) -> None:
    library = SessionLibrary(data_root_from("v1", tmp_path))
    row = {r.session_id: r for r in await library.list()}[COUNTING]
    assert (row.title, row.message_count, row.model) == (
        "Count 0: what comes next?",
        300,
        "qwen2.5:7b",
    )
    restored = agent()
    await library.load(COUNTING, agent=restored)
    memory = await restored.memory.get_memory()
    assert len(memory) == 300
    assert memory[-1].get_text_content() == "150 — «next» ✓"
    assert restored.sys_prompt == "You count."
    assert [r.session_id for r in await library.search("«next»")] == [COUNTING]
