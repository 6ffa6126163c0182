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

from PySide6.QtCore import Qt, QTimer, Signal
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
    DocumentError,
    ExtractedDocument,
    ExtractionCancelled,
    badge_text,
    extract_document,
    human_size,
)
from desktop_agent.message import TextBlock

_POLL_MS = 30
_EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="documents")

DocumentState = Literal["reading", "ready", "failed"]


def document_summary(doc: ExtractedDocument) -> str:
    """``"12 pages · 1.2 MB · ≈ 34,000 tokens"``."""
    pages = f"{doc.pages} page{'s' if doc.pages != 1 else ''} · " if doc.pages else ""
    return f"{pages}{human_size(doc.size)} · ≈ {doc.tokens:,} tokens"


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
        self.name = QToolButton()
        self.name.setText(_elide(path.name))
        self.name.setAutoRaise(True)
        self.name.setToolTip(f"{path}\nClick to preview the text sent to the model")
        self.name.clicked.connect(self.open_preview)
        self.status = QLabel("Reading…")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setObjectName("caption")
        self.remove_button = QToolButton()
        self.remove_button.setText("✕")
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip(f"Remove {path.name}")
        self.remove_button.clicked.connect(lambda: self.remove_requested.emit(self))
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
        layout.addWidget(self.remove_button)

    def wait(self, timeout: float = 30.0) -> None:
        """Block until extraction ends and apply the result (tests, benchmarks)."""
        try:
            self._future.exception(timeout)
        finally:
            self._check()

    def cancel(self) -> None:
        """Stop extracting (the chip is being removed)."""
        self._cancel.set()
        self._poll.stop()

    @property
    def tokens(self) -> int:
        """Estimated tokens this document adds to the message (0 unless ready)."""
        return self.document.tokens if self.document is not None else 0

    def block(self) -> TextBlock | None:
        """The text part sent to the model, or ``None`` (still reading, or failed)."""
        if self.document is None:
            return None
        return TextBlock(type="text", text=self.document.part())

    def _check(self) -> None:
        if not self._future.done() or self.state != "reading":
            return
        self._poll.stop()
        try:
            self.document = self._future.result()
        except ExtractionCancelled:
            return
        except DocumentError as exc:
            self._fail(str(exc))
        except Exception as exc:  # a bug or an unexpected library error: say so, send nothing
            self._fail(f"{self.path.name} could not be read ({type(exc).__name__}: {exc}).")
        else:
            self.state = "ready"
            self.status.setText(document_summary(self.document))
        self.state_changed.emit()

    def _fail(self, message: str) -> None:
        self.state = "failed"
        self.error = message
        reason = message.removeprefix(self.path.name).strip().removeprefix("is ")
        reason = reason.split(" (")[0].rstrip(".")
        self.status.setText(_elide("Not attached: " + reason, 48))
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
            dialog.setWindowTitle(f"{self.document.name} — text sent to the model")
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
