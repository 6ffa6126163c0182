"""Backup and restore: one archive, keys left out, a merge that keeps newer chats."""

from __future__ import annotations

import asyncio
import json
import sys
import zipfile
from pathlib import Path

from pydantic import SecretStr

from desktop_agent.app import ProviderPreset, Settings, load_settings, save_settings
from desktop_agent.app._mcp_config import McpServerConfig
from desktop_agent.app.library import SessionLibrary, SessionMeta
from desktop_agent.app.transfer import read_backup_contents, restore_backup, write_backup

sys.path.insert(0, str(Path(__file__).parent))
from transfer_helpers import PNG, chat_parts


async def _library_with_chat(
    root: Path, updated: str = "2026-03-01T10:00:04.000+00:00"
) -> SessionLibrary:
    library = SessionLibrary(root, blob_threshold=10)  # the image is a blob file
    parts = chat_parts()
    parts["meta"]["updated"] = updated
    await library.add(parts, SessionMeta.from_state(parts["meta"]), "chat1")
    (root / "templates").mkdir(parents=True, exist_ok=True)
    (root / "templates" / "Mine.json").write_text('{"context_template": []}')
    return library


def _settings(path: Path, key: str = "sk-secret", token: str = "tok-secret") -> None:
    preset = ProviderPreset(name="Work", base_url="http://x/v1", model="m", api_key=SecretStr(key))
    server = McpServerConfig(name="files", command="mcp-files", env={"TOKEN": SecretStr(token)})
    settings = Settings(providers=[preset], active_provider="Work", theme="dark")
    save_settings(settings.model_copy(update={"mcp_servers": [server]}), path)


async def test_backup_holds_everything_but_keys(tmp_path: Path) -> None:
    library = await _library_with_chat(tmp_path / "a")
    _settings(tmp_path / "a" / "settings.json")
    written = await write_backup(
        library, tmp_path / "b.zip", settings_file=tmp_path / "a" / "settings.json"
    )
    contents = read_backup_contents(tmp_path / "b.zip")
    assert [c.title for c in contents.chats] == ["Red pixel & files"] and contents.templates == [
        "Mine"
    ]
    assert contents.has_settings and not contents.keys_included
    with zipfile.ZipFile(written.path) as archive:
        names = archive.namelist()
        saved = archive.read("settings.json")
        assert b"sk-secret" not in saved and b"tok-secret" not in saved
        blobs = [n for n in names if n.startswith("sessions/chat1.blobs/")]
        assert len(blobs) == 1 and archive.read(blobs[0]) == PNG
    await write_backup(
        library,
        tmp_path / "k.zip",
        include_keys=True,
        settings_file=tmp_path / "a" / "settings.json",
    )
    with zipfile.ZipFile(tmp_path / "k.zip") as archive:
        saved = archive.read("settings.json")
        assert b"sk-secret" in saved and b"tok-secret" in saved


async def test_restore_adds_missing_and_keeps_newer_chats(tmp_path: Path) -> None:
    source = await _library_with_chat(tmp_path / "a")
    _settings(tmp_path / "a" / "settings.json")
    await write_backup(source, tmp_path / "b.zip", settings_file=tmp_path / "a" / "settings.json")
    target = SessionLibrary(tmp_path / "c")
    _settings(tmp_path / "c" / "settings.json", key="sk-mine", token="tok-mine")
    result = await restore_backup(
        target,
        tmp_path / "b.zip",
        restore_settings=True,
        settings_file=tmp_path / "c" / "settings.json",
    )
    assert result.added == ["Red pixel & files"] and result.templates_added == ["Mine"]
    restored = load_settings(tmp_path / "c" / "settings.json").settings
    assert (
        restored.theme == "dark" and restored.providers[0].api_key.get_secret_value() == "sk-mine"
    )
    assert restored.mcp_servers[0].revealed_env() == {"TOKEN": "tok-mine"}
    conversation = await target.read_parts("chat1")
    url = conversation["agent"]["memory"]["content"][0][0]["content"][1]["source"]["url"]
    assert str(tmp_path / "c") in url
    assert await asyncio.to_thread(Path(url).read_bytes) == PNG
    again = await restore_backup(target, tmp_path / "b.zip")
    assert again.kept == ["Red pixel & files"] and again.added == []


async def test_restore_replaces_an_older_chat_keeping_it_in_the_trash(tmp_path: Path) -> None:
    source = await _library_with_chat(tmp_path / "a", updated="2026-05-01T00:00:00.000+00:00")
    await write_backup(source, tmp_path / "b.zip", settings_file=tmp_path / "none.json")
    target = await _library_with_chat(tmp_path / "c")
    result = await restore_backup(target, tmp_path / "b.zip")
    assert result.replaced == ["Red pixel & files"]
    [row] = await target.list()
    assert row.updated.startswith("2026-05-01")
    assert [r.session_id for r in await target.list_trash()] == ["chat1"]


async def test_a_file_that_is_not_a_backup_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "x.zip"
    bad.write_text("nope")
    library = SessionLibrary(tmp_path / "c")
    try:
        await restore_backup(library, bad)
    except ValueError as exc:
        assert "not a ZIP archive" in str(exc)
    else:
        raise AssertionError("restored a file that is not a backup")
    assert json.dumps([]) == json.dumps([r.session_id for r in await library.list()])
