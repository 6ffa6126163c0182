"""A document attached to a message, shown in the chat as a file chip, not as its text.

The model received the document's text as a delimited text part (see
:func:`desktop_agent.app._documents.document_part`); the chat recognizes that part and shows
the file's type, name, pages and size, with "Preview" opening the text that was sent.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.app._documents import DocumentPart, badge_text, parse_document_part
from desktop_agent.ui._plain import plain_label

DOCUMENT_KIND = "document"
"""The block kind the message widget gives a text block carrying a document."""


def block_kind(block: object) -> str:
    """A content block's kind for display: its type, or :data:`DOCUMENT_KIND`."""
    if not isinstance(block, dict):
        return ""
    kind = str(block.get("type", ""))
    if kind == "text" and parse_document_part(str(block.get("text", ""))) is not None:
        return DOCUMENT_KIND
    return kind


class DocumentPartView(QFrame):
    """Badge, name and facts of an attached document; "Preview" shows the text sent."""

    def __init__(self, block: object, parent: QWidget | None = None) -> None:
        """Show the document carried by text block ``block``."""
        super().__init__(parent)
        self.setObjectName("mediaBox")
        text = str(block.get("text", "")) if isinstance(block, dict) else ""
        part = parse_document_part(text)
        self.part: DocumentPart = part or DocumentPart("document", "", "", 0, text)
        badge = QLabel(badge_text(self.part.name))
        badge.setObjectName("statusChip")
        badge.setProperty("status", "done")
        badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
        badge.setProperty("i18n_data", True)  # the file's type: "PDF", "DOCX"
        name = plain_label(self.part.name)
        name.setObjectName("senderName")
        name.setProperty("i18n_data", True)  # the file's name
        pages = self.part.pages  # a plain name: lupdate skips a call whose n is an expression
        if pages > 1:
            text = QCoreApplication.translate(
                "DocumentPartView", "%n pages · {size} · sent to the model as text", "", pages
            )
        else:
            text = QCoreApplication.translate(
                "DocumentPartView", "{size} · sent to the model as text"
            )
        facts = plain_label(text.format(size=self.part.size))
        facts.setObjectName("caption")
        self.preview_button = QToolButton()
        self.preview_button.setText(QCoreApplication.translate("DocumentPartView", "Preview"))
        self.preview_button.setToolTip(
            QCoreApplication.translate("DocumentPartView", "Show the text the model received")
        )
        self.preview_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.preview_button.clicked.connect(self.open_preview)
        column = QVBoxLayout()
        column.setSpacing(0)
        column.addWidget(name)
        column.addWidget(facts)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 6, 8, 6)
        row.addWidget(badge)
        row.addLayout(column, 1)
        row.addWidget(self.preview_button)
        self._preview: QDialog | None = None

    def open_preview(self) -> QDialog:
        """A read-only, non-modal window with the document's text."""
        if self._preview is None:
            dialog = QDialog(self.window())
            title = QCoreApplication.translate(
                "DocumentPartView", "{name} — text sent to the model"
            )
            dialog.setWindowTitle(title.format(name=self.part.name))
            view = QPlainTextEdit()
            view.setReadOnly(True)
            view.setPlainText(self.part.text)
            QVBoxLayout(dialog).addWidget(view)
            dialog.resize(640, 480)
            self._preview = dialog
        self._preview.show()
        self._preview.raise_()
        return self._preview
