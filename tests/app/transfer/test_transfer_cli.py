"""The command line as a subprocess: list, export (every format, pdf without a display), import."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pypdf
import pytest

from desktop_agent.app.library import SessionLibrary, SessionMeta

sys.path.insert(0, str(Path(__file__).parent))
from transfer_helpers import FIXTURES, ROOT, chat_parts


def _run(home: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env["DESKTOP_AGENT_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "desktop_agent", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or ROOT,
        timeout=120,
    )


@pytest.fixture
def home(tmp_path: Path) -> Path:
    root = tmp_path / "home"
    parts = chat_parts()
    asyncio.run(SessionLibrary(root).add(parts, SessionMeta.from_state(parts["meta"]), "chat1"))
    return root


def test_list_and_list_json(home: Path) -> None:
    out = _run(home, "list")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\t")[0] == "chat1" and "Red pixel & files" in out.stdout
    [row] = json.loads(_run(home, "list", "--json").stdout)
    assert row["id"] == "chat1" and row["messages"] == 4 and row["title"] == "Red pixel & files"


def test_export_markdown_to_stdout_by_title(home: Path) -> None:
    out = _run(home, "export", "red pixel & FILES", "--format", "markdown")
    assert out.returncode == 0, out.stderr
    assert out.stdout == (FIXTURES / "chat.md").read_text(encoding="utf-8")


def test_export_html_and_json_to_files(home: Path, tmp_path: Path) -> None:
    assert (
        _run(home, "export", "chat1", "-f", "html", "-o", str(tmp_path / "c.html")).returncode == 0
    )
    assert "<title>Red pixel &amp; files</title>" in (tmp_path / "c.html").read_text()
    assert (
        _run(home, "export", "chat1", "-f", "json", "-o", str(tmp_path / "c.json")).returncode == 0
    )
    assert json.loads((tmp_path / "c.json").read_text())["conversations"][0]["id"] == "chat1"


def test_export_pdf_without_a_display(home: Path, tmp_path: Path) -> None:
    out = _run(home, "export", "chat1", "--format", "pdf", "-o", str(tmp_path / "c.pdf"))
    assert out.returncode == 0, out.stderr
    reader = pypdf.PdfReader(tmp_path / "c.pdf")
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    text = unicodedata.normalize("NFKC", text)  # Qt's layout writes ligatures ("ﬁ")
    assert "Red pixel & files" in text and "Two files: a.txt and b.txt." in text
    assert "list_files" in text


def test_export_unknown_chat_fails_with_a_reason(home: Path) -> None:
    out = _run(home, "export", "nothing like it")
    assert out.returncode == 1 and "No chat has the id or title 'nothing like it'" in out.stderr


def test_import_reports_what_came_in_and_what_not(home: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    out = _run(home, "import", str(FIXTURES / "chatgpt_conversations.json"), str(bad))
    assert out.returncode == 1  # one file refused
    assert "chatgpt_conversations.json (ChatGPT export): 2 imported" in out.stdout
    assert "- Broken: skipped: its message tree is broken" in out.stdout
    assert "bad.json: not imported: it is not JSON" in out.stdout
    again = _run(home, "import", str(FIXTURES / "chatgpt_conversations.json"))
    assert (
        again.returncode == 0 and "0 imported" in again.stdout and "already here as" in again.stdout
    )
    assert len(json.loads(_run(home, "list", "--json").stdout)) == 3


def test_version_and_help_still_work(home: Path) -> None:
    assert _run(home, "--version").stdout.startswith("desktop-agent ")
    assert "export" in _run(home, "--help").stdout


def test_backup_then_restore_elsewhere(home: Path, tmp_path: Path) -> None:
    archive = tmp_path / "b.zip"
    out = _run(home, "backup", str(archive))
    assert out.returncode == 0, out.stderr
    assert "1 chats, 0 templates" in out.stdout
    other = tmp_path / "other"
    dry = _run(other, "restore", str(archive), "--dry-run")
    assert dry.returncode == 0 and "Red pixel & files" in dry.stdout
    assert _run(other, "list").stdout == ""
    done = _run(other, "restore", str(archive))
    assert "Restored: 1 chats added" in done.stdout
    assert _run(other, "list").stdout.startswith("chat1\t")
    bad = _run(other, "restore", str(FIXTURES / "chat.md"))
    assert bad.returncode == 1 and "not restored: it is not a ZIP archive" in bad.stderr
