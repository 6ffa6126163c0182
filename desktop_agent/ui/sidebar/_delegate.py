"""``SessionDelegate``: paints one session row and edits its title inline.

A row is the title (bold for the active session) with the relative time on the right,
a warning badge before the title of a session that cannot be opened normally, and, for
search results, a second line with the matching text. Painted, not a widget per row, so
the list stays virtual with any number of sessions.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractItemModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from desktop_agent.ui.sidebar._model import ACTIVE_ROLE, SNIPPET_ROLE, STATUS_ROLE, TIME_ROLE
from desktop_agent.ui.theme import colors

_AnyIndex = QModelIndex | QPersistentModelIndex

PAD_X = 10
PAD_Y = 7
LINE_GAP = 2
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
BADGES = {"corrupt": "⚠", "newer_schema": "⚠", "locked": "⊘"}


class SessionDelegate(QStyledItemDelegate):
    """Paints session rows; a ``QLineEdit`` renames one (double-click, F2, menu)."""

    def sizeHint(self, option: QStyleOptionViewItem, index: _AnyIndex) -> QSize:
        """One line (two with a search snippet) plus padding."""
        metrics = QFontMetrics(option.font)
        lines = 2 if index.data(SNIPPET_ROLE) else 1
        height = 2 * PAD_Y + lines * metrics.height() + (lines - 1) * LINE_GAP
        return QSize(option.rect.width(), height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _AnyIndex) -> None:
        """Background (selected, active, hovered), badge, title, time, snippet."""
        painter.save()
        try:
            active = bool(index.data(ACTIVE_ROLE))
            self._paint_background(painter, option, active)
            rect = option.rect.adjusted(PAD_X, PAD_Y, -PAD_X, -PAD_Y)
            line = QFontMetrics(option.font).height()
            title_rect = QRect(rect.left(), rect.top(), rect.width(), line)
            title_rect = self._paint_time(painter, option, index, title_rect)
            title_rect = self._paint_badge(painter, option, index, title_rect)
            self._paint_title(painter, option, index, title_rect, active)
            snippet = index.data(SNIPPET_ROLE)
            if snippet:
                snippet_rect = QRect(
                    rect.left(), title_rect.bottom() + LINE_GAP, rect.width(), line
                )
                query = str(getattr(index.model(), "search_query", ""))
                self._paint_snippet(painter, option, snippet_rect, str(snippet), query)
        finally:
            painter.restore()

    def _paint_background(
        self, painter: QPainter, option: QStyleOptionViewItem, active: bool
    ) -> None:
        palette: QPalette = option.palette
        state = option.state
        fill: QColor | None = None
        if active:
            fill = QColor(palette.color(QPalette.ColorRole.Highlight))
            fill.setAlpha(60)
        elif state & QStyle.StateFlag.State_Selected:
            fill = QColor(palette.color(QPalette.ColorRole.Highlight))
            fill.setAlpha(28)
        elif state & QStyle.StateFlag.State_MouseOver:
            fill = QColor(palette.color(QPalette.ColorRole.Mid))
            fill.setAlpha(70)
        if fill is not None:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            painter.drawRoundedRect(option.rect.adjusted(2, 1, -2, -1), 6, 6)

    def _paint_time(
        self, painter: QPainter, option: QStyleOptionViewItem, index: _AnyIndex, rect: QRect
    ) -> QRect:
        text = str(index.data(TIME_ROLE) or "")
        if not text:
            return rect
        font = QFont(option.font)
        font.setPointSizeF(max(font.pointSizeF() * 0.85, 6.0))
        width = QFontMetrics(font).horizontalAdvance(text)
        painter.setFont(font)
        painter.setPen(option.palette.color(QPalette.ColorRole.PlaceholderText))
        align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(rect, int(align), text)
        return rect.adjusted(0, 0, -(width + 8), 0)

    def _paint_badge(
        self, painter: QPainter, option: QStyleOptionViewItem, index: _AnyIndex, rect: QRect
    ) -> QRect:
        badge = BADGES.get(str(index.data(STATUS_ROLE)))
        if badge is None:
            return rect
        app = QApplication.instance()
        dark = bool(app is not None and app.property("darkTheme"))
        painter.setFont(option.font)
        painter.setPen(QColor(colors(dark).danger))
        width = QFontMetrics(option.font).horizontalAdvance(badge) + 6
        painter.drawText(rect, _LEFT, badge)
        return rect.adjusted(width, 0, 0, 0)

    def _paint_title(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: _AnyIndex,
        rect: QRect,
        active: bool,
    ) -> None:
        font = QFont(option.font)
        font.setBold(active)
        metrics = QFontMetrics(font)
        title = metrics.elidedText(
            str(index.data() or ""), Qt.TextElideMode.ElideRight, rect.width()
        )
        painter.setFont(font)
        painter.setPen(option.palette.color(QPalette.ColorRole.Text))
        painter.drawText(rect, _LEFT, title)

    def _paint_muted(
        self, painter: QPainter, option: QStyleOptionViewItem, rect: QRect, text: str
    ) -> None:
        font = QFont(option.font)
        font.setPointSizeF(max(font.pointSizeF() * 0.9, 6.0))
        metrics = QFontMetrics(font)
        painter.setFont(font)
        painter.setPen(option.palette.color(QPalette.ColorRole.PlaceholderText))
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, _LEFT, shown)

    def _paint_snippet(
        self, painter: QPainter, option: QStyleOptionViewItem, rect: QRect, text: str, query: str
    ) -> None:
        """The snippet, cut so that the matched words show, and drawn in the text colour."""
        font = QFont(option.font)
        font.setPointSizeF(max(font.pointSizeF() * 0.9, 6.0))
        metrics = QFontMetrics(font)
        shown = snippet_around(text, query, metrics, rect.width())
        painter.setFont(font)
        at = shown.casefold().find(query.casefold()) if query else -1
        muted = option.palette.color(QPalette.ColorRole.PlaceholderText)
        if at < 0:
            painter.setPen(muted)
            painter.drawText(rect, _LEFT, shown)
            return
        x = rect.left()
        for part, color in (
            (shown[:at], muted),
            (shown[at : at + len(query)], option.palette.color(QPalette.ColorRole.Text)),
            (shown[at + len(query) :], muted),
        ):
            painter.setPen(color)
            painter.drawText(QRect(x, rect.top(), rect.right() - x, rect.height()), _LEFT, part)
            x += metrics.horizontalAdvance(part)

    # -- inline rename ---------------------------------------------------------------

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: _AnyIndex
    ) -> QWidget:
        """A line edit over the title."""
        editor = QLineEdit(parent)
        editor.setObjectName("sessionTitleEditor")
        editor.setPlaceholderText(QCoreApplication.translate("SessionDelegate", "Session title"))
        return editor

    def setEditorData(self, editor: QWidget, index: _AnyIndex) -> None:
        """Start from the current title, selected."""
        assert isinstance(editor, QLineEdit)
        editor.setText(str(index.data(Qt.ItemDataRole.EditRole) or index.data() or ""))
        editor.selectAll()

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: _AnyIndex) -> None:
        """Hand the new title to the model (which asks the library to rename)."""
        assert isinstance(editor, QLineEdit)
        model.setData(index, editor.text(), Qt.ItemDataRole.EditRole)

    def updateEditorGeometry(
        self, editor: QWidget, option: QStyleOptionViewItem, index: _AnyIndex
    ) -> None:
        """Over the row, inside its padding."""
        editor.setGeometry(option.rect.adjusted(4, 2, -4, -2))


def snippet_around(text: str, query: str, metrics: QFontMetrics, width: int) -> str:
    """``text`` fitted into ``width`` pixels with the first match of ``query`` visible:
    words before it are dropped ("…") until it sits in the first third of the line."""
    at = text.casefold().find(query.casefold()) if query else -1
    if at > 0:
        start = 0
        while metrics.horizontalAdvance(text[start:at]) > width // 3:
            space = text.find(" ", start + 1, at)
            if space < 0:
                start = max(start, at - 8)
                break
            start = space + 1
        if start > 0:
            text = "…" + text[start:].lstrip("…")
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
