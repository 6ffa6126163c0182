"""Importing files into the session library, with a report of what came in and what not.

Each file is read and checked whole (in a worker thread) before anything is written, so
a refused file changes nothing. A conversation already imported (same messages, or our
own export of a chat that is still here) is a *duplicate*: skipped, or imported as a copy
when the caller asks (``duplicates="copy"``). Imports are remembered in
``<data root>/imports.json`` (fingerprint → session id) for that check.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from desktop_agent._i18n import translate
from desktop_agent.app.library import SessionError, SessionLibrary, SessionMeta, SessionSummary
from desktop_agent.app.library._meta import find_conversation, message_dict, now_iso
from desktop_agent.app.transfer._sources import (
    MAX_IMPORT_BYTES,
    ImportRefused,
    Incoming,
    Skipped,
    fingerprint,
    read_source,
)
from desktop_agent.session._atomic_write import atomic_write_bytes
from desktop_agent.session._json_codec import gc_paused

LEDGER_FILE = "imports.json"
Duplicates = Literal["skip", "copy"]


@dataclass(frozen=True)
class ImportedChat:
    """A conversation that became a session."""

    session_id: str
    title: str
    message_count: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Duplicate:
    """A conversation that is in the library already (``existing_id``); ``fingerprint``
    names it for a second import of only the duplicates, as copies (``only=``)."""

    title: str
    existing_id: str
    fingerprint: str = ""


@dataclass
class FileReport:
    """What happened to one file."""

    path: Path
    kind: str = ""
    imported: list[ImportedChat] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)
    refused: str = ""


@dataclass
class ImportReport:
    """What an import brought in, skipped (and why), and refused."""

    files: list[FileReport] = field(default_factory=list)

    @property
    def imported(self) -> list[ImportedChat]:
        """Every conversation imported."""
        return [chat for report in self.files for chat in report.imported]

    @property
    def duplicates(self) -> list[Duplicate]:
        """Every duplicate skipped (offer to import them as copies)."""
        return [dup for report in self.files for dup in report.duplicates]

    def lines(self) -> list[str]:
        """The report as sentences, one per line, for a terminal or a dialog."""
        out: list[str] = []
        for report in self.files:
            out.extend(_file_lines(report))
        return out


def _file_lines(report: FileReport) -> list[str]:
    name = report.path.name
    if report.refused:
        refused = translate("ImportReport", "{file}: not imported: {reason}.")
        return [refused.format(file=name, reason=report.refused)]
    kind = translate("ImportReport", report.kind) if report.kind else report.kind
    out = [
        translate("ImportReport", "{file} ({kind}): {count} imported").format(
            file=name, kind=kind, count=len(report.imported)
        )
    ]
    for chat in report.imported:
        notes = f" ({'; '.join(chat.notes)})" if chat.notes else ""
        count = chat.message_count
        line = translate("ImportReport", "{title} [{id}, %n message(s)]{notes}", None, count)
        out.append("  + " + line.format(title=chat.title, id=chat.session_id, notes=notes))
    duplicate = translate("ImportReport", "{title}: already here as {id} (skipped; import a copy?)")
    for dup in report.duplicates:
        out.append("  = " + duplicate.format(title=dup.title, id=dup.existing_id))
    skipped = translate("ImportReport", "{item}: skipped: {reason}")
    for item in report.skipped:
        out.append("  - " + skipped.format(item=item.label, reason=item.reason))
    return out


async def import_files(
    library: SessionLibrary,
    paths: Iterable[str | Path],
    *,
    duplicates: Duplicates = "skip",
    max_bytes: int = MAX_IMPORT_BYTES,
    announce: bool = True,
    only: frozenset[str] | None = None,
) -> ImportReport:
    """Import each file into ``library``; returns the report (never raises for bad input).

    ``only``: import just the conversations with these fingerprints (the duplicates of a
    first import, as copies: ``duplicates="copy", only={d.fingerprint for d in ...}``).

    ``announce=False``: the library sends no change per imported chat (a window reloads
    its list once after a large import instead of inserting thousands of rows one by one).
    """
    report = ImportReport()
    rows = await library.list()
    known = {row.session_id for row in rows}
    ledger = await asyncio.to_thread(_read_ledger, library.root)
    ledger = {key: sid for key, sid in ledger.items() if sid in known}
    with gc_paused():  # a large file's parsed objects are not scanned while they live
        how = (duplicates, max_bytes, announce, only)
        await _import_each(library, paths, how, report, rows, ledger)
    await asyncio.to_thread(_write_ledger, library.root, ledger)
    if report.imported:
        await library.list()  # indexes the new sessions in one write
    return report


async def _import_each(
    library: SessionLibrary,
    paths: Iterable[str | Path],
    how: tuple[Duplicates, int, bool, frozenset[str] | None],
    report: ImportReport,
    rows: list[SessionSummary],
    ledger: dict[str, str],
) -> None:
    duplicates, max_bytes, announce, only = how
    known = {row.session_id for row in rows}
    for raw_path in paths:
        path = Path(raw_path)
        file_report = FileReport(path)
        report.files.append(file_report)
        try:
            contents = await asyncio.to_thread(read_source, path, max_bytes)
        except ImportRefused as exc:
            file_report.refused = str(exc)
            continue
        file_report.kind = contents.kind
        file_report.skipped = list(contents.skipped) if only is None else []  # said once
        # Taken one by one, so each is freed once added (a large file's objects are
        # not all freed at once on the loop at the end).
        pending = contents.conversations[::-1]
        contents.conversations.clear()
        while pending:
            incoming = pending.pop()
            if only is not None and incoming.fingerprint not in only:
                continue
            existing = _existing(incoming, ledger, known) or await _same_chat(
                library, incoming, rows
            )
            if existing is not None and duplicates == "skip":
                duplicate = Duplicate(incoming.label, existing, incoming.fingerprint)
                file_report.duplicates.append(duplicate)
                continue
            await _add(library, incoming, file_report, ledger, known, announce)


def _existing(incoming: Incoming, ledger: dict[str, str], known: set[str]) -> str | None:
    if incoming.fingerprint in ledger:
        return ledger[incoming.fingerprint]
    if incoming.source_id in known:
        return incoming.source_id
    return None


async def _same_chat(
    library: SessionLibrary, incoming: Incoming, rows: list[SessionSummary]
) -> str | None:
    """A session with the same title, length and message ids (read to compare)."""
    count = len(find_conversation(incoming.parts))
    title = str(incoming.meta.get("title") or "")
    for row in rows:
        if row.title != title or row.message_count != count:
            continue
        try:
            parts = await library.read_parts(row.session_id)
        except SessionError:
            continue
        messages = [message_dict(item) or {} for item in find_conversation(parts)]
        if fingerprint(messages) == incoming.fingerprint:
            return row.session_id
    return None


async def _add(
    library: SessionLibrary,
    incoming: Incoming,
    report: FileReport,
    ledger: dict[str, str],
    known: set[str],
    announce: bool,
) -> None:
    meta = SessionMeta(
        title=str(incoming.meta.get("title") or incoming.label),
        created=str(incoming.meta.get("created") or now_iso()),
        updated=str(incoming.meta.get("updated") or incoming.meta.get("created") or now_iso()),
        model=str(incoming.meta.get("model") or ""),
        title_is_custom=bool(incoming.meta.get("title_is_custom", False)),
    )
    try:
        summary = await library.add(incoming.parts, meta, index=False, announce=announce)
    except SessionError as exc:
        report.skipped.append(Skipped(incoming.label, f"it could not be saved ({exc.message})"))
        return
    ledger.setdefault(incoming.fingerprint, summary.session_id)
    known.add(summary.session_id)
    chat = ImportedChat(
        summary.session_id, summary.title, summary.message_count, tuple(incoming.notes)
    )
    report.imported.append(chat)


def _read_ledger(root: Path) -> dict[str, str]:
    try:
        value = json.loads((root / LEDGER_FILE).read_bytes())
    except (OSError, ValueError):
        return {}
    if not isinstance(value, dict):
        return {}
    return {str(k): str(v) for k, v in value.items() if isinstance(v, str)}


def _write_ledger(root: Path, ledger: dict[str, str]) -> None:
    root.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(root / LEDGER_FILE, json.dumps(ledger, indent=0).encode())
