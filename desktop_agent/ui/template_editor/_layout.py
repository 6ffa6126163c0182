"""The editor window's frame: toolbar, notice, the three panes, problems and Apply.

Kept apart from ``_window`` so that the window reads as behaviour; this is only where
things go and what their buttons call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.ui._notice import DismissibleNotice
from desktop_agent.ui.template_editor._faults import Fault
from desktop_agent.ui.theme import colors

if TYPE_CHECKING:
    from desktop_agent.ui.template_editor._window import TemplateEditorWindow

_NO_TEMPLATE = QT_TRANSLATE_NOOP("EditorChrome", "Saved templates…")
PANE_STRETCH = (21, 40, 39)
"""How the window's width is shared: modules · form/JSON · preview."""


def share_width(splitter: QSplitter) -> None:
    """Size the panes by :data:`PANE_STRETCH` (once the splitter knows its width)."""
    total = sum(splitter.sizes()) or splitter.width()
    splitter.setSizes([total * part // sum(PANE_STRETCH) for part in PANE_STRETCH])


def _button(text: str, tip: str) -> QPushButton:
    button = QPushButton(text)
    button.setToolTip(tip)
    button.setAutoDefault(False)
    return button


class StackButton(QPushButton):
    """An Undo or Redo button whose tooltip names the command it would undo or redo."""

    def __init__(self, verb: str, keys: str) -> None:
        """``verb`` is "Undo" or "Redo" (translated); ``keys`` its shortcut, for the tooltip."""
        super().__init__(verb)
        self._verb = verb
        self._keys = keys
        self.setAutoDefault(False)
        self.show_command("")

    def show_command(self, text: str) -> None:
        """Name the command in the tooltip: "Undo Rename module (Ctrl+Z)"."""
        tip = QCoreApplication.translate("StackButton", "{verb} {command} ({keys})")
        self.setToolTip(
            tip.format(verb=self._verb, command=text, keys=self._keys) if text else self._keys
        )


class Notice(DismissibleNotice):
    """A dismissible one-line message: what just happened, or why it did not."""

    def __init__(self) -> None:
        """Create it hidden."""
        super().__init__("templateNotice", selectable=True)


class EditorChrome:
    """The window's buttons and labels (attributes), laid out around the panes."""

    def __init__(self, window: TemplateEditorWindow) -> None:
        """Create the widgets and connect them to ``window``'s actions."""
        self.undo = StackButton(QCoreApplication.translate("EditorChrome", "Undo"), "Ctrl+Z")
        self.redo = StackButton(QCoreApplication.translate("EditorChrome", "Redo"), "Ctrl+Shift+Z")
        self.import_ = _button(
            QCoreApplication.translate("EditorChrome", "Import…"),
            QCoreApplication.translate(
                "EditorChrome", "Replace the draft with a template JSON file"
            ),
        )
        self.export = _button(
            QCoreApplication.translate("EditorChrome", "Export…"),
            QCoreApplication.translate("EditorChrome", "Write the draft to a template JSON file"),
        )
        self.reset = _button(
            QCoreApplication.translate("EditorChrome", "Reset to default"),
            QCoreApplication.translate(
                "EditorChrome", "Replace the draft with the built-in template"
            ),
        )
        self.library = QComboBox()
        self.library.setProperty("i18n_data", True)  # template names
        self.library.setMinimumContentsLength(14)
        self.library.setToolTip(QCoreApplication.translate("EditorChrome", "Your saved templates"))
        self.load = _button(
            QCoreApplication.translate("EditorChrome", "Load"),
            QCoreApplication.translate(
                "EditorChrome", "Replace the draft with the selected saved template"
            ),
        )
        self.save = _button(
            QCoreApplication.translate("EditorChrome", "Save as…"),
            QCoreApplication.translate("EditorChrome", "Save the draft in your templates"),
        )
        self.delete = _button(
            QCoreApplication.translate("EditorChrome", "Delete"),
            QCoreApplication.translate("EditorChrome", "Delete the selected saved template"),
        )
        self.notice = Notice()
        self.problems = QLabel()
        self.problems.setObjectName("templateProblems")
        self.problems.setWordWrap(True)
        self.revert = _button(
            QCoreApplication.translate("EditorChrome", "Revert"),
            QCoreApplication.translate(
                "EditorChrome", "Discard the changes: back to the template in use"
            ),
        )
        self.apply = _button(
            QCoreApplication.translate("EditorChrome", "Apply"),
            QCoreApplication.translate(
                "EditorChrome", "Use this template from the next turn (Ctrl+Enter)"
            ),
        )
        self.apply.setProperty("accent", True)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self._connect(window)

    def _connect(self, window: TemplateEditorWindow) -> None:
        self.undo.clicked.connect(window.undo)
        self.redo.clicked.connect(window.redo)
        self.import_.clicked.connect(window.dialogs.choose_import)
        self.export.clicked.connect(lambda: window.dialogs.choose_export("template"))
        self.reset.clicked.connect(window.reset_to_default)
        self.load.clicked.connect(lambda: self._with_selected(window.load_from_library))
        self.save.clicked.connect(
            lambda: window.dialogs.ask_save_name(
                self.selected_template()
                or QCoreApplication.translate("EditorChrome", "my template")
            )
        )
        self.delete.clicked.connect(lambda: self._with_selected(window.dialogs.confirm_delete))
        self.library.currentIndexChanged.connect(lambda _i: self._update_library_buttons())
        self.revert.clicked.connect(window.revert)
        self.apply.clicked.connect(window.apply)

    def _with_selected(self, action: Callable[[str], object]) -> None:
        name = self.selected_template()
        if name is not None:
            action(name)

    def selected_template(self) -> str | None:
        """The saved template selected in the combo box, if any."""
        data = self.library.currentData()
        return data if isinstance(data, str) else None

    def refresh_library(self, names: Sequence[str], select: str | None) -> None:
        """List the saved templates and select ``select`` (or the placeholder)."""
        self.library.blockSignals(True)
        try:
            self.library.clear()
            empty = (
                _NO_TEMPLATE if names else QT_TRANSLATE_NOOP("EditorChrome", "No saved templates")
            )
            self.library.addItem(QCoreApplication.translate("EditorChrome", empty), None)
            for name in names:
                self.library.addItem(name, name)
            self.library.setCurrentIndex(max(0, self.library.findData(select)) if select else 0)
        finally:
            self.library.blockSignals(False)
        self._update_library_buttons()

    def _update_library_buttons(self) -> None:
        selected = self.selected_template() is not None
        self.load.setEnabled(selected)
        self.delete.setEnabled(selected)

    def show_notice(self, text: str, error: bool = False) -> None:
        """Say what just happened (or why it did not)."""
        self.notice.show_text(text, error)

    def show_problems(self, faults: Sequence[Fault], names: Sequence[str]) -> None:
        """Summarize the draft's faults next to Apply."""
        if not faults:
            self.problems.setText(QCoreApplication.translate("EditorChrome", "No problems."))
            self.problems.setProperty("error", False)
            self.problems.setToolTip("")
        else:
            first = faults[0]
            message = _shorten(first.message, 110)
            if len(faults) == 1:
                text = QCoreApplication.translate(
                    "EditorChrome", "⚠ 1 problem, Apply is blocked — {where}: {message}"
                )
            else:
                count = len(faults)  # a plain name: lupdate skips a call as the count
                text = QCoreApplication.translate(
                    "EditorChrome",
                    "⚠ %n problems, Apply is blocked — {where}: {message} "
                    "(and {more} more; hover for all)",
                    "",
                    count,
                )
            where, more = _where(first, names), len(faults) - 1
            self.problems.setText(text.format(where=where, message=message, more=more))
            self.problems.setProperty("error", True)
            self.problems.setToolTip("\n".join(f"{_where(f, names)}: {f.message}" for f in faults))
        self.problems.style().unpolish(self.problems)
        self.problems.style().polish(self.problems)


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _where(fault: Fault, names: Sequence[str]) -> str:
    """A fault's place in the user's words: module name › segment › field."""
    if fault.path == "(json)":
        return QCoreApplication.translate("EditorChrome", "JSON tab")
    if fault.module is None:
        return fault.path
    name = names[fault.module] if fault.module < len(names) else f"#{fault.module + 1}"
    number = fault.module + 1
    if name:
        where = QCoreApplication.translate("EditorChrome", "module {number} “{name}”").format(
            number=number, name=name
        )
    else:
        where = QCoreApplication.translate("EditorChrome", "module {number}").format(number=number)
    if fault.segment is not None:
        segment = QCoreApplication.translate("EditorChrome", "segment {number}").format(
            number=fault.segment + 1
        )
        return f"{where} › {segment}"
    if fault.field:
        return f"{where} › {fault.field}"
    return where


def build_chrome(window: TemplateEditorWindow) -> EditorChrome:
    """Lay out ``window``: toolbar, notice, panes, then problems and Apply."""
    chrome = EditorChrome(window)
    toolbar = QHBoxLayout()
    groups: tuple[tuple[QWidget, ...], ...] = (
        (chrome.undo, chrome.redo),
        (chrome.import_, chrome.export, chrome.reset),
        (chrome.library, chrome.load, chrome.save, chrome.delete),
    )
    for position, group in enumerate(groups):
        if position == 1:
            toolbar.addSpacing(12)
        elif position == 2:
            toolbar.addStretch(1)
        for widget in group:
            toolbar.addWidget(widget)
    splitter = chrome.splitter
    for pane in (window.module_list, window.middle, window.preview_pane):
        splitter.addWidget(pane)
    splitter.setChildrenCollapsible(False)
    for position, stretch in enumerate(PANE_STRETCH):
        splitter.setStretchFactor(position, stretch)
    bottom = QHBoxLayout()
    bottom.addWidget(chrome.problems, 1)
    bottom.addWidget(chrome.revert)
    bottom.addWidget(chrome.apply)
    layout = QVBoxLayout(window)
    layout.setContentsMargins(10, 8, 10, 8)
    layout.addLayout(toolbar)
    layout.addWidget(chrome.notice)
    layout.addWidget(splitter, 1)
    layout.addLayout(bottom)
    chrome.refresh_library(window.library.names(), None)
    window.setStyleSheet(_style_sheet(window))
    return chrome


def _style_sheet(window: QWidget) -> str:
    dark = window.palette().color(window.backgroundRole()).lightness() < 128
    c = colors(dark)
    return f"""
    *[fault="true"] {{ border: 1px solid {c.danger}; border-radius: 3px; }}
    #fieldFault, #faultList {{ color: {c.danger}; }}
    #templateEditorTitle {{ font-weight: 600; }}
    #templateProblems[error="true"] {{ color: {c.danger}; }}
    #templateProblems {{ color: {c.muted}; }}
    #templateNotice {{ border: 1px solid {c.border}; border-radius: 6px; }}
    #templateNotice[error="true"] {{ border: 1px solid {c.danger}; }}
    #segmentRow {{ border: 1px solid {c.border}; border-radius: 6px; }}
    """
