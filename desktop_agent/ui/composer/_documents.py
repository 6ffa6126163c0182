"""Documents waiting in the composer: a chip per file while its text is extracted.

Extraction (:func:`desktop_agent.app._documents.extract_document`) runs in one worker thread
shared by every chip; a chip polls its future on a timer (no signal crosses threads) and
removing the chip cancels the work between pages. A chip then shows the page count, size and
estimated tokens, or why the file cannot be attached — a failed document is never sent. A
click on the name previews the text the model will receive.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
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

from desktop_agent.app._documents import (
    MAX_PAGE_IMAGES,
    DocumentError,
    ExtractedDocument,
    ExtractionCancelled,
    ScannedDocument,
    badge_text,
    extract_document,
    human_size,
)
from desktop_agent.message import ContentBlock, ImageBlock, TextBlock
from desktop_agent.ui.composer._page_images import page_image_blocks

_POLL_MS = 30
_IMAGE_TOKENS = 765
"""Estimated tokens of one page image (what ``EstimatingTokenCounter`` counts)."""
_EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="documents")

DocumentState = Literal["reading", "ready", "failed"]


def document_summary(doc: ExtractedDocument, images: int = 0) -> str:
    """``"12 pages · 1.2 MB · ≈ 34,000 tokens"`` (`` · 12 page images`` when sent)."""
    pages = doc.pages  # a plain name: lupdate skips a call whose n is an expression
    parts = [QCoreApplication.translate("DocumentChip", "%n pages", "", pages)] if pages else []
    tokens = doc.tokens + _IMAGE_TOKENS * images
    parts.append(human_size(doc.size))
    parts.append(
        QCoreApplication.translate("DocumentChip", "≈ {tokens} tokens").format(tokens=f"{tokens:,}")
    )
    if images:
        parts.append(QCoreApplication.translate("DocumentChip", "%n page images", "", images))
    return " · ".join(parts)


class DocumentChip(QFrame):
    """One attached document: its type, name, and extraction state; removable."""

    remove_requested = Signal(object)
    state_changed = Signal()
    """Extraction finished or failed."""

    def __init__(self, path: Path, parent: QWidget | None = None) -> None:
        """Start extracting ``path``'s text in the worker thread."""
        super().__init__(parent)
        self.setObjectName("attachmentChip")
        self.path = path
        self.state: DocumentState = "reading"
        self.document: ExtractedDocument | None = None
        self.error = ""
        self._cancel = threading.Event()
        self._future: Future[ExtractedDocument] = _EXECUTOR.submit(
            extract_document, path, self._cancel
        )
        self.badge = QLabel(badge_text(path.name))
        self.badge.setObjectName("documentBadge")
        self.badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.badge.setFixedSize(40, 40)
        self.badge.setProperty("i18n_data", True)  # the file's type: "PDF", "DOCX"
        self.name = QToolButton()
        self.name.setText(_elide(path.name))
        self.name.setProperty("i18n_data", True)  # the file's name (its tooltip: the path)
        self.name.setAutoRaise(True)
        hint = QCoreApplication.translate(
            "DocumentChip", "Click to preview the text sent to the model"
        )
        self.name.setToolTip(f"{path}\n{hint}")
        self.name.clicked.connect(self.open_preview)
        self.status = QLabel(QCoreApplication.translate("DocumentChip", "Reading…"))
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setObjectName("caption")
        self.remove_button = QToolButton()
        self.remove_button.setText("✕")
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip(
            QCoreApplication.translate("DocumentChip", "Remove {name}").format(name=path.name)
        )
        self.remove_button.clicked.connect(lambda: self.remove_requested.emit(self))
        self.pages_button = QToolButton()
        self.pages_button.setText(QCoreApplication.translate("DocumentChip", "Pages as images"))
        self.pages_button.setCheckable(True)
        self.pages_button.setAutoRaise(True)
        tip = QCoreApplication.translate(
            "DocumentChip",
            "Also send the first {count} pages as images, for models that see (scanned pages, figures, formulas)",  # noqa: E501
        )
        self.pages_button.setToolTip(tip.format(count=MAX_PAGE_IMAGES))
        self.pages_button.toggled.connect(self._toggle_pages)
        self.pages_button.hide()
        self.page_blocks: list[ImageBlock] = []
        self._pages_future: Future[tuple[list[ImageBlock], int]] | None = None
        self._scanned = False
        self._build()
        self._poll = QTimer(self)
        self._poll.setInterval(_POLL_MS)
        self._poll.timeout.connect(self._check)
        self._poll.start()
        self._preview: QDialog | None = None

    def _build(self) -> None:
        text = QVBoxLayout()
        text.setContentsMargins(0, 0, 0, 0)
        text.setSpacing(0)
        text.addWidget(self.name, 0, Qt.AlignmentFlag.AlignLeft)
        text.addWidget(self.status)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 4, 2, 4)
        layout.setSpacing(6)
        layout.addWidget(self.badge)
        layout.addLayout(text)
        layout.addWidget(self.pages_button)
        layout.addWidget(self.remove_button)

    def wait(self, timeout: float = 30.0) -> None:
        """Block until extraction (and page rendering) ends and apply the result (tests)."""
        try:
            self._future.exception(timeout)
            if self._pages_future is not None:
                self._pages_future.exception(timeout)
        finally:
            self._check()
            self._check_pages()

    def cancel(self) -> None:
        """Stop extracting (the chip is being removed)."""
        self._cancel.set()
        self._poll.stop()

    @property
    def tokens(self) -> int:
        """Estimated tokens this document adds to the message (0 unless ready)."""
        text = self.document.tokens if self.document is not None else 0
        return text + _IMAGE_TOKENS * len(self.page_blocks)

    def blocks(self) -> list[ContentBlock]:
        """The text part and any page images sent to the model (none unless ready)."""
        if self.state != "ready" or self.document is None:
            return []
        return [TextBlock(type="text", text=self.document.part()), *self.page_blocks]

    def _toggle_pages(self, on: bool) -> None:
        self.page_blocks = []
        if not on:
            if self._pages_future is not None:
                self._pages_future.cancel()
                self._pages_future = None
            if self._scanned:
                self.document = None  # only the images made it worth sending
            self._show_result()
            self.state_changed.emit()
            return
        self._pages_future = _EXECUTOR.submit(page_image_blocks, self.path, self._cancel)
        self.status.setText(QCoreApplication.translate("DocumentChip", "Rendering pages…"))
        self.state = "reading"
        self.state_changed.emit()
        self._poll.start()

    def _check_pages(self) -> None:
        future = self._pages_future
        if future is None or not future.done():
            return
        self._pages_future = None
        try:
            self.page_blocks, pages = future.result()
        except (DocumentError, ExtractionCancelled) as exc:
            tip = QCoreApplication.translate(
                "DocumentChip", "The pages could not be rendered: {reason}"
            )
            self.pages_button.setToolTip(tip.format(reason=exc))
            self.pages_button.setChecked(False)  # back to the text alone (or nothing)
            return
        if self._scanned:
            text = "(This PDF has no text layer: its pages follow as images.)"
            self.document = ExtractedDocument(
                self.path.name, "pdf", "application/pdf", self.path.stat().st_size, text, pages
            )
        self._show_result()
        self.state_changed.emit()

    def _show_result(self) -> None:
        if self.document is None:
            self.state = "failed"
            text = QCoreApplication.translate(
                "DocumentChip", "Not attached: no text; send the pages as images?"
            )
            self.status.setText(_elide(text, 52))
            return
        self.state = "ready"
        self.status.setProperty("error", False)
        self.status.style().polish(self.status)
        self.status.setText(document_summary(self.document, len(self.page_blocks)))

    def _check(self) -> None:
        self._check_pages()
        if self._future.done() and self._pages_future is None:
            self._poll.stop()
        if not self._future.done() or self.state != "reading" or self._pages_future:
            return
        if self.document is not None or self._scanned:
            return
        try:
            self.document = self._future.result()
        except ExtractionCancelled:
            return
        except ScannedDocument as exc:
            self._scanned = True
            self._fail(str(exc))
        except DocumentError as exc:
            self._fail(str(exc))
        except Exception as exc:  # a bug or an unexpected library error: say so, send nothing
            text = QCoreApplication.translate("DocumentChip", "{name} could not be read ({error}).")
            self._fail(text.format(name=self.path.name, error=f"{type(exc).__name__}: {exc}"))
        else:
            self.state = "ready"
            self.status.setText(document_summary(self.document))
        self.pages_button.setVisible(
            self.path.suffix.lower() == ".pdf" and (self.document is not None or self._scanned)
        )
        self.state_changed.emit()

    def _fail(self, message: str) -> None:
        self.state = "failed"
        self.error = message
        reason = message.removeprefix(self.path.name).strip().removeprefix("is ")
        reason = reason.split(" (")[0].rstrip(".")
        text = QCoreApplication.translate("DocumentChip", "Not attached: {reason}").format(
            reason=reason
        )
        self.status.setText(_elide(text, 48))
        self.status.setProperty("error", True)
        self.status.setToolTip(message)
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)

    def open_preview(self) -> QDialog | None:
        """Show the extracted text in a read-only, non-modal window."""
        if self.document is None:
            return None
        if self._preview is None:
            dialog = QDialog(self.window())
            title = QCoreApplication.translate("DocumentChip", "{name} — text sent to the model")
            dialog.setWindowTitle(title.format(name=self.document.name))
            view = QPlainTextEdit()
            view.setReadOnly(True)
            view.setPlainText(self.document.text)
            layout = QVBoxLayout(dialog)
            layout.addWidget(QLabel(document_summary(self.document)))
            layout.addWidget(view)
            dialog.resize(640, 480)
            self._preview = dialog
        self._preview.show()
        self._preview.raise_()
        return self._preview


def _elide(text: str, limit: int = 32) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
