"""Bridges the Qt-free :class:`ChatService` to the window.

Widgets emit requests (send, stop, retry, new chat); this controller starts the service's
work as tasks it keeps, and turns the service's turn events into Qt signals. Events are
published on the event-loop thread, which is the GUI thread under qasync, so emitting
directly is safe.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from desktop_agent._logging import logger
from desktop_agent.app import (
    ChatService,
    Provider,
    Settings,
    TurnEvent,
    TurnFailed,
    TurnFinished,
    TurnInterrupted,
    TurnStarted,
)
from desktop_agent.message import ContentBlock
from desktop_agent.ui._qt_async import TaskSet


class ChatController(QObject):
    """Runs turns for the window.

    Signals:
        busy_changed(bool): A turn started (True) or ended (False).
        turn_event(object): Every :data:`TurnEvent`, after ``busy_changed``.
    """

    busy_changed = Signal(bool)
    turn_event = Signal(object)

    def __init__(self, service: ChatService) -> None:
        super().__init__()
        self.service = service
        self._tasks = TaskSet()
        self._busy = False
        self._stopping: asyncio.Task[None] | None = None
        self.model_for_chat: Callable[[Provider | None], Provider | None] = lambda p: p
        """Maps the configured provider to the one the chat uses (the header's model)."""
        self.settings_for_chat: Callable[[Settings], Settings] = lambda s: s
        """Maps the settings to the chat's (its assistant's temperature)."""
        service.subscribe(self._on_turn_event)

    @property
    def busy(self) -> bool:
        """Whether a turn is running."""
        return self._busy

    def configure(self, settings: Settings, provider: Provider | None) -> None:
        """Use new settings/provider (with the chat's model) from the next turn on."""
        self.service.configure(self.settings_for_chat(settings), self.model_for_chat(provider))

    def send(self, content: str | list[ContentBlock]) -> None:
        """Send the user's message (ignored while a turn runs or without a provider).

        Right after a stop the window is already idle while the agent finishes its
        interrupted reply (milliseconds); a message sent then waits for that.
        """
        if self._stopping is not None and not self._stopping.done():
            self._tasks.spawn(self._send_after(self._stopping, content), "chat-send-after-stop")
            return
        try:
            self.service.send(content)
        except RuntimeError as exc:
            logger.info("Not sending: %s", exc)

    def stop(self) -> None:
        """Stop the running turn (Stop button, Esc); the window is idle at once."""
        if not self.service.busy or (self._stopping is not None and not self._stopping.done()):
            return
        self._stopping = self._tasks.spawn(self.service.stop(), "chat-stop")
        self._set_busy(False)

    async def _send_after(self, stopping: asyncio.Task[None], content: Any) -> None:
        await asyncio.wait({stopping})
        self.send(content)

    def retry(self) -> None:
        """Re-run the failed turn (the error bubble's Retry)."""
        try:
            self.service.retry()
        except RuntimeError as exc:
            logger.info("Not retrying: %s", exc)

    def continue_answer(self) -> None:
        """Ask the model to go on with its cut-off answer (the answer's Continue)."""
        try:
            self.service.continue_answer()
        except RuntimeError as exc:
            logger.info("Not continuing: %s", exc)

    def new_chat(self) -> None:
        """Start a fresh conversation."""
        self._tasks.spawn(self.service.new_conversation(), "chat-new")

    async def aclose(self) -> None:
        """Cancel everything (a running turn included) and close the model client."""
        await self._tasks.cancel_all()
        await self.service.aclose()

    def _on_turn_event(self, event: TurnEvent) -> None:
        self._set_busy(isinstance(event, TurnStarted))
        self.turn_event.emit(event)

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busy_changed.emit(busy)


def describe_state(event: Any) -> str:
    """The status line's state caption for a turn event."""
    if isinstance(event, TurnStarted):
        if event.continuation:
            return QCoreApplication.translate("ChatController", "Continuing…")
        if event.retry:
            return QCoreApplication.translate("ChatController", "Retrying…")
        return QCoreApplication.translate("ChatController", "Answering…")
    if isinstance(event, TurnFinished):
        if event.cut_off:
            return QCoreApplication.translate(
                "ChatController", "Answer cut off — Retry or Continue"
            )
        if event.at_token_limit:
            return QCoreApplication.translate(
                "ChatController", "Stopped at the token limit — Continue available"
            )
        if event.finish_reason == "content_filter":
            return QCoreApplication.translate("ChatController", "Stopped by the content filter")
        return QCoreApplication.translate("ChatController", "Ready")
    if isinstance(event, TurnInterrupted):
        return QCoreApplication.translate("ChatController", "Stopped")
    if isinstance(event, TurnFailed):
        if event.retryable:
            return QCoreApplication.translate("ChatController", "Error — Retry available")
        return QCoreApplication.translate("ChatController", "Error")
    return ""
