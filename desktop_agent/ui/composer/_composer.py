"""The composer: text, attachments, and the Send/Stop button.

A passive widget: it emits ``send_requested`` with the message content (a string, or a
list of text/image/audio blocks) and ``stop_requested``; the chat controller decides what
happens and tells it back through :meth:`set_busy` and :meth:`set_can_send`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.app._documents import (
    DEFAULT_CONTEXT_TOKENS,
    TEXT_SUFFIXES,
    budget_warning,
    document_kind,
)
from desktop_agent.app._transcription import Transcriber, TranscriptionError
from desktop_agent.message import ContentBlock, TextBlock
from desktop_agent.ui.composer._allowed_tools import AllowedToolsChip
from desktop_agent.ui.composer._attachments import (
    AUDIO_SUFFIXES,
    IMAGE_SUFFIXES,
    Attachment,
    AttachmentChip,
    attachment_from_image,
    attachment_from_path,
)
from desktop_agent.ui.composer._documents import DocumentChip
from desktop_agent.ui.composer._input import ComposerInput
from desktop_agent.ui.composer._voice import AudioChip, VoiceButton, transcribe_into

_MIN_LINES = 2
VOICE_SHORTCUT = "Ctrl+Shift+M"
_MAX_LINES = 10


class Composer(QFrame):
    """Multi-line input with attachment previews and a Send button that turns into Stop."""

    send_requested = Signal(object)
    stop_requested = Signal()
    send_refused = Signal(str)
    """Enter was pressed with something to send, but sending is off; the reason why."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        self._busy = False
        self._styled_busy = False
        self._can_send = True
        self._cannot_send_reason = ""
        self._chips: list[AttachmentChip] = []
        self._documents: list[DocumentChip] = []
        self.context_tokens = DEFAULT_CONTEXT_TOKENS
        """The model's context size in tokens (the budget the documents are checked against)."""
        self._budget_confirmed = False
        self.budget_warning = QLabel()
        self.budget_warning.setObjectName("budgetWarning")
        self.budget_warning.setTextFormat(Qt.TextFormat.PlainText)
        self.budget_warning.setWordWrap(True)
        self.budget_warning.hide()
        self.input = ComposerInput()
        self.input.submitted.connect(self._on_submit)
        self.input.image_pasted.connect(self.add_image)
        self.input.files_dropped.connect(self.add_files)
        self.input.textChanged.connect(self._refresh)
        self.input.blockCountChanged.connect(self._fit_height)
        self.input.installEventFilter(self)  # the frame shows the focus ring of the input
        self.attach_button = QToolButton()
        self.attach_button.setText("+")  # plain glyphs: emoji fonts are often missing
        self.attach_button.setToolTip(
            QCoreApplication.translate(
                "Composer", "Attach images, audio or documents (text, PDF, Word)"
            )
        )
        self.attach_button.setAutoRaise(True)
        self.attach_button.clicked.connect(self.open_file_dialog)
        self.voice = VoiceButton()  # records a voice message into an audio attachment
        self._transcriber: Transcriber | None = None
        self._tasks: set[asyncio.Task[TranscriptionError | None]] = set()
        self.voice.recorded.connect(self._add)
        self.voice_shortcut = QShortcut(QKeySequence(VOICE_SHORTCUT), self, self.voice.toggle)
        self.allowed_tools = AllowedToolsChip()  # tools allowed in this chat, revocable
        self.send_button = QPushButton(QCoreApplication.translate("Composer", "Send"))
        self.send_button.setProperty("accent", True)
        self.send_button.clicked.connect(self._on_button)
        self._chip_row = QHBoxLayout()
        self._chip_row.setContentsMargins(0, 0, 0, 0)
        self._chip_row.addStretch(1)
        self._chip_box = QWidget()
        self._chip_box.setLayout(self._chip_row)
        self._chip_box.hide()
        self.setAcceptDrops(True)
        self._build_layout()
        self._fit_height()
        self._refresh()

    # -- what the controller calls -----------------------------------------------------

    def set_busy(self, busy: bool) -> None:
        """While a turn runs the button reads Stop (and Esc stops)."""
        self._busy = busy
        self._refresh()

    def set_can_send(self, can_send: bool, reason: str = "") -> None:
        """Enable or disable sending (e.g. no provider configured), with a tooltip why."""
        self._can_send = can_send
        self._cannot_send_reason = reason
        self.send_button.setToolTip("" if can_send else reason)
        self._refresh()

    @property
    def busy(self) -> bool:
        """Whether the button currently reads Stop."""
        return self._busy

    def attachments(self) -> list[Attachment]:
        """The attachments waiting to be sent, in order."""
        return [chip.attachment for chip in self._chips]

    def attachment_chips(self) -> list[AttachmentChip]:
        """The preview chips, in order."""
        return list(self._chips)

    def add_files(self, paths: Iterable[Path | str]) -> list[Path]:
        """Attach image/audio files and documents; returns the paths that were neither."""
        rejected = []
        for raw in paths:
            attachment = attachment_from_path(Path(raw))
            if attachment is not None:
                self._add(attachment)
            elif Path(raw).is_file() and document_kind(Path(raw)) is not None:
                self.add_document(Path(raw))
            else:
                rejected.append(Path(raw))
        return rejected

    def add_document(self, path: Path) -> DocumentChip:
        """Attach a document; its text is extracted in a worker thread."""
        chip = DocumentChip(path)
        chip.remove_requested.connect(self.remove_attachment)
        chip.state_changed.connect(self._refresh)
        self._documents.append(chip)
        self._chip_row.insertWidget(self._chip_row.count() - 1, chip)
        self._refresh()
        return chip

    def document_chips(self) -> list[DocumentChip]:
        """The document chips, in order."""
        return list(self._documents)

    def add_image(self, image: QImage) -> None:
        """Attach pasted image data."""
        self._add(attachment_from_image(image))

    def remove_attachment(self, chip: AttachmentChip | DocumentChip) -> None:
        """Drop one attachment (a document still being read stops being read)."""
        if isinstance(chip, DocumentChip) and chip in self._documents:
            chip.cancel()
            self._documents.remove(chip)
            self._chip_row.removeWidget(chip)
            chip.deleteLater()
        if chip in self._chips:
            self._chips.remove(chip)
            self._chip_row.removeWidget(chip)
            chip.deleteLater()
        self._refresh()

    def clear(self) -> None:
        """Empty the text and drop every attachment."""
        self.input.clear()
        for chip in list(self._chips):
            self.remove_attachment(chip)
        for document in list(self._documents):
            self.remove_attachment(document)

    def open_file_dialog(self) -> QFileDialog:
        """Pick files with a non-blocking (``open()``) dialog."""
        dialog = QFileDialog(
            self, QCoreApplication.translate("Composer", "Attach images, audio or documents")
        )
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        patterns = " ".join(f"*{s}" for s in sorted(IMAGE_SUFFIXES | AUDIO_SUFFIXES))
        documents = " ".join(f"*{s}" for s in sorted(TEXT_SUFFIXES | {".pdf", ".docx"}))
        dialog.setNameFilters(
            [
                QCoreApplication.translate("Composer", "Images and audio ({patterns})").format(
                    patterns=patterns
                ),
                QCoreApplication.translate("Composer", "Documents ({patterns})").format(
                    patterns=documents
                ),
                QCoreApplication.translate("Composer", "All files (*)"),
            ]
        )
        dialog.filesSelected.connect(self.add_files)
        dialog.finished.connect(dialog.deleteLater)
        dialog.finished.connect(lambda _result: self.input.setFocus())
        dialog.open()
        return dialog

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Ring the whole composer while its input has the keyboard focus."""
        if watched is self.input and event.type() in (QEvent.Type.FocusIn, QEvent.Type.FocusOut):
            focused = event.type() == QEvent.Type.FocusIn
            if bool(self.property("focused")) != focused:
                self.setProperty("focused", focused)
                self.style().unpolish(self)
                self.style().polish(self)
        return super().eventFilter(watched, event)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept files and images dropped anywhere on the composer."""
        if self.input.canInsertFromMimeData(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """Dropped media become attachments (the input decides)."""
        self.input.insertFromMimeData(event.mimeData())
        event.acceptProposedAction()

    # -- internals ---------------------------------------------------------------------

    def content(self) -> str | list[ContentBlock]:
        """What Send would send: plain text, or text and media blocks."""
        text = self.input.toPlainText().strip()
        documents = [block for chip in self._documents for block in chip.blocks()]
        if not self._chips and not documents:
            return text
        blocks: list[ContentBlock] = [*documents]  # documents first, then the question
        if text:
            blocks.append(TextBlock(type="text", text=text))
        blocks.extend(chip.attachment.block() for chip in self._chips)
        return blocks

    def _documents_block_sending(self) -> str:
        """Why the documents stop this send (``""``: they do not)."""
        reading = [chip.path.name for chip in self._documents if chip.state == "reading"]
        if reading:
            return QCoreApplication.translate("Composer", "Still reading {names}…").format(
                names=", ".join(reading)
            )
        warning = budget_warning(sum(c.tokens for c in self._documents), self.context_tokens)
        if warning and not self._budget_confirmed:
            self._budget_confirmed = True
            text = QCoreApplication.translate(
                "Composer", "{warning} Press Send again to send anyway."
            )
            return text.format(warning=warning)
        return ""

    def _on_submit(self) -> None:
        if self._busy:
            return
        if not self._can_send:
            if self.content():
                self.send_refused.emit(self._cannot_send_reason)
            return
        content = self.content()
        if not content:
            return
        blocked = self._documents_block_sending()
        if blocked:
            self.budget_warning.setText(blocked)
            self.budget_warning.show()
            self.send_refused.emit(blocked)
            return
        self.send_requested.emit(content)
        self.clear()

    def _on_button(self) -> None:
        if self._busy:
            self.stop_requested.emit()
        else:
            self._on_submit()

    def set_transcriber(self, transcriber: Transcriber | None) -> None:
        """Offer "To text" on audio chips, through ``transcriber`` (``None``: not offered)."""
        self._transcriber = transcriber
        for chip in self._chips:
            if isinstance(chip, AudioChip):
                chip.transcribe_button.setVisible(transcriber is not None)

    def transcribe(self, chip: AudioChip) -> asyncio.Task[TranscriptionError | None] | None:
        """Turn ``chip``'s audio into text in the input (errors are reported by
        ``send_refused``); the task, or ``None`` without a transcriber or a running loop."""
        if self._transcriber is None:
            return None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return None
        task = loop.create_task(
            transcribe_into(chip, self._transcriber, self.input), name="transcribe-voice"
        )
        self._tasks.add(task)
        task.add_done_callback(self._transcribed)
        return task

    def _transcribed(self, task: asyncio.Task[TranscriptionError | None]) -> None:
        self._tasks.discard(task)
        error = None if task.cancelled() or task.exception() else task.result()
        if error is not None:
            if error.unsupported:
                self.set_transcriber(None)  # not offered again for this provider
            self.send_refused.emit(str(error))

    def _add(self, attachment: Attachment) -> None:
        chip: AttachmentChip
        if attachment.kind == "audio":
            chip = AudioChip(attachment)
            chip.transcribe_button.setVisible(self._transcriber is not None)
            chip.transcribe_requested.connect(self.transcribe)
        else:
            chip = AttachmentChip(attachment)
        chip.remove_requested.connect(self.remove_attachment)
        self._chips.append(chip)
        self._chip_row.insertWidget(self._chip_row.count() - 1, chip)
        self._refresh()

    def set_context_tokens(self, tokens: int) -> None:
        """The chat's context budget (Parameters) the attached documents are checked against."""
        if tokens != self.context_tokens:
            self.context_tokens = tokens
            self._refresh()

    def _refresh(self) -> None:
        self._chip_box.setVisible(bool(self._chips) or bool(self._documents))
        warning = budget_warning(sum(c.tokens for c in self._documents), self.context_tokens)
        if not warning:
            self._budget_confirmed = False
        self.budget_warning.setText(warning)
        self.budget_warning.setVisible(bool(warning))
        if self._busy:
            self.send_button.setText(QCoreApplication.translate("Composer", "Stop"))
            self.send_button.setProperty("accent", False)
            self.send_button.setProperty("danger", True)
            self.send_button.setEnabled(True)
        else:
            ready = any(chip.state == "ready" for chip in self._documents)
            has_content = bool(self._chips) or ready or self._has_text()
            self.send_button.setText(QCoreApplication.translate("Composer", "Send"))
            self.send_button.setProperty("accent", True)
            self.send_button.setProperty("danger", False)
            self.send_button.setEnabled(self._can_send and has_content)
        if self._styled_busy != self._busy:  # re-polish only when the look changes
            self._styled_busy = self._busy
            self.send_button.style().unpolish(self.send_button)
            self.send_button.style().polish(self.send_button)

    def _has_text(self) -> bool:
        count = self.input.document().characterCount()
        if count > 10_000:  # do not scan a huge paste on every keystroke
            return True
        return count > 1 and bool(self.input.toPlainText().strip())

    def _fit_height(self) -> None:
        lines = min(max(self.input.blockCount(), _MIN_LINES), _MAX_LINES)
        line = self.input.fontMetrics().lineSpacing()
        self.input.setFixedHeight(lines * line + 14)

    def _build_layout(self) -> None:
        row = QHBoxLayout()
        row.setSpacing(6)
        row.addWidget(self.attach_button)
        row.addWidget(self.voice)
        row.addWidget(self.input, 1)
        row.addWidget(self.allowed_tools)
        row.addWidget(self.send_button)
        column = QVBoxLayout(self)
        column.setContentsMargins(8, 6, 8, 6)
        column.setSpacing(4)
        column.addWidget(self._chip_box)
        column.addWidget(self.budget_warning)
        column.addLayout(row)
