"""Row widgets: a message bubble with its blocks, or an error bubble with Retry.

A row widget exists only while its row is (nearly) visible; the list creates it from the
entry and calls :meth:`MessageRow.refresh` when the entry changes. Block widgets are kept
and updated in place while a message streams (a block list only grows at its end); what
must survive the widget — rendered text, thumbnails, expanded state — lives in the
:class:`RenderContext`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop_agent.app import ConversationEntry, EntryKind, answer_ending
from desktop_agent.message import Msg
from desktop_agent.ui._plain import plain_label, plain_tooltip
from desktop_agent.ui.chat._audio_view import AudioView
from desktop_agent.ui.chat._context import RenderContext
from desktop_agent.ui.chat._document_chip import DOCUMENT_KIND, DocumentPartView, block_kind
from desktop_agent.ui.chat._ending_bar import HEADER_MARKS, EndingBar
from desktop_agent.ui.chat._media_views import ImageView, VideoView
from desktop_agent.ui.chat._stats_view import AnswerStats
from desktop_agent.ui.chat._text_views import CopyButton, MarkdownView, ThinkingView
from desktop_agent.ui.chat._tool_views import ToolResultCard, ToolUseCard
from desktop_agent.ui.chat._versions import VersionBar

ROW_MARGIN = 6
USER_MAX_FRACTION = 0.8
TOOL_INDENT = 28
BORDER_REPAINT = 14  # px around an old bottom edge repainted when a bubble grows


def message_role(msg: Msg) -> str:
    """The bubble style of a message: user, assistant, tool (only results) or system."""
    if msg.role == "user":
        return "user"
    content = msg.content
    if (
        isinstance(content, list)
        and content
        and all(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
    ):
        return "tool"
    return "assistant" if msg.role == "assistant" else "system"


def _answer_starts_after(blocks: list[Any], index: int) -> bool:
    return any(
        isinstance(b, dict) and b.get("type") == "text" and str(b.get("text", "")).strip()
        for b in blocks[index + 1 :]
    )


def bubble_height(bubble: QWidget, width: int) -> int:
    """A bubble's height at ``width`` (its size hint when nothing in it wraps)."""
    height = bubble.heightForWidth(width)
    return height if height >= 0 else bubble.sizeHint().height()


def make_media_widget(ctx: RenderContext, block: Any) -> QWidget:
    """An image, audio or video widget for ``block``; a caption for anything else."""
    kind = block.get("type") if isinstance(block, dict) else None
    if kind == "image":
        return ImageView(ctx, block)
    if kind == "audio":
        return AudioView(ctx, block)
    if kind == "video":
        return VideoView(ctx, block)
    text = QCoreApplication.translate("MessageRow", "[{kind} content]")
    label = plain_label(text.format(kind=kind or "unknown"))
    label.setObjectName("caption")
    return label


class Bubble(QFrame):
    """A message's frame; growing taller repaints only what changed.

    A streaming message grows every frame. A plain widget repaints all of itself (and so
    every child) on resize; with static contents only the newly exposed strip and the old
    bottom edge (where the rounded border was drawn) are repainted.
    """

    def __init__(self, parent: QWidget) -> None:
        """Create an empty bubble."""
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Repaint the old bottom edge; everything when the width changed."""
        super().resizeEvent(event)
        old, new = event.oldSize(), event.size()
        if old.width() != new.width():
            self.update()
        elif old.height() != new.height():
            edge = min(old.height(), new.height()) - BORDER_REPAINT
            self.update(0, max(0, edge), new.width(), BORDER_REPAINT * 2)


class RowWidget(QWidget):
    """Base of row widgets: reports size changes so the list can re-measure."""

    size_changed = Signal()

    def __init__(self, entry: ConversationEntry, parent: QWidget | None = None) -> None:
        """Create the row for ``entry``."""
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents)
        self.key = entry.key
        self.revision = -1

    def refresh(self, entry: ConversationEntry) -> None:
        """Show the entry's current state."""
        self.revision = entry.revision

    def busy(self) -> bool:
        """Whether the row must stay alive off-screen (e.g. audio is playing)."""
        return False

    @property
    def pending(self) -> bool:
        """Whether rendering was cut short by its time budget and must continue."""
        return False

    def render_now(self) -> None:
        """Render as Markdown what is still shown as plain text (a fast stream's tail)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Forward layout requests of the bubble that change the row's height as
        :attr:`size_changed` (the list re-measures; most requests change nothing)."""
        if event.type() == QEvent.Type.LayoutRequest and (
            self.width() <= 0 or self.heightForWidth(self.width()) != self.height()
        ):
            self.size_changed.emit()
        return False


class MessageRow(RowWidget):
    """A message: a bubble with a header (name, Copy) and one widget per content block."""

    def __init__(
        self, entry: ConversationEntry, ctx: RenderContext, parent: QWidget, width: int = 0
    ) -> None:
        """Create the row for a message entry, expected to be ``width`` pixels wide."""
        super().__init__(entry, parent)
        assert entry.msg is not None
        self._ctx = ctx
        self._row_width_hint = width
        self.msg: Msg = entry.msg
        self.role = message_role(entry.msg)
        self.bubble = Bubble(self)
        self.bubble.setObjectName("bubble")
        self.bubble.setProperty("role", self.role)
        self.bubble.setProperty("i18n_data", True)  # its tooltip: sender, time, figures
        self._column = QVBoxLayout(self.bubble)
        if self.role == "tool":
            self._column.setContentsMargins(0, 0, 0, 0)
        else:
            self._column.setContentsMargins(14, 10, 14, 12)
        self._column.setSpacing(8)
        self.name_label: QLabel | None = None
        self.copy_button: CopyButton | None = None
        self.version_bar: VersionBar | None = None
        self.answer_stats: AnswerStats | None = None  # model, figures, steps (issue 17)
        if self.role != "tool":
            header = self._make_header(entry.msg)
            self._column.addLayout(header)
            if self.role == "assistant":
                self.answer_stats = AnswerStats(self.bubble, self._column)
        self.blocks: list[tuple[str, QWidget]] = []
        self.ending_bar: EndingBar | None = None
        self._ending: str | None = None
        self.waiting = QLabel("…", self.bubble)
        self.waiting.setObjectName("caption")
        self._column.addWidget(self.waiting)
        self.bubble.installEventFilter(self)
        self._width_cache: tuple[int, int] = (-1, -1)
        self.refresh(entry)

    def _make_header(self, msg: Msg) -> QHBoxLayout:
        row = QHBoxLayout()
        row.setSpacing(6)
        self.name_label = plain_label(msg.name, self.bubble)
        self.name_label.setObjectName("senderName")
        self.name_label.setProperty("i18n_data", True)  # the sender's name
        row.addWidget(self.name_label)
        self.ending_mark = QLabel("", self.bubble)  # "interrupted", "cut off", ...
        self.ending_mark.setObjectName("endingMark")
        self.ending_mark.hide()
        row.addWidget(self.ending_mark)
        row.addStretch(1)
        self.version_bar = VersionBar(self, self._ctx.versions, self.bubble)
        row.addWidget(self.version_bar)
        self.copy_button = CopyButton(lambda: self.msg.get_text_content() or "", self.bubble)
        self.copy_button.setObjectName("copyMessage")
        self.copy_button.setToolTip(QCoreApplication.translate("MessageRow", "Copy message text"))
        row.addWidget(self.copy_button)
        return row

    # -- content -----------------------------------------------------------------------

    def refresh(self, entry: ConversationEntry) -> None:
        """Update the blocks from the live message (only changed parts re-render)."""
        assert entry.msg is not None
        self.msg = entry.msg
        self.revision = entry.revision
        self.invalidate_width()
        self.bubble.setToolTip(plain_tooltip(f"{entry.msg.name} · {entry.msg.timestamp}"))
        if self.answer_stats is not None and (details := self.answer_stats.update(entry.msg)):
            tip = f"{entry.msg.name} · {entry.msg.timestamp}\n{details}"
            self.bubble.setToolTip(plain_tooltip(tip))
        blocks = entry.msg.get_content_blocks()
        for i, block in enumerate(blocks):
            kind = block_kind(block)  # a text block carrying an attached document: a chip
            if i >= len(self.blocks) or self.blocks[i][0] != kind:
                self._drop_blocks_from(i)
                widget = self._make_block(kind, block, i)
                bar = self.ending_bar
                if bar is None:
                    self._column.addWidget(widget)
                else:
                    self._column.insertWidget(self._column.indexOf(bar), widget)
                self.blocks.append((kind, widget))
            self._update_block(self.blocks[i][1], block, i, blocks, entry.streaming)
        self._drop_blocks_from(len(blocks))
        self.waiting.setVisible(not blocks and entry.streaming)
        self._show_ending(entry)
        if self.version_bar is not None:
            self.version_bar.update_entry(entry)

    def _show_ending(self, entry: ConversationEntry) -> None:
        """The mark by the name and the line (with Retry/Continue) of an unusual ending."""
        msg = entry.msg
        ending = answer_ending(msg) if msg is not None and not entry.streaming else None
        if ending is None and self.ending_bar is None and self._ending is None:
            return  # the common case, on every streamed chunk: nothing to show or hide
        self._ending = ending
        if self.name_label is not None:
            mark = HEADER_MARKS.get(ending or "", "")
            mark = QCoreApplication.translate("EndingBar", mark) if mark else ""
            self.ending_mark.setText(mark)
            self.ending_mark.setProperty("ending", ending or "")
            self.ending_mark.setVisible(bool(mark))
            interrupted = "true" if ending == "interrupted" else "false"
            if self.bubble.property("interrupted") != interrupted:
                self.bubble.setProperty("interrupted", interrupted)
                self.bubble.style().unpolish(self.bubble)
                self.bubble.style().polish(self.bubble)
        if self.ending_bar is None:
            self.ending_bar = EndingBar(self._ctx, self.bubble)
            self._column.addWidget(self.ending_bar)
        self.ending_bar.update_entry(entry)

    def _drop_blocks_from(self, index: int) -> None:
        for _, widget in self.blocks[index:]:
            self._column.removeWidget(widget)
            widget.deleteLater()
        del self.blocks[index:]

    def _make_block(self, kind: str, block: Any, index: int) -> QWidget:
        ctx, msg_id = self._ctx, self.msg.id
        widget: QWidget
        hint = self._inner_width()
        if kind == "text":
            flavour = "user" if self.role == "user" else "assistant"
            widget = MarkdownView(ctx.text_render(msg_id, index, flavour), hint)
        elif kind == "thinking":
            render = ctx.text_render(msg_id, index, "thinking")
            widget = ThinkingView(ctx, (msg_id, index), render, hint)
        elif kind == "tool_use":
            widget = ToolUseCard(ctx)
        elif kind == "tool_result":
            widget = ToolResultCard(ctx, lambda item: make_media_widget(ctx, item))
        elif kind == DOCUMENT_KIND:
            widget = DocumentPartView(block)
        else:
            widget = make_media_widget(ctx, block)
        widget.setParent(self.bubble)
        return widget

    @staticmethod
    def _update_block(
        widget: QWidget, block: Any, index: int, blocks: list[Any], streaming: bool
    ) -> None:
        if isinstance(widget, MarkdownView):
            widget.update_text(str(block.get("text", "")), final=not streaming)
        elif isinstance(widget, ThinkingView):
            answer_started = _answer_starts_after(blocks, index)
            widget.update_block(str(block.get("thinking", "")), streaming, answer_started)
        elif isinstance(widget, ToolUseCard | ToolResultCard):
            widget.update_block(block)
        elif isinstance(widget, ImageView | AudioView | VideoView):
            widget.update_block(block, streaming)

    def busy(self) -> bool:
        """Whether audio in this row is playing."""
        return any(w.is_playing() for w in self.findChildren(AudioView))

    def render_now(self) -> None:
        """Render as Markdown what is still shown as plain text (a fast stream's tail)."""
        for _kind, widget in self.blocks:
            if isinstance(widget, MarkdownView):
                widget.render_now()
            elif isinstance(widget, ThinkingView):
                widget.body.render_now()

    @property
    def pending(self) -> bool:
        """Whether a text block still has rendering to do (its budget ran out)."""
        for kind, widget in self.blocks:
            if kind == "text" and isinstance(widget, MarkdownView) and widget.pending:
                return True
            if kind == "thinking" and isinstance(widget, ThinkingView) and widget.body.pending:
                return True
        return False

    # -- geometry ----------------------------------------------------------------------

    def _inner_width(self) -> int:
        """The width block widgets will probably get (before the first layout)."""
        width = self._row_width_hint
        if self.role == "user":
            width = int(width * USER_MAX_FRACTION)
        margins = self._column.contentsMargins()
        border = 2 * self.bubble.frameWidth() if self.role != "tool" else 0
        return max(0, width - margins.left() - margins.right() - border)

    def _bubble_width(self, width: int) -> int:
        if self.role == "tool":
            return width - TOOL_INDENT
        if self.role != "user":
            return width
        limit = int(width * USER_MAX_FRACTION)
        if self.version_bar is not None and self.version_bar.editor is not None:
            return limit  # editing: room to type
        if self._width_cache[0] == width:
            return self._width_cache[1]
        margins = self._column.contentsMargins()
        inner_max = limit - margins.left() - margins.right()
        header = self._column.itemAt(0)  # name, version controls, Copy: never squeezed
        header_width = 0
        if header is not None:  # (no invalidate() here: it posts a LayoutRequest -> loop)
            header_width = header.sizeHint().width() + 2 * self.bubble.frameWidth()
        needed = max(
            [180, header_width]
            + [
                w.ideal_width(inner_max) if hasattr(w, "ideal_width") else inner_max
                for _, w in self.blocks
            ]
        )
        result = min(limit, needed + margins.left() + margins.right())
        self._width_cache = (width, result)
        return result

    def hasHeightForWidth(self) -> bool:
        """Heights follow widths."""
        return True

    def heightForWidth(self, width: int) -> int:
        """The row's height at ``width``: its bubble's plus margins."""
        return bubble_height(self.bubble, self._bubble_width(width)) + 2 * ROW_MARGIN

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Place the bubble: right-aligned for the user, full width otherwise (mirrored in
        a right-to-left window: the user's bubbles on the left)."""
        width = self.width()
        bubble_width = self._bubble_width(width)
        x = width - bubble_width if self.role in ("user", "tool") else 0
        if self.isRightToLeft():
            x = width - bubble_width - x
        self.bubble.setGeometry(x, ROW_MARGIN, bubble_width, self.height() - 2 * ROW_MARGIN)
        super().resizeEvent(event)

    def invalidate_width(self) -> None:
        """Forget the cached shrink-to-fit width (content changed)."""
        self._width_cache = (-1, -1)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A layout request means content changed size: re-fit the bubble too."""
        if event.type() == QEvent.Type.LayoutRequest:
            self.invalidate_width()
        return super().eventFilter(watched, event)

    # -- inspection (tests, accessibility) ---------------------------------------------

    def block_widgets(self, kind: str) -> list[Any]:
        """The widgets of the blocks of ``kind``, in order."""
        return [w for k, w in self.blocks if k == kind]


class SpanningRow(RowWidget):
    """A row whose ``bubble`` spans its width (errors, plan checklists); heights follow widths."""

    bubble: QFrame

    def hasHeightForWidth(self) -> bool:
        """Heights follow widths."""
        return True

    def heightForWidth(self, width: int) -> int:
        """The bubble's height at ``width`` plus margins."""
        return bubble_height(self.bubble, width) + 2 * ROW_MARGIN

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The bubble spans the row."""
        self.bubble.setGeometry(0, ROW_MARGIN, self.width(), self.height() - 2 * ROW_MARGIN)
        super().resizeEvent(event)


class ErrorRow(SpanningRow):
    """An error bubble: the message and, when the error is retryable, a Retry button."""

    def __init__(self, entry: ConversationEntry, ctx: RenderContext, parent: QWidget) -> None:
        """Create the bubble for an error entry."""
        super().__init__(entry, parent)
        self.bubble = QFrame(self)
        self.bubble.setObjectName("errorBubble")
        row = QHBoxLayout(self.bubble)
        row.setContentsMargins(14, 10, 10, 10)
        row.setSpacing(10)
        self.text_label = plain_label(
            entry.error_text or QCoreApplication.translate("ErrorRow", "Something went wrong."),
            self.bubble,
        )
        self.text_label.setObjectName("errorText")
        self.text_label.setWordWrap(True)
        self.text_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.text_label, 1)
        self.retry_button = QPushButton(
            QCoreApplication.translate("ErrorRow", "Retry"), self.bubble
        )
        self.retry_button.setObjectName("retryButton")
        self.retry_button.clicked.connect(lambda: ctx.retry_requested.emit())
        self.retry_button.setVisible(entry.retryable)
        row.addWidget(self.retry_button, 0, Qt.AlignmentFlag.AlignTop)
        self.bubble.installEventFilter(self)


def create_row(
    entry: ConversationEntry, ctx: RenderContext, parent: QWidget, width: int = 0
) -> RowWidget:
    """The row widget for ``entry``, expected to be ``width`` pixels wide."""
    if entry.kind is EntryKind.ERROR or entry.msg is None:
        return ErrorRow(entry, ctx, parent)
    return MessageRow(entry, ctx, parent, width)
