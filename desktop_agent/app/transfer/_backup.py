"""One archive of all chats, templates and settings; restoring it merges, never clobbers.

The archive is a ZIP file::

    manifest.json                what it holds (format, version, each chat's title/time)
    sessions/<id>.json           each session file, byte for byte
    sessions/<id>.blobs/<name>   its images and audio
    templates/<name>.json        saved context templates
    settings.json                the settings; API keys blanked unless asked for

Consistent while the app runs: session saves replace whole files atomically and blob
files never change once written, so each session is read once as one saved version and
its blobs after it. The archive itself is written to a temporary file and renamed.

Restore merges: a chat missing here is added; one here that is *older* than the
archive's is moved to the trash and replaced; a newer or identical one is kept. Templates
are added when missing, never overwritten; settings are replaced only when asked for
(keeping this machine's keys where the archive has none).
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_agent._i18n import translate
from desktop_agent._version import __version__
from desktop_agent.app._settings import Settings, load_settings, save_settings, settings_path
from desktop_agent.app.library import SessionError, SessionLibrary, SessionMeta
from desktop_agent.app.library._codec import decode_parts, encode_session, meta_from_prefix
from desktop_agent.app.library._journal import read_with_journal
from desktop_agent.app.library._meta import SCHEMA_VERSION, now_iso
from desktop_agent.app.library._paths import is_session_id, journal_of
from desktop_agent.app.library._scan import relocate_blobs
from desktop_agent.app.library._summary import parse_time
from desktop_agent.session._atomic_write import atomic_write_bytes

REVEAL_SECRETS = "reveal_secrets"  # the context key with which settings reveal secrets
_MASKED = "**********"
BACKUP_FORMAT = "desktop-agent.backup"
BACKUP_SCHEMA_VERSION = 1
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class ArchivedChat:
    """A chat in an archive."""

    session_id: str
    title: str
    updated: str
    message_count: int


@dataclass
class BackupContents:
    """What an archive holds (its manifest)."""

    created: str
    app_version: str
    chats: list[ArchivedChat] = field(default_factory=list)
    templates: list[str] = field(default_factory=list)
    has_settings: bool = False
    keys_included: bool = False

    def lines(self) -> list[str]:
        """A description for a terminal or a dialog."""
        if not self.has_settings:
            settings = translate("BackupReport", "no settings")
        elif self.keys_included:
            settings = translate("BackupReport", "settings (with API keys)")
        else:
            settings = translate("BackupReport", "settings (without API keys)")
        summary = translate(
            "BackupReport",
            "Backup of {date} (desktop-agent {version}): {chats} chats, {templates} templates, "
            "{settings}.",
        )
        out = [
            summary.format(
                date=self.created[:16].replace("T", " "),
                version=self.app_version,
                chats=len(self.chats),
                templates=len(self.templates),
                settings=settings,
            )
        ]
        untitled = translate("SessionSummary", "New session")
        out += [f"  {c.updated[:16].replace('T', ' ')}  {c.title or untitled}" for c in self.chats]
        return out


@dataclass
class RestoreResult:
    """What a restore did."""

    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    templates_added: list[str] = field(default_factory=list)
    settings_restored: bool = False

    def lines(self) -> list[str]:
        """A summary for a terminal or a dialog."""
        summary = (
            translate(
                "BackupReport",
                "Restored: {added} chats added, {replaced} replaced by their newer archived copy "
                "(the older one is in the trash), {kept} kept (yours is as new or newer), "
                "{templates} templates added, settings restored.",
            )
            if self.settings_restored
            else translate(
                "BackupReport",
                "Restored: {added} chats added, {replaced} replaced by their newer archived copy "
                "(the older one is in the trash), {kept} kept (yours is as new or newer), "
                "{templates} templates added.",
            )
        )
        out = [
            summary.format(
                added=len(self.added),
                replaced=len(self.replaced),
                kept=len(self.kept),
                templates=len(self.templates_added),
            )
        ]
        not_restored = translate("BackupReport", "not restored: {item}")
        out += ["  " + not_restored.format(item=line) for line in self.skipped]
        return out


@dataclass
class BackupWritten:
    """What :func:`write_backup` wrote."""

    path: Path
    contents: BackupContents

    def lines(self) -> list[str]:
        """A summary for a terminal or a dialog."""
        wrote = translate("BackupReport", "Wrote {path}:").format(path=self.path)
        return [wrote, *self.contents.lines()[:1]]


# -- writing -----------------------------------------------------------------------------


async def write_backup(
    library: SessionLibrary,
    path: Path,
    *,
    include_keys: bool = False,
    settings_file: Path | None = None,
) -> BackupWritten:
    """Write an archive of every chat, template and the settings to ``path`` (off the loop)."""
    return await asyncio.to_thread(
        _write_backup, library.root, library.sessions_dir, Path(path), include_keys, settings_file
    )


def _write_backup(
    root: Path, sessions: Path, path: Path, include_keys: bool, settings_file: Path | None
) -> BackupWritten:
    contents = BackupContents(now_iso(), __version__, keys_included=include_keys)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
            _add_sessions(archive, sessions, contents)
            _add_templates(archive, root / "templates", contents)
            _add_settings(archive, settings_file or settings_path(), contents, include_keys)
            archive.writestr(MANIFEST, json.dumps(_manifest(contents), indent=2))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return BackupWritten(path, contents)


def _add_sessions(archive: zipfile.ZipFile, folder: Path, contents: BackupContents) -> None:
    for file in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        session_id = file.name[: -len(".json")]
        if not is_session_id(session_id):
            continue
        try:
            data = _session_bytes(file)
        except OSError:
            continue  # deleted meanwhile
        archive.writestr(f"sessions/{file.name}", data)
        contents.chats.append(_archived(session_id, data))
        blobs = folder / f"{session_id}.blobs"
        for blob in sorted(blobs.iterdir()) if blobs.is_dir() else []:
            if blob.is_file() and not blob.name.startswith("."):
                archive.write(blob, f"sessions/{session_id}.blobs/{blob.name}")


def _session_bytes(file: Path) -> bytes:
    """A session file byte for byte or, while it has a journal (changes autosaved since
    it was last written), the file and its journal as one file."""
    if journal_of(file).exists():
        try:
            return encode_session(read_with_journal(file).parts)
        except Exception:  # damaged, newer: archived as it is, byte for byte
            pass
    return file.read_bytes()


def _archived(session_id: str, data: bytes) -> ArchivedChat:
    found = meta_from_prefix(data[:65536])
    meta = found[0] if found is not None and isinstance(found[0], dict) else {}
    return ArchivedChat(
        session_id,
        str(meta.get("title", "")),
        str(meta.get("updated", "")),
        int(meta.get("message_count", 0) or 0),
    )


def _add_templates(archive: zipfile.ZipFile, folder: Path, contents: BackupContents) -> None:
    for file in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        archive.write(file, f"templates/{file.name}")
        contents.templates.append(file.name[: -len(".json")])


def _add_settings(
    archive: zipfile.ZipFile, file: Path, contents: BackupContents, include_keys: bool
) -> None:
    """The settings as the app reads them; every secret (API keys, MCP servers' env and
    headers) blank unless ``include_keys``."""
    if not file.is_file():
        return
    loaded = load_settings(file)
    if loaded.warning:  # unusable: it was set aside, nothing to back up
        return
    context = {REVEAL_SECRETS: True} if include_keys else None
    document = loaded.settings.model_dump(mode="json", context=context)
    if not include_keys:
        document = _blank_masked(document)
    archive.writestr("settings.json", json.dumps(document, indent=2, ensure_ascii=False))
    contents.has_settings = True


def _blank_masked(value: Any) -> Any:
    """``value`` with pydantic's masked secrets (``"**********"``) made empty."""
    if isinstance(value, dict):
        return {key: _blank_masked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_blank_masked(item) for item in value]
    return "" if value == _MASKED else value


def _manifest(contents: BackupContents) -> dict[str, Any]:
    return {
        "format": BACKUP_FORMAT,
        "schema_version": BACKUP_SCHEMA_VERSION,
        "created": contents.created,
        "app_version": contents.app_version,
        "keys_included": contents.keys_included,
        "has_settings": contents.has_settings,
        "templates": contents.templates,
        "chats": [
            {
                "id": c.session_id,
                "title": c.title,
                "updated": c.updated,
                "messages": c.message_count,
            }
            for c in contents.chats
        ],
    }


# -- reading and restoring ---------------------------------------------------------------


def read_backup_contents(path: Path) -> BackupContents:
    """What the archive at ``path`` holds.

    Raises:
        ValueError: It is not a desktop-agent backup, or one from a newer version.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            manifest = json.loads(archive.read(MANIFEST))
    except (OSError, zipfile.BadZipFile):
        raise ValueError(translate("BackupReport", "it is not a ZIP archive")) from None
    except KeyError:
        raise ValueError(
            translate("BackupReport", "it is a ZIP archive but not a desktop-agent backup")
        ) from None
    except ValueError:
        raise ValueError(translate("BackupReport", "its manifest is not JSON")) from None
    if not isinstance(manifest, dict) or manifest.get("format") != BACKUP_FORMAT:
        raise ValueError(translate("BackupReport", "it is not a desktop-agent backup"))
    version = manifest.get("schema_version")
    if not isinstance(version, int) or version > BACKUP_SCHEMA_VERSION:
        raise ValueError(
            translate(
                "BackupReport", "it was made by a newer desktop-agent (backup format {version})"
            ).format(version=version)
        )
    chats = [
        ArchivedChat(
            str(c.get("id")),
            str(c.get("title", "")),
            str(c.get("updated", "")),
            int(c.get("messages", 0)),
        )
        for c in manifest.get("chats", [])
        if isinstance(c, dict)
    ]
    return BackupContents(
        str(manifest.get("created", "")),
        str(manifest.get("app_version", "")),
        chats,
        [str(t) for t in manifest.get("templates", [])],
        bool(manifest.get("has_settings")),
        bool(manifest.get("keys_included")),
    )


async def restore_backup(
    library: SessionLibrary,
    path: Path,
    *,
    restore_settings: bool = False,
    settings_file: Path | None = None,
    announce: bool = True,
) -> RestoreResult:
    """Merge the archive into ``library``'s data root (see the module docstring).

    ``announce=False``: no library change per restored chat (reload the list once after).

    Raises:
        ValueError: It is not a desktop-agent backup (nothing is changed).
    """
    contents = await asyncio.to_thread(read_backup_contents, path)
    result = RestoreResult()
    local = {row.session_id: row for row in await library.list()}
    for chat in contents.chats:
        here = local.get(chat.session_id)
        await _restore_chat(library, Path(path), chat, here, result, announce)
    if result.added or result.replaced:
        await library.list()  # indexes the restored sessions in one write
    result.templates_added = await asyncio.to_thread(_restore_templates, Path(path), library.root)
    if restore_settings and contents.has_settings:
        result.settings_restored = await asyncio.to_thread(
            _restore_settings, Path(path), settings_file or settings_path()
        )
    return result


async def _restore_chat(
    library: SessionLibrary,
    path: Path,
    chat: ArchivedChat,
    here: Any,
    result: RestoreResult,
    announce: bool = True,
) -> None:
    label = chat.title or chat.session_id
    if not is_session_id(chat.session_id):
        result.skipped.append(f"{label}: its id is invalid")
        return
    if here is not None and not _newer(chat.updated, here.updated):
        result.kept.append(label)
        return
    if here is not None and library.is_open(chat.session_id):
        result.skipped.append(f"{label}: it is open in the window; switch to another chat first")
        return
    try:
        parts, meta = await asyncio.to_thread(_read_chat, path, chat.session_id)
        if here is not None:
            await library.delete(chat.session_id)
        blobs_dir = library.sessions_dir / f"{chat.session_id}.blobs"
        await asyncio.to_thread(_extract_blobs, path, chat.session_id, blobs_dir)
        relocate_blobs(parts, blobs_dir)
        await library.add(parts, meta, chat.session_id, index=False, announce=announce)
    except (ValueError, KeyError, OSError, SessionError) as exc:
        result.skipped.append(f"{label}: {getattr(exc, 'message', None) or exc}")
        return
    (result.replaced if here is not None else result.added).append(label)


def _newer(archived: str, local: str) -> bool:
    archived_time, local_time = parse_time(archived), parse_time(local)
    if archived_time is None or local_time is None:
        return False
    return archived_time > local_time


def _read_chat(path: Path, session_id: str) -> tuple[dict[str, Any], SessionMeta]:
    with zipfile.ZipFile(path) as archive:
        parts = decode_parts(archive.read(f"sessions/{session_id}.json"))
    meta_state = parts.pop("meta", None)
    if isinstance(meta_state, dict) and int(meta_state.get("schema_version", 0)) > SCHEMA_VERSION:
        raise ValueError(translate("BackupReport", "it was saved by a newer desktop-agent"))
    meta = SessionMeta.from_state(meta_state) if meta_state is not None else SessionMeta()
    return parts, meta


def _extract_blobs(path: Path, session_id: str, blobs_dir: Path) -> None:
    prefix = f"sessions/{session_id}.blobs/"
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            blob_name = name[len(prefix) :]
            if name.startswith(prefix) and blob_name and "/" not in blob_name:
                blobs_dir.mkdir(parents=True, exist_ok=True)
                atomic_write_bytes(blobs_dir / blob_name, archive.read(name))


def _restore_templates(path: Path, root: Path) -> list[str]:
    added = []
    folder = root / "templates"
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            file_name = name[len("templates/") :]
            if not name.startswith("templates/") or "/" in file_name or not file_name:
                continue
            target = folder / file_name
            if target.exists():
                continue
            folder.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(target, archive.read(name), mode=0o644)
            added.append(file_name[: -len(".json")])
    return added


def _restore_settings(path: Path, target: Path) -> bool:
    archived = read_backup_settings(path)
    if archived is None:
        return False
    save_settings(merge_settings(archived, load_settings(target).settings), target)
    return True


def read_backup_settings(path: Path) -> Settings | None:
    """The settings an archive holds (``None`` if none, or if they are not valid)."""
    try:
        with zipfile.ZipFile(path) as archive:
            return Settings.model_validate(json.loads(archive.read("settings.json")))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None


def merge_settings(archived: Settings, current: Settings) -> Settings:
    """``archived``, keeping ``current``'s secrets (API keys, MCP servers' env and headers)
    wherever the archive has them blank (a backup made without keys)."""
    keys = {p.name: p.api_key for p in current.providers}
    providers = [
        p
        if p.api_key.get_secret_value() or p.name not in keys
        else p.model_copy(update={"api_key": keys[p.name]})
        for p in archived.providers
    ]
    servers = {server.name: server for server in current.mcp_servers}
    mcp = [_with_secrets(server, servers.get(server.name)) for server in archived.mcp_servers]
    return archived.model_copy(update={"providers": providers, "mcp_servers": mcp})


def _with_secrets(server: Any, here: Any) -> Any:
    if here is None:
        return server
    update = {}
    for name in ("env", "headers"):
        theirs, ours = getattr(server, name), getattr(here, name)
        update[name] = {
            key: ours[key] if not value.get_secret_value() and key in ours else value
            for key, value in theirs.items()
        }
    return server.model_copy(update=update)
