"""Import: each source with real-shaped fixtures, duplicates, and bad input changing nothing."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_agent.app.library import SessionLibrary
from desktop_agent.app.transfer import import_files, read_conversation

sys.path.insert(0, str(Path(__file__).parent))
from transfer_helpers import FIXTURES, ROOT, chat_parts


@pytest.fixture
def library(tmp_path: Path) -> SessionLibrary:
    return SessionLibrary(tmp_path / "home")


def _texts(conversation: dict) -> list[str]:
    out = []
    for message in conversation["messages"]:
        content = message["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        out += [b.get("text") or b.get("thinking") or "" for b in blocks]
    return out


async def test_chatgpt_export_follows_the_current_branch(library: SessionLibrary) -> None:
    report = await import_files(library, [FIXTURES / "chatgpt_conversations.json"])
    sorting, haiku = report.imported
    assert (sorting.title, haiku.title) == ("Sorting a list", "Haiku")
    [file_report] = report.files
    assert file_report.kind == "ChatGPT export"
    assert [(s.label, s.reason) for s in file_report.skipped] == [
        ("Broken", "its message tree is broken (a parent is missing or it loops)")
    ]
    assert any("1 messages on other branches" in note for note in sorting.notes)
    assert any("1 images left out" in note for note in sorting.notes)
    conversation = await read_conversation(library, sorting.session_id)
    assert _texts(conversation) == [
        "How do I sort a list in Python?",
        "Use `sorted()`:",
        "```python\nprint(sorted([3, 1, 2]))\n```",
        "```text\n[1, 2, 3]\n```",
        "And this screenshot?",
        "It shows the sorted list.",
    ]
    assert conversation["created"].startswith("2024-06-01T10:00:00.5")
    assert conversation["model"] == "gpt-4o"
    rows = {row.session_id: row for row in await library.list()}
    assert rows[sorting.session_id].message_count == 6


async def test_agentscope_session_memory_becomes_the_chat(library: SessionLibrary) -> None:
    report = await import_files(library, [FIXTURES / "agentscope_session.json"])
    [chat] = report.imported
    assert chat.title == "Hello Friday" and chat.message_count == 2
    assert chat.notes == ("1 malformed messages left out",)
    assert [(s.label, s.reason) for s in report.files[0].skipped] == [
        ("'user'", "it holds no memory (not an agent or a memory state)")
    ]
    conversation = await read_conversation(library, chat.session_id)
    assert conversation["state"]["agent"]["toolkit"] == {"active_groups": ["basic"]}
    assert _texts(conversation) == ["Hello Friday", "Hello! How can I help?"]


async def test_duplicates_are_skipped_or_copied(library: SessionLibrary) -> None:
    path = FIXTURES / "chatgpt_conversations.json"
    await import_files(library, [path])
    again = await import_files(library, [path])
    assert again.imported == [] and [d.title for d in again.duplicates] == [
        "Sorting a list",
        "Haiku",
    ]
    assert "already here as" in "\n".join(again.lines())
    copies = await import_files(library, [path], duplicates="copy")
    assert len(copies.imported) == 2
    assert len(await library.list()) == 4
    only = frozenset(d.fingerprint for d in again.duplicates[:1])  # just "Sorting a list"
    one = await import_files(library, [path], duplicates="copy", only=only)
    assert [chat.title for chat in one.imported] == ["Sorting a list"]
    assert one.files[0].skipped == []  # "Broken" was reported the first time


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"hello, not json", "it is not JSON"),
        (
            b'{"some": "thing"}',
            "not a desktop-agent export, an AgentScope session file or a ChatGPT",
        ),
        (b"[1, 2", "it is not JSON"),
        (
            json.dumps(
                {"format": "desktop-agent.conversations", "schema_version": 99, "conversations": []}
            ).encode(),
            "newer desktop-agent (export schema 99",
        ),
        (
            b'{"meta": {"schema_version": 7}, "agent": {"memory": {"content": []}}}',
            "newer desktop-agent (format 7)",
        ),
        (b"", "it is empty"),
    ],
)
async def test_bad_input_changes_nothing_and_says_why(
    library: SessionLibrary, tmp_path: Path, content: bytes, reason: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    report = await import_files(library, [bad])
    assert reason in report.files[0].refused
    assert report.imported == [] and await library.list() == []
    assert not library.sessions_dir.exists() or not list(library.sessions_dir.glob("*.json"))


@pytest.fixture
def huge_file(tmp_path: Path) -> Iterator[Path]:
    """A sparse 2 GB file: nothing is written, and nothing may be read."""
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as file:
        file.truncate(2 * 1024**3)
    yield huge
    os.unlink(huge)


async def test_a_2_gb_file_is_refused_by_its_size(library: SessionLibrary, huge_file: Path) -> None:
    report = await import_files(library, [huge_file])
    assert report.files[0].refused == "it is 2.0 GB, more than the 1.0 GB an import reads"
    assert await library.list() == []


async def test_a_chatgpt_zip_is_read(library: SessionLibrary, tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "export.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(FIXTURES / "chatgpt_conversations.json", "conversations.json")
    report = await import_files(library, [path])
    assert [chat.title for chat in report.imported] == ["Sorting a list", "Haiku"]


@pytest.mark.parametrize("slice_chars", [7, 64, 1000])
async def test_a_large_array_is_read_a_slice_at_a_time(
    library: SessionLibrary, monkeypatch: pytest.MonkeyPatch, slice_chars: int
) -> None:
    """Items cut by the reading window's edge (strings, numbers, escapes) still parse."""
    from desktop_agent.app.transfer import _sources

    monkeypatch.setattr(_sources, "_TEXT_SLICE", slice_chars)
    report = await import_files(library, [FIXTURES / "chatgpt_conversations.json"])
    assert [chat.title for chat in report.imported] == ["Sorting a list", "Haiku"]


async def test_a_file_cut_short_is_refused(library: SessionLibrary, tmp_path: Path) -> None:
    data = (FIXTURES / "chatgpt_conversations.json").read_bytes()
    cut = tmp_path / "cut.json"
    cut.write_bytes(data[: len(data) // 2])
    report = await import_files(library, [cut])
    assert report.files[0].refused.startswith("it is not JSON")
    assert await library.list() == []


async def test_a_backup_archive_is_pointed_to_restore(
    library: SessionLibrary, tmp_path: Path
) -> None:
    import zipfile

    path = tmp_path / "backup.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("manifest.json", "{}")
        archive.writestr("sessions/a.json", "{}")
    report = await import_files(library, [path])
    assert report.files[0].refused == "it is a desktop-agent backup: use Settings → Data → Restore…"


async def test_our_session_file_is_one_chat_with_every_part(
    library: SessionLibrary, tmp_path: Path
) -> None:
    parts = chat_parts()
    parts["versions"] = {"forks": {"m1": {"users": [None], "answers": [None]}}}
    path = tmp_path / "session.json"
    path.write_text(json.dumps(parts))
    report = await import_files(library, [path])
    [chat] = report.imported
    assert report.files[0].kind == "desktop-agent session file"
    assert (chat.title, chat.message_count) == ("Red pixel & files", 4)
    saved = await library.read_parts(chat.session_id)
    assert saved["versions"] == parts["versions"]
    assert saved["meta"]["created"] == parts["meta"]["created"]


async def test_a_frozen_v1_session_file_imports(library: SessionLibrary) -> None:
    path = (
        ROOT / "tests" / "fixtures" / "sessions" / "v1" / "sessions" / "TPQfCfTydWVDAQkpgZ4Hgt.json"
    )
    report = await import_files(library, [path])
    [chat] = report.imported
    assert (chat.title, chat.message_count) == ("What is in this picture?", 4)
