"""The composer: text, attachments, and the Send/Stop button.

A passive widget: it emits ``send_requested`` with the message content (a string, or a
list of text/image/audio blocks) and ``stop_requested``; the chat controller decides what
happens and tells it back through :meth:`set_busy` and :meth:`set_can_send`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

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
from desktop_agent.ui.composer._input import ComposerInput

_MIN_LINES = 2
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
        self.input = ComposerInput()
        self.input.submitted.connect(self._on_submit)
        self.input.image_pasted.connect(self.add_image)
        self.input.files_dropped.connect(self.add_files)
        self.input.textChanged.connect(self._refresh)
        self.input.blockCountChanged.connect(self._fit_height)
        self.input.installEventFilter(self)  # the frame shows the focus ring of the input
        self.attach_button = QToolButton()
        self.attach_button.setText("+")  # plain glyphs: emoji fonts are often missing
        self.attach_button.setToolTip("Attach images or audio files")
        self.attach_button.setAutoRaise(True)
        self.attach_button.clicked.connect(self.open_file_dialog)
        self.allowed_tools = AllowedToolsChip()  # tools allowed in this chat, revocable
        self.send_button = QPushButton("Send")
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
        """Attach image/audio files; returns the paths that were not images or audio."""
        rejected = []
        for raw in paths:
            attachment = attachment_from_path(Path(raw))
            if attachment is None:
                rejected.append(Path(raw))
            else:
                self._add(attachment)
        return rejected

    def add_image(self, image: QImage) -> None:
        """Attach pasted image data."""
        self._add(attachment_from_image(image))

    def remove_attachment(self, chip: AttachmentChip) -> None:
        """Drop one attachment."""
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

    def open_file_dialog(self) -> QFileDialog:
        """Pick files with a non-blocking (``open()``) dialog."""
        dialog = QFileDialog(self, "Attach images or audio")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        patterns = " ".join(f"*{s}" for s in sorted(IMAGE_SUFFIXES | AUDIO_SUFFIXES))
        dialog.setNameFilters([f"Images and audio ({patterns})", "All files (*)"])
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
        if not self._chips:
            return text
        blocks: list[ContentBlock] = [TextBlock(type="text", text=text)] if text else []
        blocks.extend(chip.attachment.block() for chip in self._chips)
        return blocks

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
        self.send_requested.emit(content)
        self.clear()

    def _on_button(self) -> None:
        if self._busy:
            self.stop_requested.emit()
        else:
            self._on_submit()

    def _add(self, attachment: Attachment) -> None:
        chip = AttachmentChip(attachment)
        chip.remove_requested.connect(self.remove_attachment)
        self._chips.append(chip)
        self._chip_row.insertWidget(self._chip_row.count() - 1, chip)
        self._refresh()

    def _refresh(self) -> None:
        self._chip_box.setVisible(bool(self._chips))
        if self._busy:
            self.send_button.setText("Stop")
            self.send_button.setProperty("accent", False)
            self.send_button.setProperty("danger", True)
            self.send_button.setEnabled(True)
        else:
            has_content = bool(self._chips) or self._has_text()
            self.send_button.setText("Send")
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
        row.addWidget(self.input, 1)
        row.addWidget(self.allowed_tools)
        row.addWidget(self.send_button)
        column = QVBoxLayout(self)
        column.setContentsMargins(8, 6, 8, 6)
        column.setSpacing(4)
        column.addWidget(self._chip_box)
        column.addLayout(row)
