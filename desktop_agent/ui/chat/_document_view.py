"""A read-only text view that is exactly as tall as its document.

Shows a ``QTextDocument`` owned by a render cache (never by the view), so a row widget can
be destroyed when it scrolls out of view and a new one shows the same document without
re-rendering. The wrap width is set explicitly (fixed-pixel wrapping) to the width the row
is measured at, so a document is laid out once per width — not again at a placeholder size
when it is attached, nor on every resize. Text stays selectable and links clickable; wheel
events go to the chat list.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QCoreApplication, QMimeData, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QCursor, QResizeEvent, QTextDocument, QWheelEvent
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QTextEdit, QToolTip, QWidget

from desktop_agent.ui.chat._context import RenderContext
from desktop_agent.ui.chat._markdown_images import LOAD_REQUESTS, LOAD_SCHEME, url_of_load_link
from desktop_agent.ui.chat._math import MATH_SCHEME, latex_of_link, selection_text

DEFAULT_WRAP_WIDTH = 640


class DocumentView(QTextBrowser):
    """A frameless, scroll-less, auto-height view of a shared document."""

    copy_requested = Signal(object, int)
    """``(view, n)``: the user clicked the ``copy:<n>`` link of a code block."""

    def __init__(self, parent: QWidget | None = None, width_hint: int = 0) -> None:
        """Create an empty view expecting to be about ``width_hint`` pixels wide."""
        super().__init__(parent)
        self._doc: QTextDocument | None = None
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setLineWrapMode(QTextEdit.LineWrapMode.FixedPixelWidth)
        self.setLineWrapColumnOrWidth(width_hint if width_hint > 0 else DEFAULT_WRAP_WIDTH)
        self.setOpenLinks(False)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByMouse
        )
        self.setAutoFillBackground(False)  # the viewport's is cleared by the style sheet
        # Never scrolled and anchored at the top: when the document grows (a streamed
        # reply) only the new strip needs painting, not the whole view.
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents)
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_StaticContents)
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.anchorClicked.connect(self._on_anchor)
        self.setMinimumWidth(40)
        # A click focuses (Ctrl+C copies a selection); Tab skips the many message texts.
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)

    def show_document(self, doc: QTextDocument) -> None:
        """Display ``doc`` (kept alive by this view while shown, and only while shown)."""
        if doc is not self._doc:
            # Through the property, not ``setDocument``: PySide's ``setDocument`` keeps a
            # reference to every document a view was ever given, so a reused view (the
            # streaming reply's, a spare) kept thousands alive. ``_doc`` is the one owner
            # a view holds, set after the switch so the old document outlives it.
            self.setProperty("document", doc)
            self._doc = doc
        self.updateGeometry()

    def document(self) -> QTextDocument:
        """The shown document. PySide's ``QTextEdit.document()`` hands the document's
        ownership to C++, after which nothing deletes it: it would outlive its render."""
        return self._doc if self._doc is not None else super().document()

    @property
    def shown_document(self) -> QTextDocument | None:
        """The document passed to :meth:`show_document` (no Qt call)."""
        return self._doc

    def content_changed(self) -> None:
        """Tell the layout the document's height may have changed."""
        self.updateGeometry()

    def _wrap_to(self, width: int) -> None:
        if width > 0 and self.lineWrapColumnOrWidth() != width:
            self.setLineWrapColumnOrWidth(width)

    def height_at(self, width: int) -> int:
        """The document's height when laid out ``width`` pixels wide."""
        self._wrap_to(width)
        return math.ceil(self.document().size().height())

    def ideal_width(self, max_width: int) -> int:
        """The width the text needs, up to ``max_width`` (for shrink-to-fit bubbles)."""
        self._wrap_to(max_width)
        return min(max_width, math.ceil(self.document().idealWidth()) + 2)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Wrap at the new width."""
        self._wrap_to(event.size().width())
        super().resizeEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        """Let the chat list scroll (this view never scrolls)."""
        event.ignore()

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        """Never load resources (images) on the document's behalf."""
        return None

    def _on_anchor(self, url: QUrl) -> None:
        if url.scheme() == LOAD_SCHEME:  # a Markdown image's "Load image" placeholder
            LOAD_REQUESTS.requested.emit(url_of_load_link(url))
            return
        if url.scheme() == "copy":
            try:
                self.copy_requested.emit(self, int(url.path()))
            except ValueError:
                return
            return
        if url.scheme() == MATH_SCHEME:  # a typeset formula: copy its LaTeX
            RenderContext.copy_text(latex_of_link(url))
            QToolTip.showText(
                QCursor.pos(), QCoreApplication.translate("DocumentView", "LaTeX copied")
            )
            return
        RenderContext.open_url(url)

    def createMimeDataFromSelection(self) -> QMimeData:
        """Copy a selection with each formula as its LaTeX source."""
        cursor = self.textCursor()
        data = QMimeData()  # Qt's own fills text/plain lazily, over what is set here
        data.setText(selection_text(cursor))
        data.setHtml(cursor.selection().toHtml())
        return data


class AutoHeightDocumentView(DocumentView):
    """A :class:`DocumentView` that tells layouts its height for a width."""

    def hasHeightForWidth(self) -> bool:
        """Heights follow widths (text wraps)."""
        return True

    def heightForWidth(self, width: int) -> int:
        """The document's height at ``width``."""
        return self.height_at(width)

    def sizeHint(self) -> QSize:
        """The wrap width, and the height at that width."""
        width = self.lineWrapColumnOrWidth()
        return QSize(width, self.height_at(width))

    def minimumSizeHint(self) -> QSize:
        """Allow narrow widths; height comes from :meth:`heightForWidth`."""
        return QSize(40, 0)
