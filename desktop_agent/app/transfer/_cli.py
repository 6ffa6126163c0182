"""``desktop-agent list | export | import | backup | restore``: the library from a terminal.

For scripts and backups, without a window or a display. Nothing here imports Qt: PDF
rendering is handed in by ``desktop_agent.__main__`` as a callable that loads the ``ui``
layer only when ``--format pdf`` is asked for. Exit codes: 0 done, 1 nothing (or not all)
could be done, 2 bad usage.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from desktop_agent.app.library import SessionError, SessionLibrary
from desktop_agent.app.transfer._backup import (
    read_backup_contents,
    restore_backup,
    write_backup,
)
from desktop_agent.app.transfer._export import (
    FORMATS,
    ExportFormat,
    Rendered,
    find_session,
    read_conversation,
    render,
    write_rendered,
)
from desktop_agent.app.transfer._import import import_files
from desktop_agent.app.transfer._markdown import ImageMode

PdfRenderer = Callable[[dict[str, Any]], bytes]
COMMANDS = ("list", "export", "import", "backup", "restore")


def add_commands(parser: argparse.ArgumentParser) -> None:
    """Add the subcommands to the program's parser (``args.command`` names the one given)."""
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    listing = commands.add_parser("list", help="list saved chats (id, title, updated, messages)")
    listing.add_argument("--json", action="store_true", help="one JSON array instead of a table")
    export = commands.add_parser("export", help="export a chat to Markdown, HTML, PDF or JSON")
    export.add_argument("chat", metavar="ID_OR_TITLE")
    export.add_argument("--format", "-f", choices=FORMATS, default="markdown")
    export.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    export.add_argument(
        "--images",
        choices=("files", "inline"),
        help="Markdown media as files beside the output or inline data URIs "
        "(default: files with -o, else inline)",
    )
    export.add_argument("--no-thinking", action="store_true", help="leave thinking out")
    imports = commands.add_parser(
        "import", help="import our JSON exports, AgentScope session files, ChatGPT exports"
    )
    imports.add_argument("files", nargs="+", type=Path, metavar="FILE")
    imports.add_argument(
        "--copy-duplicates", action="store_true", help="import chats already here as copies"
    )
    backup = commands.add_parser("backup", help="write every chat, template and setting to FILE")
    backup.add_argument("file", type=Path, metavar="FILE")
    backup.add_argument("--include-keys", action="store_true", help="keep API keys in it")
    restore = commands.add_parser("restore", help="merge a backup into this machine's data")
    restore.add_argument("file", type=Path, metavar="FILE")
    restore.add_argument("--dry-run", action="store_true", help="only show what it holds")
    restore.add_argument("--settings", action="store_true", help="also replace the settings")


def run_cli(args: argparse.Namespace, render_pdf: Callable[[], PdfRenderer] | None = None) -> int:
    """Run the subcommand ``args.command``; the exit code.

    Args:
        args: Parsed by a parser given :func:`add_commands`.
        render_pdf: Loads the PDF renderer (called only for ``--format pdf``).
    """
    try:
        return asyncio.run(_run(args, render_pdf))
    except BrokenPipeError:
        return 0


async def _run(args: argparse.Namespace, render_pdf: Callable[[], PdfRenderer] | None) -> int:
    library = SessionLibrary()
    if args.command == "list":
        return await _list(library, as_json=args.json)
    if args.command == "export":
        return await _export(library, args, render_pdf)
    if args.command == "import":
        report = await import_files(
            library, args.files, duplicates="copy" if args.copy_duplicates else "skip"
        )
        _print_lines(report.lines())
        refused = any(f.refused for f in report.files)
        return 1 if refused or (not report.imported and not report.duplicates) else 0
    if args.command == "backup":
        written = await write_backup(library, args.file, include_keys=args.include_keys)
        _print_lines(written.lines())
        return 0
    return await _restore(library, args)


async def _list(library: SessionLibrary, *, as_json: bool, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    rows = await library.list()
    if as_json:
        items = [
            {
                "id": row.session_id,
                "title": row.title,
                "created": row.created,
                "updated": row.updated,
                "messages": row.message_count,
                "model": row.model,
                "status": row.status.value,
            }
            for row in rows
        ]
        out.write(json.dumps(items, ensure_ascii=False, indent=2) + "\n")
        return 0
    for row in rows:
        updated = row.updated[:16].replace("T", " ")
        out.write(f"{row.session_id}\t{updated}\t{row.message_count:>5}\t{row.display_title}\n")
    return 0


async def _export(
    library: SessionLibrary, args: argparse.Namespace, render_pdf: Callable[[], PdfRenderer] | None
) -> int:
    fmt: ExportFormat = args.format
    try:
        row = find_session(await library.list(), args.chat)
        conversation = await read_conversation(library, row.session_id)
    except (LookupError, SessionError) as exc:
        return _fail(getattr(exc, "message", None) or str(exc))
    if fmt == "pdf":
        if render_pdf is None:
            return _fail("PDF export needs the desktop_agent.ui layer (PySide6).")
        if args.output is None and sys.stdout.isatty():
            return _fail("PDF is binary: give -o FILE (or redirect stdout).")
        # On this (the main) thread: Qt wants its application object there.
        rendered = Rendered(render_pdf()(conversation))
    else:
        images: ImageMode = args.images or ("files" if args.output else "inline")
        files_dir = f"{args.output.stem}_files" if args.output else "media"
        rendered = await asyncio.to_thread(
            render,
            conversation,
            fmt,
            images=images,
            thinking=not args.no_thinking,
            files_dir=files_dir,
        )
    if args.output is None:
        sys.stdout.buffer.write(rendered.data)
        sys.stdout.flush()
        return 0
    await asyncio.to_thread(write_rendered, rendered, args.output)
    print(f"Exported {row.display_title!r} to {args.output}", file=sys.stderr)
    return 0


async def _restore(library: SessionLibrary, args: argparse.Namespace) -> int:
    try:
        contents = await asyncio.to_thread(read_backup_contents, args.file)
    except ValueError as exc:
        return _fail(f"{args.file}: not restored: {exc}.")
    _print_lines(contents.lines())
    if args.dry_run:
        return 0
    result = await restore_backup(library, args.file, restore_settings=args.settings)
    _print_lines(result.lines())
    return 0


def _print_lines(lines: list[str]) -> None:
    for line in lines:
        print(line)


def _fail(text: str) -> int:
    print(f"desktop-agent: {text}", file=sys.stderr)
    return 1
