"""``SessionsController``: the sidebar's requests become ``SessionSwitcher`` work.

It owns the tasks (named, kept by a ``TaskSet``), asks the non-blocking questions
(``open()`` + a future: delete, stop-and-switch, empty the trash), and turns the
switcher's events into what the window shows: the active row, a warning banner when a
save fails (the conversation keeps working in memory), the read-only banner of a session
open in another window, the problem panel of a damaged session, and the model caption.

Model choice on restore: the app keeps the current provider and its model (another
model may not exist on this server); when the session was last saved with a different
model, the status line says so ("gpt-4o · OpenAI (this session used llama3)") until the
next turn, which records the current model in the session.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from PySide6.QtWidgets import QAbstractButton, QMessageBox

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent._logging import logger
from desktop_agent.app import (
    ActiveSessionChanged,
    AutosaveFailed,
    AutosaveRecovered,
    Provider,
    SessionSwitcher,
    TurnStarted,
)
from desktop_agent.ui._plain import sentence
from desktop_agent.ui._qt_async import TaskSet, dialog_result
from desktop_agent.ui.sidebar._model import ListMode, shown_title

if TYPE_CHECKING:
    from desktop_agent.app.library import SessionSummary
    from desktop_agent.ui.window import ChatController, MainWindow

READ_ONLY_TEXT = QT_TRANSLATE_NOOP(
    "SessionsController",
    "This session is open in another desktop-agent window, so it is read-only here: "
    "new messages cannot be saved. Close it there, or start a new chat.",
)
READ_ONLY_REASON = QT_TRANSLATE_NOOP(
    "SessionsController", "This session is read-only here (see the message above the chat)."
)
NO_PROVIDER_REASON = QT_TRANSLATE_NOOP("SessionsController", "Connect a model in Settings first.")
CLOCK_MS = 60_000
SEARCH_LIMIT = 200


class SessionsController(QObject):
    """Runs the sidebar's session work and shows its outcome in the window.

    Signals:
        ready(): The list was filled and the last session reopened (or not) after start.
        rows_loaded(str): The list was filled ("all", "search" or "trash").
        active_changed(object): The chat shows another session (``ActiveSessionChanged``).
        dialog_opened(object): A question was asked (the ``QMessageBox``).
        problem_shown(str): The problem panel shows this session.
    """

    ready = Signal()
    rows_loaded = Signal(str)
    active_changed = Signal(object)
    dialog_opened = Signal(object)
    problem_shown = Signal(str)

    def __init__(self, switcher: SessionSwitcher, window: MainWindow, chat: ChatController) -> None:
        super().__init__()
        self.switcher = switcher
        self.window = window
        self.sidebar = window.sidebar
        self.model = window.sidebar.model
        self.panel = window.session_problem
        self.chat = chat
        self.dialog: QMessageBox | None = None
        self._tasks = TaskSet()
        self._search: asyncio.Task[None] | None = None
        self._started = False
        self.is_ready = False
        self._banner = ""
        self._read_only = False
        self._session_model = ""
        self._deleted_active: str | None = None
        self._clock = QTimer(self)
        self._clock.setInterval(CLOCK_MS)
        self._clock.timeout.connect(self.model.refresh_times)
        self._wire()

    def _wire(self) -> None:
        sidebar = self.sidebar
        sidebar.session_activated.connect(self.activate)
        sidebar.delete_requested.connect(self.delete)
        sidebar.restore_requested.connect(self.restore)
        sidebar.search_changed.connect(self.search)
        sidebar.trash_toggled.connect(self.show_trash)
        sidebar.trashed_session_clicked.connect(self.preview_trashed)
        self.window.trash_restore_requested.connect(self.restore)
        sidebar.empty_trash_requested.connect(self.empty_trash)
        self.model.rename_requested.connect(self.rename)
        self.panel.back_requested.connect(self._hide_problem)
        self.panel.delete_requested.connect(self.delete)
        self.chat.turn_event.connect(self._on_turn_event)
        self.switcher.add_listener(self._on_switcher_event)

    # -- start / stop ----------------------------------------------------------------

    def start(self) -> None:
        """Open the library, fill the list, reopen the last session (after first paint)."""
        if self._started or not _loop_running():
            return  # no loop: a window painted after its app's loop ended (tests)
        self._started = True
        self._clock.start()
        self._tasks.spawn(self._start(), "sessions-start")

    async def _start(self) -> None:
        try:
            rows = await self.switcher.start()
            if self.model.mode == "all" and not self.sidebar.search.text().strip():
                self._show_rows(rows, "all")
            await self.switcher.reopen_last()
        finally:
            self.is_ready = True
            self.ready.emit()

    async def aclose(self) -> None:
        """Stop background work, save the active session and close the library."""
        self._started = True  # a first paint after this (while the app closes) starts nothing
        self._clock.stop()
        await self._tasks.cancel_all()
        await self.switcher.aclose()

    # -- opening ---------------------------------------------------------------------

    def activate(self, session_id: str) -> None:
        """Show a session (asking first if a reply is being written)."""
        self._tasks.spawn(self._activate(session_id), "sessions-open")

    async def _activate(self, session_id: str) -> None:
        from desktop_agent.app.library import SessionError  # the library loads after first paint

        query = self.model.search_query  # a search hit opens at its match
        if session_id == self.switcher.active_id:
            self._hide_problem()
            self._reveal(query)
            return
        if not await self._stopped_if_busy():
            self._select_active()
            return
        try:
            await self.switcher.open(session_id)
        except SessionError as exc:
            self._show_problem(session_id, exc)
        except RuntimeError as exc:  # a turn started meanwhile
            logger.info("Not switching sessions: %s", exc)
        else:
            self._reveal(query)

    def _reveal(self, query: str) -> None:
        reveal = getattr(self.window.chat_view, "reveal_match", None)
        if query and callable(reveal):
            reveal(query)

    def new_chat(self) -> None:
        """Start an empty chat (asking first if a reply is being written)."""
        self._tasks.spawn(self._new_chat(), "sessions-new-chat")

    async def _new_chat(self) -> None:
        if not await self._stopped_if_busy():
            return
        await self.switcher.new_chat()
        composer = self.window.composer
        composer.clear()
        composer.input.setFocus()

    async def _stopped_if_busy(self) -> bool:
        """Idle already, or the user chose to stop the running reply (then stopped)."""
        service = self.switcher.service
        if not service.busy:
            return True
        box = QMessageBox(
            QMessageBox.Icon.Question,
            QCoreApplication.translate("SessionsController", "Stop the reply?"),
            "",
            parent=self.window,
        )
        box.setText(
            QCoreApplication.translate("SessionsController", "A reply is still being written.")
        )
        box.setInformativeText(
            QCoreApplication.translate(
                "SessionsController", "Stop it and switch? What was written so far is kept."
            )
        )
        stop = box.addButton(
            QCoreApplication.translate("SessionsController", "Stop && switch"),
            QMessageBox.ButtonRole.AcceptRole,
        )
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(stop)
        if not await self._ask(box, stop):
            return False
        await service.stop()
        return True

    def _select_active(self) -> None:
        active = self.switcher.active_id
        if active is not None:
            self.sidebar.scroll_to(active)
        else:
            self.sidebar.list.clearSelection()

    # -- managing --------------------------------------------------------------------

    def delete(self, session_id: str) -> None:
        """Move a session to the trash at once: Undo and the Trash bring it back, so no
        question is asked first (a reply being written in it is stopped)."""
        self._tasks.spawn(self._delete(session_id), "sessions-delete")

    async def _delete(self, session_id: str) -> None:
        from desktop_agent.app.library import SessionError  # the library loads after first paint

        title = self._title_of(session_id)
        try:
            was_active = await self.switcher.delete(session_id)
        except SessionError as exc:
            self._show_banner(exc.message)
            return
        self._deleted_active = session_id if was_active else None
        if self.panel.session_id == session_id:
            self._hide_problem()
        self.sidebar.show_deleted(session_id, title)

    def restore(self, session_id: str) -> None:
        """Bring a session back from the trash (Undo, or Restore in the trash)."""
        self._tasks.spawn(self._restore(session_id), "sessions-restore")

    async def _restore(self, session_id: str) -> None:
        from desktop_agent.app.library import SessionError  # the library loads after first paint

        try:
            await self.switcher.restore(session_id)
        except SessionError as exc:
            self._show_banner(exc.message)
            return
        if self.sidebar.undo_bar.session_id == session_id:
            self.sidebar.undo_bar.hide()
        if self.window.trash_preview_shown and self.window.trash_preview.session_id == session_id:
            self.window.show_trash_preview(False)
            self.sidebar.trash_button.setChecked(False)  # back to the sessions, and open it
            await self._activate(session_id)
            return
        if self.sidebar.in_trash:
            await self._show_trash(True)
        if session_id == self._deleted_active and self.switcher.fresh:
            self._deleted_active = None
            await self._activate(session_id)

    def rename(self, session_id: str, title: str) -> None:
        """Give a session the title typed inline."""
        self._tasks.spawn(self._rename(session_id, title), "sessions-rename")

    async def _rename(self, session_id: str, title: str) -> None:
        from desktop_agent.app.library import SessionError  # the library loads after first paint

        try:
            await self.switcher.rename(session_id, title)
        except (SessionError, ValueError) as exc:
            self._show_banner(
                QCoreApplication.translate(
                    "SessionsController", "The session could not be renamed: {error}"
                ).format(error=exc)
            )
            await self._reload()

    def empty_trash(self) -> None:
        """Ask, then delete the trash for good."""
        self._tasks.spawn(self._empty_trash(), "sessions-empty-trash")

    async def _empty_trash(self) -> None:
        from desktop_agent.app.library import SessionError  # the library loads after first paint

        box = QMessageBox(
            QMessageBox.Icon.Warning,
            QCoreApplication.translate("SessionsController", "Empty trash"),
            "",
            parent=self.window,
        )
        box.setText(
            QCoreApplication.translate(
                "SessionsController", "Delete the sessions in the trash for good?"
            )
        )
        box.setInformativeText(
            QCoreApplication.translate("SessionsController", "This cannot be undone.")
        )
        empty = box.addButton(
            QCoreApplication.translate("SessionsController", "Empty trash"),
            QMessageBox.ButtonRole.DestructiveRole,
        )
        box.addButton(QMessageBox.StandardButton.Cancel)
        if not await self._ask(box, empty):
            return
        try:
            await self.switcher.empty_trash()
        except SessionError as exc:
            self._show_banner(exc.message)
        self.sidebar.undo_bar.hide()
        await self._show_trash(True)

    # -- listing ---------------------------------------------------------------------

    def search(self, text: str) -> None:
        """Show the sessions matching ``text`` (all of them when it is empty)."""
        if self._search is not None:
            self._search.cancel()
        self._search = self._tasks.spawn(self._run_search(text), "sessions-search")

    async def _run_search(self, text: str) -> None:
        if not text:
            self.sidebar.set_status("")
            self._show_rows(await self.switcher.list_sessions(), "all")
            return
        self.sidebar.set_status(QCoreApplication.translate("SessionsController", "Searching…"))
        rows = await self.switcher.search(text, limit=SEARCH_LIMIT)
        self._show_rows(rows, "search", text)
        self.sidebar.set_status(
            ""
            if rows
            else QCoreApplication.translate(
                "SessionsController", "No sessions match “{text}”."
            ).format(text=text)
        )

    def show_trash(self, shown: bool) -> None:
        """Show the trash, or the sessions again."""
        if not shown:
            self.window.show_trash_preview(False)
        self._tasks.spawn(self._show_trash(shown), "sessions-trash")

    def preview_trashed(self, session_id: str) -> None:
        """Show a deleted session read-only, with Restore (a click in the Trash)."""
        self._tasks.spawn(self._preview_trashed(session_id), "sessions-trash-preview")

    async def _preview_trashed(self, session_id: str) -> None:
        from desktop_agent.app.library import SessionError  # the library loads after first paint

        title = self._title_of(session_id)
        try:
            messages = await self.switcher.trashed_messages(session_id)
        except SessionError as exc:
            self._show_banner(
                QCoreApplication.translate(
                    "SessionsController", "“{title}” cannot be shown: {error}"
                ).format(title=title, error=sentence(exc.message))
            )
            return
        self.window.trash_preview.set_theme(bool(getattr(self.window.chat_view, "dark", False)))
        self.window.trash_preview.show_session(session_id, title, messages)
        self.window.show_trash_preview(True)

    async def _show_trash(self, shown: bool) -> None:
        if not shown:
            await self._run_search(self.sidebar.search.text().strip())
            return
        rows = await self.switcher.list_trash()
        self._show_rows(rows, "trash")
        self.sidebar.set_status(
            "" if rows else QCoreApplication.translate("SessionsController", "The trash is empty.")
        )

    async def _reload(self) -> None:
        if self.sidebar.in_trash:
            await self._show_trash(True)
        else:
            await self._run_search(self.sidebar.search.text().strip())

    def _show_rows(self, rows: list[SessionSummary], mode: ListMode, query: str = "") -> None:
        self.model.set_rows(rows, mode, query)
        self.rows_loaded.emit(mode)

    # -- events ----------------------------------------------------------------------

    def _on_switcher_event(self, event: Any) -> None:
        if isinstance(event, ActiveSessionChanged):
            self._on_active(event)
        elif isinstance(event, AutosaveFailed):
            self._show_banner(event.error.message)
        elif isinstance(event, AutosaveRecovered):
            self._hide_banner()
        else:  # the library's SessionChange
            self.model.apply(event)

    def _on_active(self, event: ActiveSessionChanged) -> None:
        self.window.show_trash_preview(False)
        self.model.set_active(event.session_id)
        self._hide_problem()
        self._hide_banner()
        self._session_model = event.model
        self._set_read_only(event.read_only, event.read_only_reason)
        self.on_provider(self.switcher.service.provider)
        self.window.status_line.set_usage(None)
        if event.session_id is not None:
            self.sidebar.scroll_to(event.session_id)
        else:
            self.sidebar.list.clearSelection()
        self.active_changed.emit(event)

    def on_provider(self, provider: Provider | None) -> None:
        """Re-apply what the provider change must not undo: read-only, the model caption."""
        if self._read_only:
            self.window.composer.set_can_send(
                False, QCoreApplication.translate("SessionsController", READ_ONLY_REASON)
            )
        if provider is None:
            return
        caption = f"{provider.model} · {provider.name}"
        if self._session_model and self._session_model != provider.model:
            caption = QCoreApplication.translate(
                "SessionsController", "{model} · {provider}  (this session used {session_model})"
            ).format(
                model=provider.model, provider=provider.name, session_model=self._session_model
            )
        self.window.status_line.set_model(caption)

    def _on_turn_event(self, event: object) -> None:
        if isinstance(event, TurnStarted):
            self._hide_problem()
            provider = self.switcher.service.provider
            if provider is not None and self._session_model != provider.model:
                self._session_model = provider.model
                self.on_provider(provider)

    def _set_read_only(self, read_only: bool, reason: str = "") -> None:
        was, self._read_only = self._read_only, read_only
        if read_only:
            self._show_banner(
                reason or QCoreApplication.translate("SessionsController", READ_ONLY_TEXT)
            )
        elif was:
            provider = self.switcher.service.provider
            self.window.composer.set_can_send(
                provider is not None,
                QCoreApplication.translate("SessionsController", NO_PROVIDER_REASON),
            )

    # -- showing ---------------------------------------------------------------------

    def _show_problem(self, session_id: str, error: Any) -> None:
        self.panel.show_problem(
            session_id,
            self._title_of(session_id),
            str(getattr(error, "message", error)),
            str(getattr(error, "path", "")),
            newer=hasattr(error, "schema_version"),
        )
        self.window.show_session_problem(True)
        self.sidebar.scroll_to(session_id)
        self.problem_shown.emit(session_id)

    def _hide_problem(self) -> None:
        self.window.show_session_problem(False)

    def _show_banner(self, text: str) -> None:
        self._banner = text
        self.window.banner.show_text(text)

    def _hide_banner(self) -> None:
        if self._banner and self.window.banner.label.text() == self._banner:
            self.window.banner.hide()
        self._banner = ""

    def _title_of(self, session_id: str) -> str:
        summary = self.model.find(session_id)
        if summary is None:
            return QCoreApplication.translate("SessionsController", "this session")
        return shown_title(summary)

    async def _ask(self, box: QMessageBox, accept: QAbstractButton) -> bool:
        """Show ``box`` without blocking the loop; whether ``accept`` was clicked."""
        self.dialog = box
        answered = dialog_result(box)
        self.dialog_opened.emit(box)
        try:
            await answered
            return box.clickedButton() is accept
        finally:
            self.dialog = None
            box.deleteLater()


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
