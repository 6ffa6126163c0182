"""Showing text from outside (a model, a server, a file) as text, never as markup.

``QLabel``, ``QMessageBox`` and tooltips guess the format of what they are given
(``Qt.AutoText``): a tool named ``<img src=/home/me/photo.png>`` would show a local
image. Every label that may show outside text is made plain here; tooltips, which have
no format setting, get the text escaped into HTML.
"""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as QtGuiNamespace
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

LabelT = TypeVar("LabelT", QLabel, QMessageBox)


def plain(label: LabelT) -> LabelT:
    """``label`` set to show its text as plain text (returned, for chaining)."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def plain_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    """A ``QLabel`` that shows ``text`` (and any later text) as plain text."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    return label


def plain_tooltip(text: str) -> str:
    """``text`` as a tooltip shows it, markup characters and all: escaped into HTML when
    Qt would take it for markup, as is otherwise."""
    if QtGuiNamespace.mightBeRichText(text):
        return QtGuiNamespace.convertFromPlainText(text)
    return text


def sentence(text: str) -> str:
    """``text`` ending with a full stop (an error from outside often has none), so that a
    message built around it reads as sentences: "Could not save: disk full.". A text ending
    in a CJK character (a translated message) gets the full-width "。"."""
    text = text.rstrip()
    if not text or text.endswith((".", "!", "?", "…", ")", "。", "！", "？", "）")):
        return text
    return f"{text}。" if "\u2e80" <= text[-1] <= "\u9fff" else f"{text}."
