"""Every text a user sees goes through the translation system (issue 21).

A pseudo language (``scripts/i18n.py pseudo``: every message of the sources wrapped in
``⟦…⟧``) is installed the way the app installs a language, then each SURFACE is built and
every visible widget walked: label and button texts, window titles, placeholders, combo
items, tab texts, group box titles, spin box prefixes/suffixes, menu titles and action
texts, tooltips, item-view headers and rows. A text without ``⟦`` was not translated and
the test lists it as ``surface: WidgetClass/objectName: 'text'``.

Not checked (exempt):

- empty text and text without letters (digits, "▾", "×", "42 tok/s" is NOT exempt);
- key sequences ("Ctrl+N", "F1"; a lone key name like "Esc" only in a label);
- Qt's own standard buttons (OK, Cancel… of a ``QDialogButtonBox``/``QMessageBox``, and a
  message box's "Show Details...": Qt's ``qtbase_<lang>.qm`` translates them) and everything
  inside a ``QFileDialog`` except its title; URLs, paths, JSON and identifiers
  (``get_time``, ``llama.cpp``, ``test-model``); product names (Desktop Agent, OpenAI,
  Ollama, MCP, JSON, Markdown);
- **user or model data**: a widget showing it (a chat title, a model name, a message)
  is marked with the dynamic property ``i18n_data``::

      label.setProperty("i18n_data", True)

  Its own texts (text, tooltip, items of a combo or view) are then skipped; its children
  are still checked. Mark exactly the widgets whose text is data, nothing wider.

Run one surface: ``pytest tests/ui/i18n -k settings``; with ``PSEUDO_DUMP=1`` and ``-s``
every text seen is printed. A new dialog gets a surface here.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _pseudo_walk import untranslated, untranslated_in_every_tab, untranslated_menu
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

import desktop_agent.ui._i18n as ui_i18n
from desktop_agent.app import AgentState
from desktop_agent.app.library import SessionLibrary
from desktop_agent.message import Msg
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall, text_pdf
from desktop_agent.ui.chat._document_chip import DocumentPartView
from desktop_agent.ui.permissions import PermissionDialog
from desktop_agent.ui.settings._data_page import DataPage
from desktop_agent.ui.window import DesktopApp

ROOT = Path(__file__).resolve().parents[3]
WAIT = 10.0


@pytest.fixture(scope="session")
def pseudo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the pseudo language as ``desktop_agent_en.qm`` (built once)."""
    folder = tmp_path_factory.mktemp("pseudo-i18n")
    script = ROOT / "scripts" / "i18n.py"
    qm = folder / "desktop_agent_en.qm"
    subprocess.run([sys.executable, str(script), "pseudo", str(qm)], check=True, cwd=ROOT)
    return folder


@pytest.fixture
def pseudo(pseudo_dir: Path, monkeypatch: pytest.MonkeyPatch, qapp: QApplication) -> Iterator[None]:
    """The pseudo language installed as the app installs one (a DesktopApp re-installs it)."""
    monkeypatch.setattr(ui_i18n, "translations_dir", lambda: pseudo_dir)
    monkeypatch.setenv(ui_i18n.LANGUAGE_ENV, "en")
    ui_i18n.install_language()
    assert QCoreApplication.translate("Sidebar", "Trash").startswith("⟦"), "pseudo not installed"
    yield
    ui_i18n.remove_translations()


@dataclass
class Ctx:
    qtbot: QtBot
    server: OpenAICompatServer
    home: Path
    wait_until: Callable[..., Awaitable[None]]
    opened: list[DesktopApp]

    async def desktop(self, *, provider: bool = True) -> DesktopApp:
        """A started window (on the loopback server unless ``provider`` is False)."""
        environ = (
            {
                "OPENAI_BASE_URL": self.server.base_url,
                "OPENAI_API_KEY": "sk-pseudo",
                "DESKTOP_AGENT_MODEL": "test-model",
            }
            if provider
            else {}
        )
        app = DesktopApp(environ=environ, local_servers=[])
        self.opened.append(app)
        self.qtbot.addWidget(app.window)
        await app.start()
        await self.wait_until(lambda: app.sessions.is_ready, timeout=WAIT)
        return app

    async def send(self, app: DesktopApp, text: str) -> None:
        """Type ``text``, press Enter, wait for the turn to end."""
        ended = asyncio.get_running_loop().create_future()

        def on_event(event: object) -> None:
            ending = type(event).__name__ in {"TurnFinished", "TurnFailed", "TurnInterrupted"}
            if ending and not ended.done():
                ended.set_result(event)

        app.chat.turn_event.connect(on_event)
        self.qtbot.keyClicks(app.window.composer.input, text)
        self.qtbot.keyClick(app.window.composer.input, Qt.Key.Key_Return)
        await asyncio.wait_for(ended, WAIT)
        app.chat.turn_event.disconnect(on_event)


@pytest.fixture
async def ctx(
    qtbot: QtBot, pseudo: None, desktop_agent_home: Path, wait_until: Any
) -> AsyncIterator[Ctx]:
    with OpenAICompatServer() as server:
        context = Ctx(qtbot, server, desktop_agent_home, wait_until, [])
        yield context
        for app in context.opened:
            await app.aclose()


async def _saved_chat(home: Path, texts: list[str], title: str) -> str:
    library = SessionLibrary(home)
    state = AgentState("You are a test.")
    for number, text in enumerate(texts):
        if number % 2 == 0:
            await state.memory.add(Msg("User", text, "user"))
        else:
            await state.memory.add(Msg("Assistant", text, "assistant"))
    session_id = await library.create(title=title, model="test-model")
    await library.save(session_id, agent=state)
    await library.close_all()
    return session_id


async def _settle() -> None:
    """Let queued layout and show events run (never processEvents inside a coroutine)."""
    await asyncio.sleep(0.05)


# --- the surfaces ---------------------------------------------------------------------


async def main_window(c: Ctx) -> list[str]:
    app = await c.desktop(provider=False)
    await c.wait_until(lambda: app.window.first_run_shown, timeout=WAIT)
    await _settle()
    return untranslated("main_window", app.window)


async def main_window_with_chat(c: Ctx) -> list[str]:
    app = await c.desktop()
    c.server.add_reply(
        ScriptedReply(
            reasoning="The user wants a list.",
            tool_calls=[ScriptedToolCall("no_such_tool", {"path": "."})],
        ),
        ScriptedReply("Here it is.", usage={"prompt_tokens": 31, "completion_tokens": 8}),
    )
    await c.send(app, "List my files")
    c.server.add_reply(ScriptedReply.error(400, "The model is unavailable"))
    await c.send(app, "Again please")
    app.chat_view.flush()
    await _settle()
    return untranslated("main_window_with_chat", app.window)


async def sidebar_menu(c: Ctx) -> list[str]:
    session_id = await _saved_chat(c.home, ["Plan a trip", "Start in Lisbon."], "Trip")
    app = await c.desktop()
    sidebar = app.window.sidebar
    row = sidebar.model.row_of(session_id)
    assert row is not None
    menu = sidebar.context_menu(sidebar.model.index(row))
    try:
        return untranslated_menu("sidebar_menu", menu)
    finally:
        menu.deleteLater()


async def settings(c: Ctx) -> list[str]:
    app = await c.desktop()
    dialog = app.settings.open_dialog()
    await c.wait_until(dialog.isVisible, timeout=WAIT)
    await _settle()
    try:
        return untranslated_in_every_tab("settings", dialog)
    finally:
        dialog.reject()


async def template_editor(c: Ctx) -> list[str]:
    app = await c.desktop()
    editor = app.template_editor.open()
    await c.wait_until(editor.isVisible, timeout=WAIT)
    await _settle()
    try:
        return untranslated_in_every_tab("template_editor", editor)
    finally:
        editor.close()


async def template_editor_dialogs(c: Ctx) -> list[str]:
    app = await c.desktop()
    editor = app.template_editor.open()
    await c.wait_until(editor.isVisible, timeout=WAIT)
    dialogs = editor.dialogs
    problems: list[str] = []
    for ask in (
        lambda: dialogs.ask_save_name("My template"),
        lambda: dialogs.confirm_delete("My template"),
        lambda: dialogs.ask_unapplied(lambda: None, lambda: None),
        lambda: dialogs.choose_export("My template"),
    ):
        ask()
        dialog = dialogs.dialog
        assert dialog is not None
        await c.wait_until(dialog.isVisible, timeout=WAIT)
        await _settle()
        problems += untranslated("template_editor_dialogs", dialog)
        dialog.reject()
    editor.close()
    return problems


async def permission_dialog(c: Ctx) -> list[str]:
    app = await c.desktop()
    dialogs: list[PermissionDialog] = []
    app.permissions.dialog_opened.connect(dialogs.append)
    call = ScriptedToolCall("execute_python_code", {"code": "print(1)"})
    c.server.add_reply(ScriptedReply(tool_calls=[call]), "Not run.")
    sent = asyncio.ensure_future(c.send(app, "run it"))
    await c.wait_until(lambda: bool(dialogs), timeout=WAIT)
    await _settle()
    try:
        return untranslated("permission_dialog", dialogs[0])
    finally:
        dialogs[0].deny_button.click()
        await sent


async def assistant_editor(c: Ctx) -> list[str]:
    app = await c.desktop()
    editor = app.assistants.open_editor()
    await c.wait_until(editor.isVisible, timeout=WAIT)
    await _settle()
    try:
        return untranslated_in_every_tab("assistant_editor", editor)
    finally:
        editor.reject()


async def chat_params_dialog(c: Ctx) -> list[str]:
    app = await c.desktop()
    dialog = app.open_chat_params()
    await c.wait_until(dialog.isVisible, timeout=WAIT)
    await _settle()
    try:
        return untranslated("chat_params_dialog", dialog)
    finally:
        dialog.reject()


async def model_picker(c: Ctx) -> list[str]:
    app = await c.desktop()
    picker = app.window.model_picker
    await c.wait_until(picker.isEnabled, timeout=WAIT)
    c.qtbot.mouseClick(picker, Qt.MouseButton.LeftButton)
    popup = picker.popup
    await c.wait_until(lambda: popup.isVisible() and popup.list.count() > 1, timeout=WAIT)
    await _settle()
    try:
        return untranslated("model_picker", picker) + untranslated("model_picker", popup)
    finally:
        popup.hide()


async def shortcut_overlay(c: Ctx) -> list[str]:
    app = await c.desktop()
    app.window.toggle_shortcut_overlay()
    overlay = app.window.shortcut_overlay
    await c.wait_until(overlay.isVisible, timeout=WAIT)
    await _settle()
    return untranslated("shortcut_overlay", overlay)


async def trash_preview(c: Ctx) -> list[str]:
    gone = await _saved_chat(c.home, ["Plan a trip to Lisbon", "Start at Alfama."], "Lisbon")
    app = await c.desktop()
    window, sidebar = app.window, app.window.sidebar
    sidebar.delete_requested.emit(gone)
    await c.wait_until(lambda: sidebar.model.row_of(gone) is None, timeout=WAIT)
    c.qtbot.mouseClick(sidebar.trash_button, Qt.MouseButton.LeftButton)
    await c.wait_until(lambda: sidebar.model.row_of(gone) is not None, timeout=WAIT)
    sidebar.trashed_session_clicked.emit(gone)
    await c.wait_until(lambda: window.trash_preview_shown, timeout=WAIT)
    await _settle()
    row = sidebar.model.row_of(gone)
    assert row is not None
    menu = sidebar.context_menu(sidebar.model.index(row))  # Restore
    try:
        return untranslated("trash_preview", window) + untranslated_menu("trash_preview", menu)
    finally:
        menu.deleteLater()


async def export_dialog(c: Ctx) -> list[str]:
    session_id = await _saved_chat(c.home, ["Plan a trip", "Start in Lisbon."], "Trip")
    app = await c.desktop()
    dialog = app.export.export(session_id, "Trip")
    await c.wait_until(dialog.isVisible, timeout=WAIT)
    try:
        return untranslated("export_dialog", dialog)
    finally:
        dialog.reject()


async def attachments(c: Ctx) -> list[str]:
    """Document chips in the composer (read, and refused), in the chat, and the preview."""
    app = await c.desktop()
    composer = app.window.composer
    paper, broken = c.home / "paper.pdf", c.home / "broken.pdf"
    paper.write_bytes(text_pdf(["Page one text", "Page two text"]))
    broken.write_bytes(b"not a PDF at all")
    composer.add_files([paper, broken])
    for chip in composer.document_chips():
        chip.wait()
    await _settle()
    problems = untranslated("attachments", composer)
    for chip in composer.document_chips():
        if chip.state == "failed":
            composer.remove_attachment(chip)
    c.server.add_reply(ScriptedReply("Page two says: Page two text."))
    await c.send(app, "What is on page two?")
    app.chat_view.flush()
    await _settle()
    (shown, *_) = app.chat_view.findChildren(DocumentPartView)
    problems += untranslated("attachments", shown)
    preview = shown.open_preview()
    assert preview is not None
    await c.wait_until(preview.isVisible, timeout=WAIT)
    try:
        return problems + untranslated("attachments", preview)
    finally:
        preview.close()


async def data_page(c: Ctx) -> list[str]:
    """Settings → Data after a backup, and the question before restoring it."""
    await _saved_chat(c.home, ["Plan a trip", "Start in Lisbon."], "Trip")
    app = await c.desktop()
    dialog = app.settings.open_dialog()
    (page,) = dialog.findChildren(DataPage)
    dialog.tabs.setCurrentWidget(page)
    reports: list[str] = []
    page.finished.connect(reports.append)
    backup = c.home / "backup.zip"
    await _answer_file_dialog(page.choose_backup_file(), backup)
    await c.wait_until(lambda: bool(reports), timeout=WAIT)
    problems = untranslated("data_page", dialog)
    asked: list[QWidget] = []
    page.dialog_opened.connect(asked.append)
    await _answer_file_dialog(page.choose_restore_file(), backup)
    await c.wait_until(lambda: bool(asked), timeout=WAIT)
    await _settle()
    problems += untranslated("data_page", asked[-1])
    asked[-1].reject()  # cancelled: nothing restored
    await c.wait_until(lambda: len(reports) == 2, timeout=WAIT)
    problems += untranslated("data_page", dialog)
    dialog.reject()
    return problems


async def _answer_file_dialog(dialog: QFileDialog, path: Path) -> None:
    """Type ``path`` into a (Qt, not native) file dialog and accept, as a user does."""
    dialog.setDirectory(str(path.parent))
    name_box = dialog.findChild(QLineEdit, "fileNameEdit")
    assert name_box is not None
    name_box.setText(path.name)
    dialog.accept()


async def find_bar(c: Ctx) -> list[str]:
    app = await c.desktop()
    c.server.add_reply(ScriptedReply("Start in Lisbon."))
    await c.send(app, "Plan a trip")
    bar = app.chat_view.find_bar
    bar.open_bar()
    bar.search_now("nowhere to be found")
    await c.wait_until(lambda: not bar.searching and bar.count_label.text() != "", timeout=WAIT)
    problems = untranslated("find_bar", bar)
    bar.search_now("Lisbon")
    await c.wait_until(lambda: not bar.searching and bool(bar.matches), timeout=WAIT)
    await _settle()
    return problems + untranslated("find_bar", bar)


SurfaceBuilder = Callable[[Ctx], Awaitable[list[str]]]
SURFACES: dict[str, SurfaceBuilder] = {
    builder.__name__: builder
    for builder in (
        main_window,
        main_window_with_chat,
        sidebar_menu,
        settings,
        template_editor,
        template_editor_dialogs,
        permission_dialog,
        assistant_editor,
        chat_params_dialog,
        model_picker,
        shortcut_overlay,
        trash_preview,
        export_dialog,
        find_bar,
        attachments,
        data_page,
    )
}


@pytest.mark.parametrize("surface", list(SURFACES))
async def test_every_visible_text_is_translated(surface: str, ctx: Ctx) -> None:
    problems = await SURFACES[surface](ctx)
    assert not problems, f"{len(problems)} untranslated text(s):\n" + "\n".join(problems)
