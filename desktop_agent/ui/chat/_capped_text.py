"""How much of one text block the chat pane renders, and the bar offering the rest.

A 20 MB reply rendered whole froze the window for half a minute and took a gigabyte:
every chunk of the text becomes a laid-out document. A block therefore renders its first
``RENDER_CAP_CHARS`` characters (cut at a line end) and shows a bar under them — "Showing
the first 32 KB of 20.0 MB" with **Show more** (four times as much, rendered in budgeted
slices like any text) and **Save to file…** (the whole text, written in a worker thread).
The full text stays in the message; only what is drawn is bounded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QToolButton, QWidget
from shiboken6 import isValid

from desktop_agent._logging import logger
from desktop_agent.ui._plain import plain_label

RENDER_CAP_CHARS = 32 * 1024
"""Characters of one text block rendered until the user asks for more."""
SHOW_MORE_FACTOR = 4


def capped(text: str, final: bool, cap: int) -> tuple[str, bool]:
    """The part of ``text`` to render under ``cap`` characters, and whether it is final.

    A cut text is cut at the last line end before ``cap`` (if that keeps at least half of
    it), and is final: what follows never changes what is drawn.
    """
    if len(text) <= cap:
        return text, final
    end = text.rfind("\n", 0, cap)
    return text[: end + 1 if end >= cap // 2 else cap], True


def size_text(chars: int) -> str:
    """``"64 KB"``, ``"20.0 MB"``: a character count as a size."""
    if chars >= 1024 * 1024:
        return f"{chars / 1024 / 1024:.1f} MB"
    return f"{max(1, round(chars / 1024))} KB"


class CapBar(QWidget):
    """ "Showing the first N of M." · Show more · Save to file…"""

    more_requested = Signal()

    def __init__(self, full_text: Callable[[], str], parent: QWidget | None = None) -> None:
        """Create the bar; ``full_text()`` is read when the user saves."""
        super().__init__(parent)
        self.setObjectName("capBar")
        self._full_text = full_text
        self._writes: set[asyncio.Future[str]] = set()
        self.label = plain_label("", self)
        self.label.setObjectName("caption")
        self.more_button = QToolButton(self)
        self.more_button.setText(QCoreApplication.translate("CapBar", "Show more"))
        self.more_button.setToolTip(
            QCoreApplication.translate("CapBar", "Render more of this text")
        )
        self.more_button.clicked.connect(self.more_requested)
        self.save_button = QToolButton(self)
        self.save_button.setText(QCoreApplication.translate("CapBar", "Save to file…"))
        self.save_button.setToolTip(
            QCoreApplication.translate("CapBar", "Save the whole text to a file")
        )
        self.save_button.clicked.connect(self.choose_file)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 2, 0, 2)
        row.setSpacing(8)
        row.addWidget(self.label, 1)
        row.addWidget(self.more_button)
        row.addWidget(self.save_button)

    def set_complete(self, complete: bool) -> None:
        """Offer Save to file… only for a whole text (not a reply still streaming)."""
        if self.save_button.isEnabled() != complete:
            self.save_button.setEnabled(complete)
            self.save_button.setToolTip(
                QCoreApplication.translate("CapBar", "Save the whole text to a file")
                if complete
                else QCoreApplication.translate("CapBar", "Available when the reply ends")
            )

    def show_sizes(self, shown: int, total: int) -> None:
        """Say how much of the text is drawn."""
        text = QCoreApplication.translate("CapBar", "Showing the first {shown} of {total}.").format(
            shown=size_text(shown), total=size_text(total)
        )
        if self.label.text() != text:
            self.label.setText(text)

    def choose_file(self) -> QFileDialog:
        """Ask where to save (a non-blocking dialog)."""
        dialog = QFileDialog(self, QCoreApplication.translate("CapBar", "Save the whole text"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("md")
        dialog.selectFile("reply.md")
        dialog.fileSelected.connect(self.save_to)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def save_to(self, path: str | Path) -> asyncio.Future[str] | None:
        """Write the whole text to ``path`` (in a worker thread when a loop runs)."""
        text, target = self._full_text(), Path(path)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._report(target, _write(target, text))
            return None
        future = loop.run_in_executor(None, _write, target, text)
        self._writes.add(future)
        future.add_done_callback(lambda done: self._saved(target, done))
        return future

    def _saved(self, target: Path, done: asyncio.Future[str]) -> None:
        self._writes.discard(done)
        if not done.cancelled() and isValid(self):
            self._report(target, done.result())

    def _report(self, target: Path, problem: str) -> None:
        if problem:
            text = QCoreApplication.translate("CapBar", "Could not save to {path}: {problem}")
        else:
            text = QCoreApplication.translate("CapBar", "Saved to {path}.")
        self.label.setText(text.format(path=target, problem=problem))


def _write(path: Path, text: str) -> str:
    """Write ``text``; ``""``, or why it failed."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        logger.warning("Could not save the text to %s: %s", path, exc)
        return exc.strerror or str(exc)
    return ""
