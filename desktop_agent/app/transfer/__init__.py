"""Conversations leaving and entering the app: export, import, backup (Qt-free).

- Export a saved session to Markdown, HTML or lossless JSON (PDF is rendered by
  ``desktop_agent.ui.export``, which needs Qt): :func:`read_conversation`, then
  :func:`render`.
- Import our JSON export, AgentScope ``JSONSession`` files and ChatGPT's
  ``conversations.json``: :func:`import_files` returns an :class:`ImportReport`.
- Back up every chat, template and the settings into one archive, and restore it by
  merging: :func:`write_backup`, :func:`read_backup_contents`, :func:`restore_backup`.
- The command line (``desktop-agent list|export|import|backup|restore``): :func:`run_cli`.

Typical use::

    library = SessionLibrary()
    conversation = await read_conversation(library, session_id)
    rendered = await asyncio.to_thread(render, conversation, "markdown")
    report = await import_files(library, ["conversations.json"])
"""

from desktop_agent.app.transfer._backup import (
    BackupContents,
    BackupWritten,
    RestoreResult,
    merge_settings,
    read_backup_contents,
    read_backup_settings,
    restore_backup,
    write_backup,
)
from desktop_agent.app.transfer._cli import add_commands, run_cli
from desktop_agent.app.transfer._document import EXPORT_FORMAT, EXPORT_SCHEMA_VERSION
from desktop_agent.app.transfer._export import (
    FORMATS,
    ExportFormat,
    Rendered,
    default_file_name,
    find_session,
    read_conversation,
    render,
    write_rendered,
)
from desktop_agent.app.transfer._import import (
    Duplicate,
    FileReport,
    ImportedChat,
    ImportReport,
    import_files,
)
from desktop_agent.app.transfer._sources import MAX_IMPORT_BYTES, ImportRefused

# Plain sorted order (tests/test_package.py), not isort's constants-first order.
__all__ = [  # noqa: RUF022
    "BackupContents",
    "BackupWritten",
    "Duplicate",
    "EXPORT_FORMAT",
    "EXPORT_SCHEMA_VERSION",
    "ExportFormat",
    "FORMATS",
    "FileReport",
    "ImportRefused",
    "ImportReport",
    "ImportedChat",
    "MAX_IMPORT_BYTES",
    "Rendered",
    "RestoreResult",
    "add_commands",
    "default_file_name",
    "find_session",
    "import_files",
    "merge_settings",
    "read_backup_contents",
    "read_backup_settings",
    "read_conversation",
    "render",
    "restore_backup",
    "run_cli",
    "write_backup",
    "write_rendered",
]
