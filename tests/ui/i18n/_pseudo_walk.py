"""Collects the text a user sees on a widget tree and names what is left untranslated.

Under the pseudo language every translated text holds ``⟦``; a visible text without it
was never passed through ``translate``. See ``test_pseudo_language.py`` for the rules.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from PySide6 import QtGui
from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    Qt,
)
from PySide6.QtGui import QAction, QKeySequence, QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QSpinBox,
    QTabBar,
    QTableView,
    QTabWidget,
    QTextEdit,
    QTreeView,
    QWidget,
)

MARK = "⟦"
DATA_PROPERTY = "i18n_data"
"""A widget with this dynamic property set to True shows user/model data: its own texts
(text, tooltip, items) are not checked. Its children still are."""
PRODUCT_NAMES = {"Desktop Agent", "desktop_agent", "OpenAI", "Ollama", "MCP", "JSON", "Markdown"}
MAX_ROWS = 200  # model rows read per item view
_TAG = re.compile(r"<[^>]+>")
# Not words: a URL, a path, JSON or markup; an identifier (a tool or file name, a model id).
_CODE = re.compile(r"\w+://|[/~{\[<]|[A-Za-z]:\\")
_IDENTIFIER = re.compile(r"[\w-]+(?:[_.:/][\w-]+)+|[a-z]+(?:-[a-z0-9]+)+")
_standard_texts: dict[QDialogButtonBox.StandardButton, str] = {}


def untranslated(surface: str, root: QWidget) -> list[str]:
    """``"surface: Class/objectName: 'text'"`` for every visible text of ``root`` without ⟦.

    With ``PSEUDO_DUMP=1`` in the environment every text seen is printed (``pytest -s``).
    """
    seen = list(visible_texts(root))
    if os.environ.get("PSEUDO_DUMP"):
        print(*(f"{surface}: {_describe(w)}: {t!r}" for w, t in seen if t), sep="\n")
    return [
        f"{surface}: {_describe(widget)}: {text!r}"
        for widget, text in seen
        if needs_translation(text, widget)
    ]


def untranslated_in_every_tab(surface: str, root: QWidget) -> list[str]:
    """:func:`untranslated` with each page of each visible tab widget shown in turn."""
    problems = untranslated(surface, root)
    for tabs in [t for t in root.findChildren(QTabWidget) if t.isVisible()]:
        current = tabs.currentIndex()
        for index in range(tabs.count()):
            tabs.setCurrentIndex(index)  # pages show and hide at once
            problems += untranslated(surface, root)
        tabs.setCurrentIndex(current)
    return list(dict.fromkeys(problems))


def untranslated_menu(surface: str, menu: QMenu) -> list[str]:
    """The untranslated texts of a menu's actions (and its submenus), shown or not."""
    return [
        f"{surface}: QAction/{owner}: {text!r}"
        for owner, text in menu_texts(menu)
        if needs_translation(text, None)
    ]


def visible_texts(root: QWidget) -> Iterator[tuple[QWidget, str]]:
    """Every (widget, text) a user can see under ``root`` (root included)."""
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisible() or _inside_file_dialog(widget):
            if isinstance(widget, QFileDialog) and widget.isVisible():
                yield widget, widget.windowTitle()  # the rest is Qt's own
            continue
        if widget.property(DATA_PROPERTY):
            continue
        for text in _own_texts(widget):
            yield widget, text
        for menu in _menus_of(widget):
            for _owner, text in menu_texts(menu):
                yield widget, text


def menu_texts(menu: QMenu) -> Iterator[tuple[str, str]]:
    """(menu's objectName or title, text) for the menu's title and its actions' texts."""
    owner = menu.objectName() or menu.title() or type(menu).__name__
    if menu.title():
        yield owner, menu.title()
    for action in menu.actions():
        if action.isSeparator() or not action.isVisible():
            continue
        submenu = action.menu()
        if isinstance(submenu, QMenu):
            yield from menu_texts(submenu)
        elif action.text():
            yield owner, action.text()


def needs_translation(text: str, widget: QWidget | None) -> bool:
    """Whether ``text`` should have come through translate but did not."""
    text = _plain(text).strip()
    if not text or MARK in text or not any(ch.isalpha() for ch in text):
        return False
    if text in PRODUCT_NAMES:
        return False
    if _CODE.match(text) or _IDENTIFIER.fullmatch(text):
        return False
    if _is_key_sequence(text, widget):
        return False
    return not _is_qt_standard_button(text, widget)


def _own_texts(widget: QWidget) -> Iterator[str]:
    if widget.isWindow():
        yield widget.windowTitle()
    yield widget.toolTip()
    if isinstance(widget, QLabel | QAbstractButton):
        yield widget.text()
    elif isinstance(widget, QTextEdit | QPlainTextEdit) or (
        isinstance(widget, QLineEdit) and not isinstance(widget.parent(), QAbstractSpinBox)
    ):
        yield widget.placeholderText()
    elif isinstance(widget, QComboBox):
        yield from (widget.itemText(i) for i in range(widget.count()))
        editor = widget.lineEdit() if widget.isEditable() else None
        if editor is not None:
            yield editor.placeholderText()
    elif isinstance(widget, QTabBar):
        for i in range(widget.count()):
            yield widget.tabText(i)
            yield widget.tabToolTip(i)
    elif isinstance(widget, QGroupBox):
        yield widget.title()
    elif isinstance(widget, QSpinBox | QDoubleSpinBox):
        yield from (widget.prefix(), widget.suffix(), widget.specialValueText())
    elif isinstance(widget, QAbstractItemView) and not isinstance(widget, QHeaderView):
        yield from _view_texts(widget)


def _view_texts(view: QAbstractItemView) -> Iterator[str]:
    model = view.model()
    if model is None:
        return
    header = view.header() if isinstance(view, QTreeView) else None
    if isinstance(view, QTableView):
        header = view.horizontalHeader()
    if header is not None and header.isVisible():
        for section in range(_columns(model)):
            yield str(model.headerData(section, Qt.Orientation.Horizontal) or "")
    yield from _model_texts(model, view.rootIndex(), [0])


def _columns(model: QAbstractItemModel, parent: QModelIndex | None = None) -> int:
    if isinstance(model, QAbstractListModel):
        return 1  # PySide makes a list model's columnCount private
    return model.columnCount(parent or QModelIndex())


def _model_texts(model: QAbstractItemModel, parent: QModelIndex, seen: list[int]) -> Iterator[str]:
    for row in range(model.rowCount(parent)):
        if seen[0] >= MAX_ROWS:
            return
        seen[0] += 1
        for column in range(_columns(model, parent)):
            index = model.index(row, column, parent)
            yield str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        first = model.index(row, 0, parent)
        if not isinstance(model, QAbstractListModel) and model.hasChildren(first):
            yield from _model_texts(model, first, seen)


def _menus_of(widget: QWidget) -> Iterator[QMenu]:
    if isinstance(widget, QAbstractButton) and hasattr(widget, "menu"):
        menu = widget.menu()
        if isinstance(menu, QMenu):
            yield menu
    for action in widget.actions():
        submenu = action.menu() if isinstance(action, QAction) else None
        if isinstance(submenu, QMenu):
            yield submenu


def _inside_file_dialog(widget: QWidget) -> bool:
    parent = widget if isinstance(widget, QFileDialog) else widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QFileDialog):
            return True
        parent = parent.parentWidget()
    return False


def _plain(text: str) -> str:
    if QtGui.Qt.mightBeRichText(text):
        return QTextDocumentFragment.fromHtml(text).toPlainText()
    return _TAG.sub("", text) if text.startswith("<") else text


def _is_key_sequence(text: str, widget: QWidget | None) -> bool:
    """Ctrl+N, F1, "Ctrl+K, Ctrl+F"… (a lone key name counts only in a label)."""
    parts = [p.strip() for p in re.split(r"\s*(?:,|/|\bor\b)\s*", text) if p.strip()]
    for part in parts:
        for form in (
            QKeySequence.SequenceFormat.PortableText,
            QKeySequence.SequenceFormat.NativeText,
        ):
            sequence = QKeySequence.fromString(part, form)
            if sequence.count() and sequence.toString(form) == part:
                break
        else:
            return False
        single_key = "+" not in part and not re.fullmatch(r"F\d{1,2}", part)
        if single_key and not isinstance(widget, QLabel):
            return False
    return bool(parts)


def _is_qt_standard_button(text: str, widget: QWidget | None) -> bool:
    """A standard button of a button box showing Qt's own text (Qt translates it)."""
    if not isinstance(widget, QAbstractButton):
        return False
    box = widget.parentWidget()
    while box is not None and not isinstance(box, QDialogButtonBox):
        box = box.parentWidget()
    if box is None:
        return False
    details = ("Show Details...", "Hide Details...")  # a QMessageBox's own toggle
    if text in {QCoreApplication.translate("QMessageBox", d) for d in details}:
        return True
    which = box.standardButton(widget)
    if which == QDialogButtonBox.StandardButton.NoButton:
        return False
    if which not in _standard_texts:
        reference = QDialogButtonBox(QDialogButtonBox.StandardButton(which))
        _standard_texts[which] = reference.button(which).text()
        reference.deleteLater()
    return text == _plain(_standard_texts[which]).strip()


def _describe(widget: QWidget) -> str:
    return f"{type(widget).__name__}/{widget.objectName() or '-'}"
