"""What an answer cost, in a details row under its header: the model that wrote it and the
turn's figures ("gpt-4o · 42 tok/s · 0.4 s to first token · 310 in · 512 out · 2.1 s";
each one named on hover), and the agent's steps as a compact timeline when the turn used
tools ("reasoning 0.5 s · 20 tok → read_text_file 0.2 s → answer 1.5 s · 30 tok")."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QBoxLayout, QLabel, QWidget

from desktop_agent.app._turn_stats import TurnStats, answer_stats
from desktop_agent.message import Msg
from desktop_agent.ui._plain import plain_tooltip


class AnswerStats:
    """The details row of one answer: its model and figures, and its steps if it used tools.

    Args:
        parent: The bubble.
        column: The bubble's column; the row goes right under the header.
    """

    def __init__(self, parent: QWidget, column: QBoxLayout) -> None:
        self.details = QLabel("", parent)
        self.details.setObjectName("answerStats")
        self.details.setTextFormat(Qt.TextFormat.PlainText)  # a model name a server chose
        self.details.setWordWrap(True)
        self.details.setStyleSheet(
            "color: palette(placeholder-text); font-size: 11px;"
            " border-left: 2px solid palette(mid); padding-left: 6px;"
        )
        self.details.hide()
        column.insertWidget(1, self.details)

    def update(self, msg: Msg) -> str:
        """Show ``msg``'s model and figures; the text for the bubble's tooltip ("" if none)."""
        model, stats = answer_stats(msg.metadata)
        if not model and stats is None:
            self.details.hide()
            return ""
        lines = [short_caption(model, stats)]
        if stats is not None and any(step.kind == "tool" for step in stats.steps):
            lines.append(_steps_line(stats))
        self.details.setText("\n".join(lines))
        details = details_text(model, stats)
        self.details.setToolTip(plain_tooltip(details))
        self.details.show()
        return details


def short_caption(model: str, stats: TurnStats | None) -> str:
    """ "gpt-4o · 42 tok/s · 0.4 s to first token · 310 in · 512 out · 2.1 s"."""
    parts = [model] if model else []
    if stats is not None:
        parts.append(stats.summary())
    return " · ".join(parts)


def details_text(model: str, stats: TurnStats | None) -> str:
    """Every figure, one per line (the tooltip)."""
    lines = (
        [QCoreApplication.translate("AnswerStats", "Model: {model}").format(model=model)]
        if model
        else []
    )
    if stats is not None:
        rate = stats.tokens_per_second
        if stats.first_token is not None:
            text = QCoreApplication.translate("AnswerStats", "Time to first token: {seconds} s")
            lines.append(text.format(seconds=f"{stats.first_token:.2f}"))
        if rate is not None:
            lines.append(
                QCoreApplication.translate("AnswerStats", "Speed: {rate} tokens/s").format(
                    rate=f"{rate:,.1f}"
                )
            )
        text = QCoreApplication.translate("AnswerStats", "Tokens: {input} in · {output} out")
        lines.append(
            text.format(input=f"{stats.input_tokens:,}", output=f"{stats.output_tokens:,}")
        )
        text = QCoreApplication.translate("AnswerStats", "Total time: {seconds} s")
        lines.append(text.format(seconds=f"{stats.total:.2f}"))
        if len(stats.steps) > 1:
            lines.append(_steps_line(stats))
    return "\n".join(lines)


def _steps_line(stats: TurnStats) -> str:
    text = QCoreApplication.translate("AnswerStats", "Steps: {timeline}")
    return text.format(timeline=stats.timeline())
