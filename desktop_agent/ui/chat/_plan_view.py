"""The plan checklist row: the agent's current plan, its subtasks and their states.

The app prints a plan as a message whose ``metadata["plan_checklist"]`` says what to
draw (:mod:`desktop_agent.app._plan_card`); the same message is printed again on every
change, so this row refreshes in place while the model works through the plan. It looks
like a tool card (same style sheet rules): a header with the plan's name, progress and
state, then one line per subtask with a mark for its state.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.app._conversation import ConversationEntry
from desktop_agent.app._plan_card import PLAN_CHECKLIST, is_plan_checklist
from desktop_agent.ui._plain import plain_label
from desktop_agent.ui.chat._context import RenderContext
from desktop_agent.ui.chat._message_widget import SpanningRow

SUBTASK_MARKS = {"todo": "○", "in_progress": "▶", "done": "✓", "abandoned": "✕"}
PLAN_STATE_LABELS = {
    "todo": QT_TRANSLATE_NOOP("PlanRow", "to do"),
    "in_progress": QT_TRANSLATE_NOOP("PlanRow", "in progress"),
    "done": QT_TRANSLATE_NOOP("PlanRow", "done"),
    "abandoned": QT_TRANSLATE_NOOP("PlanRow", "abandoned"),
    "replaced": QT_TRANSLATE_NOOP("PlanRow", "replaced"),
}
"""A plan state's label (English; translate with context "PlanRow")."""


def state_label(state: str) -> str:
    """The label of a plan or subtask state, translated (unknown states as they are)."""
    label = PLAN_STATE_LABELS.get(state)
    return QCoreApplication.translate("PlanRow", label) if label else state


# The tool cards' chip colours (``#statusChip[status=...]``), by plan state.
_CHIP_STATUS = {"in_progress": "running", "done": "done", "abandoned": "interrupted"}


def checklist_of(entry: ConversationEntry) -> dict[str, Any]:
    """The checklist data of a plan row's message."""
    data = entry.msg.metadata.get(PLAN_CHECKLIST) if entry.msg is not None else None
    return data if isinstance(data, dict) else {}


class SubtaskLine(QWidget):
    """One subtask: its state mark and its name (bold while in progress)."""

    def __init__(self, parent: QWidget) -> None:
        """Create an empty line."""
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        self.mark = QLabel(self)
        self.mark.setFixedWidth(16)
        row.addWidget(self.mark)
        self.name = plain_label("", self)
        self.name.setProperty("i18n_data", True)  # the subtask the model named
        self.name.setWordWrap(True)
        row.addWidget(self.name, 1)
        self.state = ""

    def show_subtask(self, name: str, state: str) -> None:
        """Show ``name`` in ``state``; finished ones are muted, the current one bold."""
        self.name.setText(name)
        if state == self.state:
            return
        self.state = state
        self.mark.setText(SUBTASK_MARKS.get(state, "○"))
        self.mark.setToolTip(state_label(state))
        muted = state in ("done", "abandoned")
        self.name.setObjectName("caption" if muted else "")
        self.mark.setObjectName("caption" if state != "in_progress" else "")
        font = self.name.font()
        font.setBold(state == "in_progress")
        font.setStrikeOut(state == "abandoned")
        self.name.setFont(font)
        for label in (self.name, self.mark):
            label.style().unpolish(label)
            label.style().polish(label)


class PlanRow(SpanningRow):
    """A plan checklist card, refreshed in place as the plan changes."""

    def __init__(self, entry: ConversationEntry, ctx: RenderContext, parent: QWidget) -> None:
        """Create the card for a plan checklist entry."""
        super().__init__(entry, parent)
        self.bubble = QFrame(self)
        self.bubble.setObjectName("card")
        outer = QVBoxLayout(self.bubble)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self._make_header())
        body = QWidget(self.bubble)
        self._lines_layout = QVBoxLayout(body)
        self._lines_layout.setContentsMargins(12, 8, 12, 10)
        self._lines_layout.setSpacing(4)
        outer.addWidget(body)
        self.lines: list[SubtaskLine] = []
        self.bubble.installEventFilter(self)
        self.refresh(entry)

    def _make_header(self) -> QWidget:
        header = QWidget(self.bubble)
        header.setObjectName("cardHeader")
        row = QHBoxLayout(header)
        row.setContentsMargins(10, 5, 8, 5)
        row.setSpacing(6)
        caption = QLabel(QCoreApplication.translate("PlanRow", "Plan"), header)
        caption.setObjectName("caption")
        row.addWidget(caption)
        self.name_label = plain_label("", header)
        self.name_label.setObjectName("senderName")
        self.name_label.setProperty("i18n_data", True)  # the plan the model named
        self.name_label.setWordWrap(True)
        row.addWidget(self.name_label, 1)
        self.progress = QLabel(header)
        self.progress.setObjectName("caption")
        row.addWidget(self.progress)
        self.chip = QLabel(header)
        self.chip.setObjectName("statusChip")
        row.addWidget(self.chip)
        return header

    def refresh(self, entry: ConversationEntry) -> None:
        """Show the checklist the entry's message carries now."""
        super().refresh(entry)
        checklist = checklist_of(entry)
        subtasks = [s for s in checklist.get("subtasks", []) if isinstance(s, dict)]
        self.name_label.setText(str(checklist.get("name", "")))
        done = sum(1 for s in subtasks if s.get("state") in ("done", "abandoned"))
        self.progress.setText(f"{done}/{len(subtasks)}")
        state = "replaced" if checklist.get("replaced") else str(checklist.get("state", ""))
        self._show_chip(state)
        while len(self.lines) < len(subtasks):
            line = SubtaskLine(self.bubble)
            self._lines_layout.addWidget(line)
            self.lines.append(line)
        for line in self.lines[len(subtasks) :]:
            self._lines_layout.removeWidget(line)
            line.deleteLater()
        del self.lines[len(subtasks) :]
        for line, subtask in zip(self.lines, subtasks, strict=True):
            line.show_subtask(str(subtask.get("name", "")), str(subtask.get("state", "")))

    def _show_chip(self, state: str) -> None:
        self.chip.setText(state_label(state))
        self.chip.setVisible(bool(state) and state != "todo")
        self.chip.setProperty("status", _CHIP_STATUS.get(state, "interrupted"))
        self.chip.style().unpolish(self.chip)
        self.chip.style().polish(self.chip)

    # -- inspection (tests, accessibility) ---------------------------------------------

    def shown_subtasks(self) -> list[tuple[str, str]]:
        """``(name, state)`` of each subtask line, in order."""
        return [(line.name.text(), line.state) for line in self.lines]


def create_plan_row(
    entry: ConversationEntry, ctx: RenderContext, parent: QWidget
) -> PlanRow | None:
    """The checklist row for a plan checklist entry, ``None`` for any other entry."""
    if is_plan_checklist(entry.msg):
        return PlanRow(entry, ctx, parent)
    return None
