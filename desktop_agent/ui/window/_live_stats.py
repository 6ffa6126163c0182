"""The status line's figures while an answer streams, and the last answer's afterwards:
"42 tok/s · 0.4 s to first token · 310 in · 512 out · 2.1 s" (read from the chat service's
stats recorder a few times a second while a turn runs)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QTimer

from desktop_agent.app import ChatService, TurnFailed, TurnStarted
from desktop_agent.ui.window._status_line import StatusLine

REFRESH_MS = 250


class LiveStats(QObject):
    """Keeps ``status``'s usage caption current from ``service.turn_stats``."""

    def __init__(self, service: ChatService, status: StatusLine) -> None:
        super().__init__(status)
        self._service = service
        self._status = status
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.show_now)

    def on_turn_event(self, event: object) -> None:
        """Start refreshing when a turn starts; show the final figures when it ends."""
        if isinstance(event, TurnStarted):
            self._status.usage_label.setText(
                QCoreApplication.translate("LiveStats", "Waiting for the first token…")
            )
            self.timer.start()
            return
        self.timer.stop()
        if not isinstance(event, TurnFailed):
            self.show_now()

    def show_now(self) -> None:
        """Show the current figures (nothing before the first turn)."""
        stats = self._service.turn_stats
        if stats is not None and (stats.first_token is not None or stats.output_tokens):
            self._status.usage_label.setText(stats.summary())
