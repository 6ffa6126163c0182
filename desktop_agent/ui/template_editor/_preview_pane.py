"""The right pane: a live preview of what the next turn would send with the draft.

:class:`PreviewController` owns the asyncio side: each request restarts a ~250 ms
debounce timer; when it fires, the previous build (if still running) is cancelled and a
new one runs as a named task on the running qasync loop, so typing never waits for a
build. Results come back as Qt signals. :class:`PreviewPane` is a passive view.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.context import ContextConfig, InputModule
from desktop_agent.ui._plain import sentence
from desktop_agent.ui.template_editor._preview import Preview, build_preview

if TYPE_CHECKING:
    from desktop_agent.memory import MemoryBase

DEBOUNCE_MS = 250
MemoryProvider = Callable[[], "MemoryBase | None"]
VariablesProvider = Callable[[], Mapping[str, Any]]
_ROLE_COLORS = {"system": "#7c5cbf", "user": "#2f6fdf", "assistant": "#2e8b57", "tool": "#b7791f"}


class PreviewController(QObject):
    """Debounced, cancellable preview builds on the running event loop.

    Signals: ``started()`` when a build starts, ``finished(Preview)`` with its result,
    ``failed(str)`` with a reason when it could not be built.
    """

    started = Signal()
    finished = Signal(object)
    failed = Signal(str)

    def __init__(
        self,
        input_module: InputModule,
        memory_provider: MemoryProvider | None = None,
        variables_provider: VariablesProvider | None = None,
        parent: QObject | None = None,
    ) -> None:
        """Preview builds for ``input_module``'s session.

        Args:
            input_module: The session's module (never changed by a preview).
            memory_provider: Returns the session's conversation at build time.
            variables_provider: Returns the build values the agent passes
                (``agent_name``, ``sys_prompt``).
            parent: The Qt parent.
        """
        super().__init__(parent)
        self.input_module = input_module
        self._memory_provider = memory_provider
        self._variables_provider = variables_provider
        self._request: tuple[ContextConfig, str | None] | None = None
        self.task: asyncio.Task[None] | None = None
        # If the window is destroyed without closing, a running build must not outlive it
        # (it would emit on a deleted object). The closure holds no reference to ``self``.
        running: list[asyncio.Task[None]] = []
        self._running = running
        self.destroyed.connect(lambda *_: [task.cancel() for task in running])
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.run_now)

    def request(self, config: ContextConfig, user_input: str | None = None) -> None:
        """Build a preview of ``config`` once requests pause for the debounce delay."""
        self._request = (config, user_input)
        self._timer.start()

    def run_now(self) -> None:
        """Start the pending build now, cancelling a build still running."""
        self._timer.stop()
        if self._request is None:
            return
        config, user_input = self._request
        self._request = None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.failed.emit(
                QCoreApplication.translate(
                    "PreviewController", "The preview needs the application's event loop."
                )
            )
            return
        self._cancel_task()
        task = loop.create_task(self._build(config, user_input), name="template-preview")
        self.task = task
        self._running.append(task)
        task.add_done_callback(self._running.remove)
        self.started.emit()

    def cancel(self) -> None:
        """Drop the pending request and cancel a running build."""
        self._timer.stop()
        self._request = None
        self._cancel_task()

    def _cancel_task(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    async def _build(self, config: ContextConfig, user_input: str | None) -> None:
        memory = self._memory_provider() if self._memory_provider else None
        variables = dict(self._variables_provider()) if self._variables_provider else {}
        try:
            preview = await build_preview(
                self.input_module,
                config,
                memory=memory,
                user_input=user_input,
                variables=variables,
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a faulty memory or plug-in: say so in the pane
            failed = QCoreApplication.translate(
                "PreviewController", "The preview could not be built: {error}"
            )
            self.failed.emit(sentence(failed.format(error=f"{type(exc).__name__}: {exc}")))
            return
        self.finished.emit(preview)


class PreviewPane(QWidget):
    """Per-module report (included or not, why, tokens), the messages and the prompt.

    Signal ``sample_input_changed(str)``: the user typed a sample message to preview with.
    """

    sample_input_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        """Build the empty pane."""
        super().__init__(parent)
        self.sample_input = QLineEdit()
        self.sample_input.setPlaceholderText(
            QCoreApplication.translate(
                "PreviewPane", "Sample message (default: the session's last one)"
            )
        )
        self.sample_input.setClearButtonEnabled(True)
        self.sample_input.textChanged.connect(self.sample_input_changed)
        self.report = _report_tree()
        self.messages = QTextBrowser()
        self.messages.setOpenLinks(False)
        self.prompt = QPlainTextEdit()
        self.prompt.setReadOnly(True)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.messages, QCoreApplication.translate("PreviewPane", "Messages"))
        self.tabs.addTab(self.prompt, QCoreApplication.translate("PreviewPane", "Prompt text"))
        self.status = QLabel(QCoreApplication.translate("PreviewPane", "Preview not built yet."))
        self.status.setObjectName("caption")
        self.status.setWordWrap(True)
        self._build_layout()

    def _build_layout(self) -> None:
        title = QLabel(QCoreApplication.translate("PreviewPane", "Preview"))
        title.setObjectName("templateEditorTitle")
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.report)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(title)
        layout.addWidget(self.sample_input)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.status)

    def sample_text(self) -> str | None:
        """The sample message, or ``None`` to use the conversation's."""
        text = self.sample_input.text()
        return text if text.strip() else None

    def show_preview(self, preview: Preview) -> None:
        """Show a finished build."""
        self._show_report(preview)
        self.messages.setHtml(_messages_html(preview))
        self.prompt.setPlainText(preview.prompt)
        included = sum(1 for report in preview.reports if report.included)
        count = len(preview.messages)  # a plain name: lupdate skips a call as the count
        messages = QCoreApplication.translate("PreviewPane", "%n message(s)", "", count)
        modules = QCoreApplication.translate(
            "PreviewPane", "{included} of {total} modules included"
        )
        tokens = QCoreApplication.translate("PreviewPane", "~{count} tokens (estimate)")
        modules = modules.format(included=included, total=len(preview.reports))
        tokens = tokens.format(count=preview.included_tokens)
        self.status.setText(f"{messages} · {modules} · {tokens}")

    def show_busy(self) -> None:
        """A build is running."""
        self.status.setText(QCoreApplication.translate("PreviewPane", "Updating the preview…"))

    def show_paused(self, reason: str) -> None:
        """The preview cannot be built now (the draft has problems, say)."""
        self.status.setText(
            QCoreApplication.translate("PreviewPane", "{reason} The last preview is shown.").format(
                reason=reason
            )
        )

    def _show_report(self, preview: Preview) -> None:
        self.report.clear()
        muted = self.palette().color(self.palette().ColorRole.PlaceholderText)
        for report in preview.reports:
            mark = "✓" if report.included else "✗"
            said = plain_reason(report.reason, report.included)
            item = QTreeWidgetItem([report.module_name, f"{mark} {said}", ""])
            item.setText(2, str(report.tokens) if report.included else "–")
            item.setTextAlignment(2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            engine = QCoreApplication.translate("PreviewPane", "{verdict}\n(engine: {reason})")
            item.setToolTip(1, engine.format(verdict=said, reason=report.reason))
            item.setToolTip(
                0, report.text[:2000] or QCoreApplication.translate("PreviewPane", "(empty)")
            )
            if not report.included:
                for column in range(3):
                    item.setForeground(column, QColor(muted))
            self.report.addTopLevelItem(item)


def _report_tree() -> QTreeWidget:
    tree = QTreeWidget()
    tree.setProperty("i18n_data", True)  # module names (the rest is translated)
    tree.setColumnCount(3)
    tree.setHeaderLabels(
        [
            QCoreApplication.translate("PreviewPane", "Module"),
            QCoreApplication.translate("PreviewPane", "Included · why"),
            QCoreApplication.translate("PreviewPane", "Tokens"),
        ]
    )
    tree.setRootIsDecorated(False)
    tree.setUniformRowHeights(True)
    tree.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    header = tree.header()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
    header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
    return tree


def _messages_html(preview: Preview) -> str:
    if not preview.messages:
        empty = QCoreApplication.translate(
            "PreviewPane", "No messages: every module is excluded or empty."
        )
        return f"<p><i>{html.escape(empty)}</i></p>"
    parts = []
    for message in preview.messages:
        color = _ROLE_COLORS.get(message.role, "#666666")
        no_text = QCoreApplication.translate("PreviewPane", "(no text)")
        text = html.escape(message.text) or f"<i>{html.escape(no_text)}</i>"
        name = "" if message.name == message.role else html.escape(message.name)
        parts.append(
            f'<p style="margin-top:8px; margin-bottom:2px;">'
            f'<span style="background-color:{color}; color:#ffffff; font-weight:600;">'
            f"&nbsp;{html.escape(message.role)}&nbsp;</span>"
            f'&nbsp;<span style="color:#888888;">{name}</span></p>'
            f'<p style="white-space:pre-wrap; margin-top:0px;">{text}</p>'
        )
    return "".join(parts)


_BUILTIN_VERDICTS = {  # (function, its answer, included) -> what the report says
    ("is_relevant_func", True, True): QT_TRANSLATE_NOOP(
        "PreviewPane", "included: shares words with your message"
    ),
    ("is_relevant_func", False, False): QT_TRANSLATE_NOOP(
        "PreviewPane", "left out: no words in common with your message"
    ),
    ("has_content", True, True): QT_TRANSLATE_NOOP(
        "PreviewPane", "included: its variables have content"
    ),
    ("has_content", False, False): QT_TRANSLATE_NOOP(
        "PreviewPane", "left out: its variables are empty"
    ),
}
_SAID = {  # (its answer, included) -> what the report says of another function
    (True, True): QT_TRANSLATE_NOOP("PreviewPane", "included: {name} said yes"),
    (False, True): QT_TRANSLATE_NOOP("PreviewPane", "included: {name} said no"),
    (True, False): QT_TRANSLATE_NOOP("PreviewPane", "left out: {name} said yes"),
    (False, False): QT_TRANSLATE_NOOP("PreviewPane", "left out: {name} said no"),
}


def plain_reason(reason: str, included: bool) -> str:
    """Why a module is in or out, in the user's words ("left out: its variables are empty")
    rather than the engine's ("has_content returned False")."""
    if reason == "always":
        return QCoreApplication.translate("PreviewPane", "included: always")
    if reason == "importance_func=false":
        return QCoreApplication.translate(
            "PreviewPane", "left out: switched off (importance: never)"
        )
    if reason.startswith("error: "):
        error = reason.removeprefix("error: ")
        return QCoreApplication.translate("PreviewPane", "left out: an error — {error}").format(
            error=error
        )
    name, returned, value = reason.rpartition(" returned ")
    if not returned:
        if included:
            return QCoreApplication.translate("PreviewPane", "included: {reason}").format(
                reason=reason
            )
        return QCoreApplication.translate("PreviewPane", "left out: {reason}").format(reason=reason)
    said_yes = value == "True"
    known = _BUILTIN_VERDICTS.get((name, said_yes, included))
    if known is not None:
        return QCoreApplication.translate("PreviewPane", known)
    return QCoreApplication.translate("PreviewPane", _SAID[said_yes, included]).format(name=name)
