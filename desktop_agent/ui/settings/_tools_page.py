"""The "Tools" tab of the Settings dialog: MCP servers, their status and their tools.

A passive page. Servers come in as ``mcpServers`` JSON (pasted, or an ``mcp.json`` file);
every edit is announced at once with ``servers_changed`` so that the controller can start
a new server and the user watches it connect, and pick its tools, before saving. Statuses
arrive through :meth:`ToolsPage.show_status`. Text from servers (names, descriptions,
stderr) is shown as plain text.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.app import (
    McpConfigError,
    McpServerConfig,
    McpServerStatus,
    Settings,
    parse_mcp_json,
    to_mcp_json,
)
from desktop_agent.ui._plain import plain_label

INTRO = QT_TRANSLATE_NOOP(
    "ToolsPage",
    "MCP servers give the assistant more tools. Paste the \u201cmcpServers\u201d JSON of "
    "Claude Desktop, Cursor or LM Studio, or import an mcp.json file.",
)
EXAMPLE = (
    '{\n  "mcpServers": {\n    "time": {"command": "uvx", "args": ["mcp-server-time"]}\n  }\n}'
)
_DOTS = {"off": "○", "starting": "◌", "connected": "●", "failed": "✕"}


class ToolsPage(QWidget):
    """Edits ``Settings.mcp_servers`` and ``mcp_start_at_launch``; shows live statuses."""

    servers_changed = Signal(object)
    """The edited server list (``list[McpServerConfig]``)."""
    restart_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumSize(700, 460)
        self._servers: list[McpServerConfig] = []
        self._statuses: dict[str, McpServerStatus] = {}
        self._filling = False
        self._build()

    # -- SettingsPage --------------------------------------------------------------------

    def load(self, settings: Settings) -> None:
        """Show the configured servers."""
        self._servers = list(settings.mcp_servers)
        self.start_at_launch.setChecked(settings.mcp_start_at_launch)
        self._fill_servers()

    def apply(self, settings: Settings) -> Settings:
        """``settings`` with the page's servers."""
        return settings.model_copy(
            update={
                "mcp_servers": list(self._servers),
                "mcp_start_at_launch": self.start_at_launch.isChecked(),
            }
        )

    # -- what the controller and the user do ---------------------------------------------

    @property
    def servers(self) -> list[McpServerConfig]:
        """The servers as edited."""
        return list(self._servers)

    def show_status(self, status: McpServerStatus) -> None:
        """Show a server's new status (in the list and, if selected, in the details)."""
        self._statuses[status.name] = status
        for row in range(self.server_list.count()):
            item = self.server_list.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == status.name:
                self._filling, filling = True, self._filling
                item.setText(_item_text(status, self._enabled(status.name)))
                self._filling = filling
        if self._selected_name() == status.name:
            self._show_details()

    def add_from_json(self, text: str) -> bool:
        """Add (or replace, by name) the servers of an ``mcpServers`` text."""
        try:
            added = parse_mcp_json(text)
        except McpConfigError as exc:
            self.input_error.setText(str(exc))
            return False
        names = {s.name for s in added}
        self._servers = [s for s in self._servers if s.name not in names] + added
        added_text = QCoreApplication.translate("ToolsPage", "Added {names}.").format(
            names=", ".join(sorted(names))
        )
        self.input_error.setText(added_text if names else "")
        self.json_input.clear()
        self._fill_servers(select=added[-1].name if added else None)
        self._announce()
        return True

    def import_file(self, path: str) -> bool:
        """Add the servers of an ``mcp.json`` file."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.input_error.setText(
                QCoreApplication.translate("ToolsPage", "Cannot read {path}: {error}").format(
                    path=path, error=exc
                )
            )
            return False
        return self.add_from_json(text)

    def select_server(self, name: str) -> None:
        """Select server ``name`` in the list."""
        for row in range(self.server_list.count()):
            if self.server_list.item(row).data(Qt.ItemDataRole.UserRole) == name:
                self.server_list.setCurrentRow(row)

    # -- building ------------------------------------------------------------------------

    def _build(self) -> None:
        intro = QLabel(QCoreApplication.translate("ToolsPage", INTRO))
        intro.setWordWrap(True)
        intro.setObjectName("caption")
        self.server_list = QListWidget()
        self.server_list.setProperty("i18n_data", True)  # server names and states
        self.server_list.setMaximumWidth(260)
        self.server_list.currentRowChanged.connect(lambda _row: self._show_details())
        self.server_list.itemChanged.connect(self._on_server_checked)
        body = QHBoxLayout()
        body.addWidget(self.server_list, 2)
        body.addWidget(self._build_details(), 3)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(body, 1)
        layout.addWidget(self._build_input())
        self.start_at_launch = QCheckBox(
            QCoreApplication.translate("ToolsPage", "Start enabled servers when the app starts")
        )
        layout.addWidget(self.start_at_launch)

    def _build_details(self) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        self.server_name = plain_label()
        self.server_name.setProperty("i18n_data", True)
        font = self.server_name.font()
        font.setBold(True)
        self.server_name.setFont(font)
        self.server_status = plain_label()
        self.server_status.setProperty("i18n_data", True)  # its tooltip: the command line
        self.server_status.setWordWrap(True)
        self.error_view = QPlainTextEdit(readOnly=True)
        self.error_view.setProperty("i18n_data", True)  # the server's own output
        self.error_view.setMaximumHeight(90)
        self.error_view.setVisible(False)
        self.trusted = QCheckBox(
            QCoreApplication.translate("ToolsPage", "Trusted: run its tools without asking")
        )
        self.trusted.toggled.connect(self._on_trusted)
        self.tool_list = QListWidget()
        self.tool_list.setProperty("i18n_data", True)  # tool names
        self.tool_list.itemChanged.connect(self._on_tool_checked)
        self.edit_button = QPushButton(QCoreApplication.translate("ToolsPage", "Edit JSON"))
        self.edit_button.clicked.connect(self._edit_selected)
        self.restart_button = QPushButton(QCoreApplication.translate("ToolsPage", "Restart"))
        self.restart_button.clicked.connect(self._restart_selected)
        self.remove_button = QPushButton(QCoreApplication.translate("ToolsPage", "Remove"))
        self.remove_button.clicked.connect(self._remove_selected)
        buttons = QHBoxLayout()
        for button in (self.edit_button, self.restart_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        for widget in (self.server_name, self.server_status, self.error_view, self.trusted):
            column.addWidget(widget)
        tools_caption = QLabel(
            QCoreApplication.translate(
                "ToolsPage", "Tools (switch off those the assistant should not use)"
            )
        )
        tools_caption.setObjectName("caption")
        column.addWidget(tools_caption)
        column.addWidget(self.tool_list, 1)
        column.addLayout(buttons)
        return box

    def _build_input(self) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        self.json_input = QPlainTextEdit()
        self.json_input.setProperty("i18n_data", True)  # JSON (its placeholder too)
        self.json_input.setPlaceholderText(EXAMPLE)
        self.json_input.setMaximumHeight(96)
        self.add_button = QPushButton(QCoreApplication.translate("ToolsPage", "Add or update"))
        self.add_button.clicked.connect(lambda: self.add_from_json(self.json_input.toPlainText()))
        self.import_button = QPushButton(
            QCoreApplication.translate("ToolsPage", "Import mcp.json…")
        )
        self.import_button.clicked.connect(self._choose_file)
        self.input_error = plain_label()
        self.input_error.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.input_error, 1)
        for button in (self.import_button, self.add_button):
            button.setMinimumWidth(button.sizeHint().width() + 24)
            row.addWidget(button)
        column.addWidget(self.json_input)
        column.addLayout(row)
        return box

    # -- showing -------------------------------------------------------------------------

    def _fill_servers(self, select: str | None = None) -> None:
        current = select or self._selected_name()
        self._filling = True
        self.server_list.clear()
        for server in self._servers:
            item = QListWidgetItem(_item_text(self._status(server.name), server.enabled))
            item.setData(Qt.ItemDataRole.UserRole, server.name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if server.enabled else Qt.CheckState.Unchecked)
            item.setToolTip(QCoreApplication.translate("ToolsPage", "Checked: chats get its tools"))
            self.server_list.addItem(item)
        self._filling = False
        if current is not None:
            self.select_server(current)
        if self.server_list.currentRow() < 0 and self._servers:
            self.server_list.setCurrentRow(0)
        self._show_details()

    def _show_details(self) -> None:
        server = self._selected()
        for widget in (self.trusted, self.edit_button, self.restart_button, self.remove_button):
            widget.setEnabled(server is not None)
        self._filling = True
        self.tool_list.clear()
        if server is None:
            self.server_name.setText(QCoreApplication.translate("ToolsPage", "No MCP server yet"))
            self.server_status.setText(
                QCoreApplication.translate("ToolsPage", "Paste a configuration below to add one.")
            )
            self.error_view.setVisible(False)
            self._filling = False
            return
        status = self._status(server.name)
        self.server_name.setText(server.name)
        self.server_status.setText(f"{_where(server)}\n{_status_text(server, status)}")
        self.server_status.setToolTip(" ".join([server.command, *server.args]) or server.url)
        self.error_view.setPlainText(status.error)
        self.error_view.setVisible(status.state == "failed" and bool(status.error))
        self.trusted.setChecked(server.trusted)
        for tool in status.tools:
            item = QListWidgetItem(tool.name)
            item.setToolTip(tool.description)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            off = tool.name in server.disabled_tools
            item.setCheckState(Qt.CheckState.Unchecked if off else Qt.CheckState.Checked)
            self.tool_list.addItem(item)
        self._filling = False

    # -- editing -------------------------------------------------------------------------

    def _on_server_checked(self, item: QListWidgetItem) -> None:
        if self._filling:
            return
        name = item.data(Qt.ItemDataRole.UserRole)
        enabled = item.checkState() == Qt.CheckState.Checked
        self._update(name, enabled=enabled)
        self.show_status(self._status(name))

    def _on_trusted(self, trusted: bool) -> None:
        server = self._selected()
        if not self._filling and server is not None and server.trusted != trusted:
            self._update(server.name, trusted=trusted)

    def _on_tool_checked(self, item: QListWidgetItem) -> None:
        server = self._selected()
        if self._filling or server is None:
            return
        off = [t for t in server.disabled_tools if t != item.text()]
        if item.checkState() != Qt.CheckState.Checked:
            off.append(item.text())
        self._update(server.name, disabled_tools=off)

    def _update(self, name: str, **changes: object) -> None:
        self._servers = [
            s.model_copy(update=changes) if s.name == name else s for s in self._servers
        ]
        self._announce()

    def _edit_selected(self) -> None:
        server = self._selected()
        if server is not None:
            self.json_input.setPlainText(to_mcp_json([server]))
            self.json_input.setFocus()

    def _restart_selected(self) -> None:
        name = self._selected_name()
        if name is not None:
            self.restart_requested.emit(name)

    def _remove_selected(self) -> None:
        name = self._selected_name()
        self._servers = [s for s in self._servers if s.name != name]
        self._fill_servers()
        self._announce()

    def _choose_file(self) -> None:
        title = QCoreApplication.translate("ToolsPage", "Import an mcp.json file")
        dialog = QFileDialog(self, title, str(Path.home()), "JSON (*.json)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(self.import_file)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def _announce(self) -> None:
        self.servers_changed.emit(list(self._servers))

    # -- lookups -------------------------------------------------------------------------

    def _selected_name(self) -> str | None:
        item = self.server_list.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def _selected(self) -> McpServerConfig | None:
        name = self._selected_name()
        return next((s for s in self._servers if s.name == name), None)

    def _enabled(self, name: str) -> bool:
        return any(s.enabled for s in self._servers if s.name == name)

    def _status(self, name: str) -> McpServerStatus:
        return self._statuses.get(name, McpServerStatus(name))


def _item_text(status: McpServerStatus, enabled: bool = True) -> str:
    disabled = QCoreApplication.translate("ToolsPage", "Disabled")
    state = status.describe() if enabled or status.state != "off" else disabled
    return f"{_DOTS[status.state]}  {status.name}\n     {state}"


def _where(server: McpServerConfig) -> str:
    """How the server is reached, short: long paths are shown by their last part."""
    if server.transport == "stdio":
        parts = [Path(server.command).name or server.command]
        parts += [Path(a).name if a.startswith("/") and len(a) > 30 else a for a in server.args]
        return " ".join(parts)
    return f"{server.url} ({'SSE' if server.transport == 'sse' else 'streamable HTTP'})"


def _status_text(server: McpServerConfig, status: McpServerStatus) -> str:
    if not server.enabled:
        return QCoreApplication.translate("ToolsPage", "Disabled: chats do not get its tools.")
    if status.state == "off":
        return QCoreApplication.translate(
            "ToolsPage", "Not started: it starts when a chat first needs it."
        )
    if status.state == "failed" and status.error:
        return QCoreApplication.translate("ToolsPage", "Failed to start. What it said:")
    if status.state == "failed":
        return QCoreApplication.translate("ToolsPage", "Failed to start.")
    return status.describe()
