"""The chip by the composer that shows which tools are allowed for this chat, with revoke.

"Always allow in this chat" must stay visible: a tool that runs without asking is the
user's decision, so they can see it at any time and take it back in one click.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QMenu, QToolButton, QWidget


class AllowedToolsChip(QToolButton):
    """The "N tools allowed" chip: a menu revokes one tool, or all. Hidden when none is.

    Signals:
        revoke_requested(object): A tool name, or ``None`` for every tool.
    """

    revoke_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        """Create the chip (hidden until tools are allowed)."""
        super().__init__(parent)
        self.setObjectName("allowedToolsChip")
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self._menu = QMenu(self)
        self.setMenu(self._menu)
        self.tools: list[str] = []
        self.hide()

    def set_tools(self, tools: Sequence[str]) -> None:
        """Show the tools allowed for the rest of this chat."""
        self.tools = list(tools)
        self._menu.clear()
        count = len(self.tools)
        self.setVisible(count > 0)
        if not count:
            return
        names = ", ".join(self.tools)
        if count == 1:
            self.setText(
                QCoreApplication.translate("AllowedToolsChip", "{tool} allowed").format(
                    tool=self.tools[0]
                )
            )
        else:
            self.setText(
                QCoreApplication.translate("AllowedToolsChip", "%n tools allowed", "", count)
            )
        tip = QCoreApplication.translate(
            "AllowedToolsChip", "Running without asking in this chat: {names}. Click to revoke."
        )
        self.setToolTip(tip.format(names=names))
        for tool in self.tools:
            text = QCoreApplication.translate("AllowedToolsChip", "Ask again before {tool}").format(
                tool=tool
            )
            action = self._menu.addAction(text)
            action.triggered.connect(lambda _=False, name=tool: self.revoke_requested.emit(name))
        if count > 1:
            self._menu.addSeparator()
            every = self._menu.addAction(
                QCoreApplication.translate("AllowedToolsChip", "Ask again before every tool")
            )
            every.triggered.connect(lambda _=False: self.revoke_requested.emit(None))

    def revoke_actions(self) -> list[str]:
        """The menu's texts (tests, accessibility)."""
        return [action.text() for action in self._menu.actions() if action.text()]
