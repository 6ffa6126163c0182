"""A shell or Python tool result shown as a result: exit code, output, errors.

The tools report ``<returncode>…</returncode><stdout>…</stdout><stderr>…</stderr>``
(AgentScope's format; the return code arrives with the last chunk). Read raw, the tags hide
what matters, so the card shows the exit code as a caption and each non-empty stream in
monospace under its own heading; a long stream shows its first lines and a button to
show all of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QToolButton, QVBoxLayout, QWidget

from desktop_agent.ui._plain import plain_label
from desktop_agent.ui.chat._context import RenderContext
from desktop_agent.ui.chat._text_views import PlainTextView

COLLAPSED_LINES = 12
"""A stream longer than this shows this many lines until "Show all" is clicked."""

_SHELL = re.compile(
    r"\A(?:<returncode>(?P<code>[^<]*)</returncode>)?"
    r"<stdout>(?P<stdout>.*?)</stdout><stderr>(?P<stderr>.*?)</stderr>(?P<rest>.*)\Z",
    re.DOTALL,
)


@dataclass(frozen=True)
class ShellOutput:
    """A program's result: ``returncode`` is ``None`` while it still runs."""

    returncode: str | None
    stdout: str
    stderr: str
    rest: str = ""


def parse_shell_output(text: str) -> ShellOutput | None:
    """The parts of a shell/Python tool result, or ``None`` if ``text`` is not one."""
    match = _SHELL.match(text)
    if match is None:
        return None
    return ShellOutput(match["code"], match["stdout"], match["stderr"], match["rest"].strip())


def exit_caption(output: ShellOutput) -> str:
    """``"Exit code 0"``, or that the program still runs."""
    if output.returncode is None:
        return QCoreApplication.translate("ShellOutputView", "Running…")
    text = QCoreApplication.translate("ShellOutputView", "Exit code {code}")
    return text.format(code=output.returncode.strip())


class _Stream(QWidget):
    """One stream under a heading, collapsed to its first lines when long."""

    def __init__(self, ctx: RenderContext, heading: str, parent: QWidget) -> None:
        super().__init__(parent)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        self.heading = QLabel(heading, self)
        self.heading.setObjectName("caption")
        column.addWidget(self.heading)
        self.view = PlainTextView(ctx, self)
        column.addWidget(self.view)
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("showAll")
        self.toggle.clicked.connect(self._flip)
        column.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.expanded = False
        self._text = ""

    def set_text(self, text: str) -> None:
        self._text = text
        self.setVisible(bool(text))
        self._show()

    def _flip(self) -> None:
        self.expanded = not self.expanded
        self._show()

    def _show(self) -> None:
        lines = self._text.split("\n")
        long = len(lines) > COLLAPSED_LINES
        shown = self._text if self.expanded or not long else "\n".join(lines[:COLLAPSED_LINES])
        self.view.set_text(shown)
        self.toggle.setVisible(long)
        if self.expanded:
            self.toggle.setText(QCoreApplication.translate("ShellOutputView", "Show less"))
        else:
            count = len(lines)  # a plain name: lupdate skips a call whose n is an expression
            text = QCoreApplication.translate("ShellOutputView", "Show all %n lines", "", count)
            self.toggle.setText(text)
        self.updateGeometry()


class ShellOutputView(QWidget):
    """Exit code, standard output and standard error of a program a tool ran."""

    def __init__(self, ctx: RenderContext, parent: QWidget | None = None) -> None:
        """Create an empty view (see :meth:`set_text`)."""
        super().__init__(parent)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(6)
        self.exit_label = plain_label("", self)
        self.exit_label.setObjectName("exitCode")
        column.addWidget(self.exit_label)
        self.stdout = _Stream(ctx, QCoreApplication.translate("ShellOutputView", "Output"), self)
        self.stderr = _Stream(
            ctx, QCoreApplication.translate("ShellOutputView", "Errors (stderr)"), self
        )
        self.empty = QLabel(QCoreApplication.translate("ShellOutputView", "No output."), self)
        self.empty.setObjectName("caption")
        self.note = plain_label("", self)
        self.note.setProperty("i18n_data", True)  # what the tool said besides the streams
        self.note.setWordWrap(True)
        for widget in (self.stdout, self.stderr, self.empty, self.note):
            column.addWidget(widget)
        self.output: ShellOutput | None = None

    def set_text(self, text: str) -> None:
        """Show the tool result ``text`` (it must parse: see :func:`parse_shell_output`)."""
        output = parse_shell_output(text)
        if output is None or output == self.output:
            return
        self.output = output
        self.exit_label.setText(exit_caption(output))
        failed = output.returncode is not None and output.returncode.strip() not in ("0", "")
        self.exit_label.setProperty("failed", failed)
        self.exit_label.style().unpolish(self.exit_label)
        self.exit_label.style().polish(self.exit_label)
        self.stdout.set_text(output.stdout)
        self.stderr.set_text(output.stderr)
        self.empty.setVisible(
            not output.stdout and not output.stderr and output.returncode is not None
        )
        self.note.setText(output.rest)
        self.note.setVisible(bool(output.rest))
        self.updateGeometry()

    def shown_text(self) -> str:
        """What the view shows, as plain text (tests, copying)."""
        parts = [self.exit_label.text()]
        for stream in (self.stdout, self.stderr):
            if stream.isVisibleTo(self):
                parts += [stream.heading.text(), stream.view.document().toPlainText()]
        if self.note.text():
            parts.append(self.note.text())
        return "\n".join(parts)
