"""Owns the app's MCP servers for the window: the Tools tab, statuses, start and stop.

The servers (:class:`~desktop_agent.app.McpServers`) are shared by every chat. They start
when a chat's agent is first built (``ChatService``), when the user adds one on the Tools
tab, or at launch when the setting says so — always on the MCP thread, never blocking the
GUI. Statuses come back on the GUI loop and go to the open Tools tab; a change in what
servers offer marks the chat's agent for a rebuild at its next turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSize, Signal
from shiboken6 import isValid

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent._logging import logger
from desktop_agent.app import ChatService, McpServers, McpServerStatus, Settings
from desktop_agent.ui._qt_async import TaskSet
from desktop_agent.ui.settings._settings_controller import SettingsController
from desktop_agent.ui.settings._settings_dialog import SettingsDialog

if TYPE_CHECKING:
    from desktop_agent.app import McpServerConfig
    from desktop_agent.ui.settings._tools_page import ToolsPage

TOOLS_TAB = QT_TRANSLATE_NOOP("SettingsDialog", "Tools")
DIALOG_SIZE = QSize(780, 640)


class ToolsController(QObject):
    """The Tools tab and the lifetime of the MCP servers.

    Args:
        servers: The shared servers.
        settings: The settings controller (the tab is added to its dialog).
        service: The chat service whose agent gets the servers' tools.
    """

    status_changed = Signal(object)
    """A server's new :class:`McpServerStatus` (on the GUI thread)."""

    def __init__(
        self, servers: McpServers, settings: SettingsController, service: ChatService
    ) -> None:
        super().__init__()
        self.servers = servers
        self._settings = settings
        self._service = service
        self._tasks = TaskSet()
        self._page: ToolsPage | None = None
        self._unsubscribe: object = None
        self._known: dict[str, McpServerConfig] = {s.name: s for s in servers.configs}
        settings.add_page_factory(TOOLS_TAB, self._make_page)
        settings.settings_changed.connect(self._on_settings)
        settings.dialog_opened.connect(self._on_dialog)

    @property
    def page(self) -> ToolsPage | None:
        """The Tools tab of the open Settings dialog, if any."""
        return self._page if self._page is not None and isValid(self._page) else None

    def start(self) -> None:
        """Listen to statuses; start the enabled servers now if the setting says so."""
        if self._unsubscribe is None:
            self._unsubscribe = self.servers.subscribe(self._on_status)
        if self._settings.settings.mcp_start_at_launch:
            self._tasks.spawn(self.servers.start(), "mcp-start-at-launch")

    async def aclose(self) -> None:
        """Stop every server (no process is left behind)."""
        await self._tasks.cancel_all()
        await self.servers.aclose()

    # -- the tab -------------------------------------------------------------------------

    def _make_page(self) -> ToolsPage:
        from desktop_agent.ui.settings._tools_page import ToolsPage  # not needed at start-up

        page = ToolsPage()
        for status in self.servers.statuses():
            page.show_status(status)
        page.servers_changed.connect(self._on_edited)
        page.restart_requested.connect(self._restart)
        self._page = page
        return page

    def _on_dialog(self, dialog: SettingsDialog) -> None:
        dialog.rejected.connect(self._on_cancelled)
        size = dialog.size().expandedTo(DIALOG_SIZE)  # room for the server list and details
        dialog.resize(size)

    def _on_cancelled(self) -> None:
        """Cancel: the servers go back to the saved configuration."""
        self._adopt(self._settings.settings.mcp_servers)

    def _on_edited(self, servers: list[McpServerConfig]) -> None:
        """An edit on the tab: applied at once, so new servers start and show their tools."""
        self._adopt(servers)

    def _on_settings(self, settings: Settings) -> None:
        self._adopt(settings.mcp_servers)

    def _adopt(self, servers: list[McpServerConfig]) -> None:
        fresh = [s.name for s in servers if s.enabled and not _same(self._known.get(s.name), s)]
        self._known = {s.name: s for s in servers}
        self.servers.configure(servers)
        self._mark_agent_stale()
        if fresh:
            self._tasks.spawn(self.servers.start(fresh, retry_failed=True), "mcp-start")

    def _restart(self, name: str) -> None:
        if name in self._known and self._known[name].enabled:
            self._tasks.spawn(self.servers.restart(name), f"mcp-restart-{name}")

    # -- statuses ------------------------------------------------------------------------

    def _on_status(self, status: McpServerStatus) -> None:
        page = self.page
        if page is not None:
            page.show_status(status)
        if status.state != "starting":
            self._mark_agent_stale()
        self.status_changed.emit(status)
        if status.state == "failed":
            logger.info("MCP server %r failed to start.", status.name)

    def _mark_agent_stale(self) -> None:
        """The next turn rebuilds the agent with the tools the servers offer now."""
        self._service.configure(self._service.settings, self._service.provider)


def _same(before: McpServerConfig | None, after: McpServerConfig) -> bool:
    return before is not None and before.enabled and before.same_connection(after)
