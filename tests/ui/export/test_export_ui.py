"""Export… in the window (twice in a row), Copy chat as Markdown, and Settings → Data."""

from __future__ import annotations

import json
import sys
import zipfile
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QLineEdit, QMessageBox
from pytestqt.qtbot import QtBot

from desktop_agent.app.library import SessionLibrary, SessionMeta, data_root
from desktop_agent.app.transfer import import_files, write_backup
from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.settings import DataPage
from desktop_agent.ui.window import DesktopApp

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "app" / "transfer"))
from transfer_helpers import FIXTURES, chat_parts


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


@pytest.fixture
async def desktop(
    qtbot: QtBot, server: OpenAICompatServer, wait_until: Callable[..., Any]
) -> AsyncIterator[DesktopApp]:
    parts = chat_parts()
    await SessionLibrary(data_root()).add(parts, SessionMeta.from_state(parts["meta"]), "chat1")
    environ = {
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": "k",
        "DESKTOP_AGENT_MODEL": "m",
    }
    app = DesktopApp(environ=environ, local_servers=[])
    qtbot.addWidget(app.window)
    await app.start()
    await wait_until(lambda: app.sessions.is_ready, timeout=10)
    app.sessions.activate("chat1")
    await wait_until(lambda: app.sessions.switcher.active_id == "chat1", timeout=10)
    yield app
    await app.aclose()


async def _answer(dialog: QFileDialog, path: Path) -> None:
    """Type the path into the dialog's file name box and accept, as a user does."""
    dialog.setDirectory(str(path.parent))
    name_box = dialog.findChild(QLineEdit, "fileNameEdit")
    name_box.setText(path.name)  # selectFile() leaves a focused box alone
    dialog.accept()


async def test_export_dialog_works_twice_and_focus_returns(
    desktop: DesktopApp, tmp_path: Path, wait_signal: Callable[..., Any]
) -> None:
    export = desktop.export
    assert [s.key().toString() for s in export.shortcuts] == ["Ctrl+Shift+E"]
    for name in ("chat.md", "chat.html"):
        desktop.window.sidebar.search.setFocus()  # somewhere else than the composer
        opened, written = wait_signal(export.dialog_opened), wait_signal(export.exported, 20)
        export.shortcuts[0].activated.emit()  # Ctrl+Shift+E
        (dialog,) = await opened
        assert dialog.isVisible()
        await _answer(dialog, tmp_path / name)
        assert await written == (str(tmp_path / name),)
        assert export.dialog is None
        assert desktop.window.focusWidget() is desktop.window.composer.input
    markdown = (tmp_path / "chat.md").read_text()
    assert markdown.startswith("# Red pixel & files") and "](chat_files/" in markdown
    assert (tmp_path / "chat_files").is_dir()
    assert "<!DOCTYPE html>" in (tmp_path / "chat.html").read_text()


async def test_export_from_the_row_menu_to_pdf(
    desktop: DesktopApp, tmp_path: Path, wait_signal: Callable[..., Any]
) -> None:
    opened, written = (
        wait_signal(desktop.export.dialog_opened),
        wait_signal(desktop.export.exported, 20),
    )
    desktop.window.sidebar.export_requested.emit("chat1")
    (dialog,) = await opened
    await _answer(dialog, tmp_path / "chat.pdf")
    await written
    assert (tmp_path / "chat.pdf").read_bytes().startswith(b"%PDF")


async def test_copy_chat_as_markdown(desktop: DesktopApp, wait_signal: Callable[..., Any]) -> None:
    copied = wait_signal(desktop.export.copied)
    desktop.window.sidebar.copy_markdown_requested.emit("chat1")
    await copied
    text = QGuiApplication.clipboard().text()
    assert text.startswith("# Red pixel & files") and "*[image]*" in text
    assert "base64" not in text


async def test_data_page_backs_up_and_imports(
    desktop: DesktopApp,
    tmp_path: Path,
    wait_signal: Callable[..., Any],
    wait_until: Callable[..., Any],
) -> None:
    dialog = desktop.settings.open_dialog()
    assert "Data" in dialog.page_titles()
    page = dialog.tabs.widget(dialog.page_titles().index("Data"))
    assert isinstance(page, DataPage)
    done = wait_signal(page.finished, 20)
    await _answer(page.choose_backup_file(), tmp_path / "backup.zip")
    (text,) = await done
    assert "1 chats" in text
    with zipfile.ZipFile(tmp_path / "backup.zip") as archive:
        assert json.loads(archive.read("manifest.json"))["chats"][0]["id"] == "chat1"
    done = wait_signal(page.finished, 20)
    await _answer(page.choose_import_files(), FIXTURES / "chatgpt_conversations.json")
    (text,) = await done
    assert "2 imported" in text and page.status.text() == text
    await wait_until(lambda: desktop.window.sidebar.model.rowCount() == 3)
    # Again, with one new chat beside them: only the duplicates are offered as copies.
    extra = tmp_path / "more.json"
    haiku = json.loads((FIXTURES / "chatgpt_conversations.json").read_text())[1]
    haiku.update(id="new-haiku", conversation_id="new-haiku", title="Another haiku")
    haiku["mapping"]["a"]["message"]["id"] = "a-new"
    extra.write_text(json.dumps([haiku]))
    files = page.choose_import_files()
    asked = wait_signal(page.dialog_opened)
    files.selectFile(str(FIXTURES / "chatgpt_conversations.json"))
    name_box = files.findChild(QLineEdit, "fileNameEdit")
    name_box.setText(f'"{FIXTURES / "chatgpt_conversations.json"}" "{extra}"')
    files.accept()
    (question,) = await asked
    assert question.text() == "2 of these chats are here already."
    done = wait_signal(page.finished, 20)
    next(b for b in question.buttons() if b.text() == "Import copies").click()
    (text,) = await done
    assert "more.json (ChatGPT export): 1 imported" in text and "Copies:" in text
    await wait_until(lambda: desktop.window.sidebar.model.rowCount() == 6)
    dialog.reject()


async def test_exporting_onto_a_file_asks_before_replacing_it(
    desktop: DesktopApp,
    tmp_path: Path,
    wait_signal: Callable[..., Any],
    wait_until: Callable[..., Any],
) -> None:
    export, target = desktop.export, tmp_path / "chat.md"
    target.write_text("keep me")
    for answer in ("Cancel", "Replace"):
        opened = wait_signal(export.dialog_opened)
        export.export_active()
        (dialog,) = await opened
        asked = wait_signal(export.dialog_opened)
        await _answer(dialog, target)
        (question,) = await asked
        assert isinstance(question, QMessageBox) and "chat.md exists already" in question.text()
        button = next(b for b in question.buttons() if b.text().replace("&", "") == answer)
        if answer == "Cancel":
            button.click()
            await wait_until(lambda: export.question is None)
            assert target.read_text() == "keep me"
        else:
            written = wait_signal(export.exported)
            button.click()
            await written
            assert target.read_text().startswith("# Red pixel & files")


async def test_data_page_shows_a_backup_and_restores_it(
    desktop: DesktopApp,
    tmp_path: Path,
    wait_signal: Callable[..., Any],
    wait_until: Callable[..., Any],
) -> None:
    source = SessionLibrary(tmp_path / "elsewhere")
    parts = chat_parts()
    parts["meta"]["updated"] = "2027-01-01T00:00:00.000+00:00"  # newer than the open chat
    await source.add(parts, SessionMeta.from_state(parts["meta"]), "chat1")
    await import_files(source, [FIXTURES / "chatgpt_conversations.json"])
    await write_backup(source, tmp_path / "b.zip", settings_file=tmp_path / "none.json")
    dialog = desktop.settings.open_dialog()
    page = dialog.tabs.widget(dialog.page_titles().index("Data"))
    assert isinstance(page, DataPage)
    file_dialog = page.choose_restore_file()
    asked = wait_signal(page.dialog_opened)
    await _answer(file_dialog, tmp_path / "b.zip")
    (question,) = await asked
    assert isinstance(question, QMessageBox) and "3 chats" in question.text()
    assert "Sorting a list" in question.detailedText()
    done = wait_signal(page.finished, 20)
    next(b for b in question.buttons() if b.text() == "Restore").click()
    (text,) = await done
    assert "2 chats added" in text
    assert "Red pixel & files: it is open in the window" in text  # never replaced under you
    await wait_until(lambda: desktop.window.sidebar.model.rowCount() == 3)
    dialog.reject()


async def test_export_options_leave_thinking_out_and_embed_images(
    desktop: DesktopApp, tmp_path: Path, wait_signal: Callable[..., Any]
) -> None:
    export = desktop.export
    opened, written = wait_signal(export.dialog_opened), wait_signal(export.exported, 20)
    export.export_active()
    (dialog,) = await opened
    assert dialog.findChild(QLineEdit, "fileNameEdit").text() == "Red pixel & files.md"
    assert export.options is not None
    export.options.thinking.setChecked(False)
    export.options.inline_images.setChecked(True)
    await _answer(dialog, tmp_path / "plain.md")
    await written
    text = (tmp_path / "plain.md").read_text()
    assert "Thinking" not in text and "](data:image/png;base64," in text
    assert not (tmp_path / "plain_files").exists()
