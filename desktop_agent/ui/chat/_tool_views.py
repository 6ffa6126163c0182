"""Tool-call cards and tool-result cards.

A call's status is not in its own message: it is derived by the conversation from the
result with the same id (running / done / error / interrupted), so the card re-reads it on
every refresh of its row — the conversation marks the row changed when a result arrives.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.app import ToolStatus
from desktop_agent.app._conversation import INTERRUPTED_TOOL_TEXT
from desktop_agent.ui._plain import plain_label
from desktop_agent.ui.chat._context import RenderContext
from desktop_agent.ui.chat._document_view import AutoHeightDocumentView
from desktop_agent.ui.chat._markdown import new_document
from desktop_agent.ui.chat._shell_output import ShellOutputView, parse_shell_output
from desktop_agent.ui.chat._text_views import PlainTextView

STATUS_LABELS = {
    ToolStatus.RUNNING: QT_TRANSLATE_NOOP("StatusChip", "running…"),
    ToolStatus.WAITING: QT_TRANSLATE_NOOP("StatusChip", "waiting for permission"),
    ToolStatus.DONE: QT_TRANSLATE_NOOP("StatusChip", "done"),
    ToolStatus.ERROR: QT_TRANSLATE_NOOP("StatusChip", "error"),
    ToolStatus.DENIED: QT_TRANSLATE_NOOP("StatusChip", "denied"),
    ToolStatus.NOT_RUN: QT_TRANSLATE_NOOP("StatusChip", "not run"),
    ToolStatus.INTERRUPTED: QT_TRANSLATE_NOOP("StatusChip", "interrupted"),
}
"""A status's chip text (English; translate with context "StatusChip")."""
_SYSTEM_INFO = f"<system-info>{INTERRUPTED_TOOL_TEXT}</system-info>"


def pretty_arguments(block: dict[str, Any]) -> str:
    """A tool call's arguments as indented JSON (the raw text while it still streams)."""
    arguments = block.get("input")
    if not arguments and block.get("raw_input"):
        return str(block["raw_input"])
    try:
        return json.dumps(arguments or {}, indent=2, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(arguments)


def display_output_text(text: str) -> str:
    """Tool output text as shown: the interrupt marker without its tags."""
    if _SYSTEM_INFO not in text:
        return text
    shown = QCoreApplication.translate(
        "ToolResultCard", "The tool call has been interrupted by the user."
    )
    return text.replace(_SYSTEM_INFO, shown)


def tool_title(ctx: RenderContext, block: dict[str, Any]) -> str:
    """The tool's name, with the MCP server it came from: ``"echo · from my-server"``."""
    name = str(block.get("name", "tool"))
    server = ctx.tool_origin(name)
    if not server:
        return name
    title = QCoreApplication.translate("ToolUseCard", "{name} · from {server}")
    return title.format(name=name, server=server)


class StatusChip(QLabel):
    """A small coloured label naming a tool call's status."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """Create a chip with no status yet."""
        super().__init__(parent)
        self.setObjectName("statusChip")
        self.status: ToolStatus | None = None

    def set_status(self, status: ToolStatus) -> None:
        """Show ``status`` (re-polished so the style sheet colour follows)."""
        if status == self.status:
            return
        self.status = status
        self.setText(QCoreApplication.translate("StatusChip", STATUS_LABELS[status]))
        self.setProperty("status", status.value)
        self.style().unpolish(self)
        self.style().polish(self)


class _Card(QFrame):
    """A bordered card with a header row and a body column."""

    def __init__(self, caption: str, name: str) -> None:
        super().__init__()
        self.setObjectName("card")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        header = QWidget(self)
        header.setObjectName("cardHeader")
        row = QHBoxLayout(header)
        row.setContentsMargins(10, 5, 8, 5)
        row.setSpacing(6)
        caption_label = QLabel(caption, header)
        caption_label.setObjectName("caption")
        row.addWidget(caption_label)
        self.name_label = plain_label(name, header)
        self.name_label.setObjectName("senderName")
        self.name_label.setProperty("i18n_data", True)  # the tool's name
        row.addWidget(self.name_label)
        row.addStretch(1)
        self.chip = StatusChip(header)
        row.addWidget(self.chip)
        outer.addWidget(header)
        body = QWidget(self)
        self.body = QVBoxLayout(body)
        self.body.setContentsMargins(10, 8, 10, 10)
        self.body.setSpacing(6)
        outer.addWidget(body)


class ToolUseCard(_Card):
    """A tool call: name, pretty-printed arguments, live status."""

    def __init__(self, ctx: RenderContext) -> None:
        """Create an empty card."""
        super().__init__(QCoreApplication.translate("ToolUseCard", "Tool call"), "")
        self._ctx = ctx
        self._arguments: str | None = None
        self.arguments_view = AutoHeightDocumentView(self)
        self.arguments_view.show_document(new_document(ctx.palette, monospace=True))
        self.body.addWidget(self.arguments_view)
        self.call_id = ""

    def update_block(self, block: dict[str, Any]) -> None:
        """Show ``block`` (a ``ToolUseBlock``) and its call's current status."""
        self.call_id = str(block.get("id", ""))
        self.name_label.setText(tool_title(self._ctx, block))
        arguments = pretty_arguments(block)
        if arguments != self._arguments:
            self._arguments = arguments
            self._ctx.styler.set_code(self.arguments_view.document(), arguments, "json")
            self.arguments_view.content_changed()
        self.chip.set_status(self._ctx.conversation.tool_status(self.call_id))

    @property
    def arguments_text(self) -> str:
        """The arguments as shown."""
        return self._arguments or ""


class ToolResultCard(_Card):
    """A tool result: streamed text output, and any images, audio or video it returned."""

    def __init__(self, ctx: RenderContext, media_factory: Callable[[Any], QWidget]) -> None:
        """Create an empty card; ``media_factory(block)`` builds media widgets."""
        super().__init__(QCoreApplication.translate("ToolResultCard", "Result"), "")
        self._ctx, self._media_factory = ctx, media_factory
        self._items: list[tuple[str, QWidget]] = []

    def update_block(self, block: dict[str, Any]) -> None:
        """Show ``block`` (a ``ToolResultBlock``) as it currently is."""
        self.name_label.setText(tool_title(self._ctx, block))
        self.chip.set_status(self._ctx.conversation.tool_status(str(block.get("id", ""))))
        output = block.get("output")
        items = [{"type": "text", "text": output}] if isinstance(output, str) else output or []
        for i, item in enumerate(items):
            kind = str(item.get("type", "")) if isinstance(item, dict) else ""
            if kind == "text" and parse_shell_output(str(item.get("text", ""))) is not None:
                kind = "shell"  # a program's result: exit code, stdout, stderr
            if i >= len(self._items) or self._items[i][0] != kind:
                self._replace_from(i)
                self._items.append((kind, self._make_item(kind, item)))
                self.body.addWidget(self._items[i][1])
            self._update_item(self._items[i][1], item)
        self._replace_from(len(items))

    def _replace_from(self, index: int) -> None:
        for _, widget in self._items[index:]:
            self.body.removeWidget(widget)
            widget.deleteLater()
        del self._items[index:]

    def _make_item(self, kind: str, item: Any) -> QWidget:
        if kind == "text":
            return PlainTextView(self._ctx, self)
        if kind == "shell":
            return ShellOutputView(self._ctx, self)
        widget: QWidget = self._media_factory(item)
        widget.setParent(self)
        return widget

    @staticmethod
    def _update_item(widget: QWidget, item: Any) -> None:
        if isinstance(widget, PlainTextView | ShellOutputView):
            widget.set_text(display_output_text(str(item.get("text", ""))))

    def text_views(self) -> list[PlainTextView]:
        """The text outputs shown."""
        return [w for _, w in self._items if isinstance(w, PlainTextView)]

    def output_text(self) -> str:
        """Every text output as shown, joined."""
        shown = [
            w.shown_text() if isinstance(w, ShellOutputView) else w.document().toPlainText()
            for _, w in self._items
            if isinstance(w, PlainTextView | ShellOutputView)
        ]
        return "\n".join(shown)
