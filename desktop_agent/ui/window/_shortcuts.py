"""The window's keyboard shortcuts: one list, bound and shown from the same place.

:data:`SHORTCUTS` is the single registry. Each entry names an *action*; the window binds
every entry whose action has a handler (:meth:`ShortcutMap.connect`), and the overlay
(F1 or Ctrl+/) lists every entry — so adding a shortcut is one line here plus one
``connect`` where its handler lives::

    Shortcut(("Ctrl+Shift+E",), "Export the chat", "export")
    window.shortcuts.connect("export", handler)

Entries with ``bound=False`` are handled by a widget itself (Enter in the composer, Esc)
and are only listed (Up in an empty composer is the composer's own key).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QWidget

from desktop_agent._i18n import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class Shortcut:
    """A key combination (or alternatives), what it does, and the action it triggers.

    Attributes:
        keys: Portable key sequences (``"Ctrl+,"``); the first is the one shown first.
        description: What it does, in the user's words (English, marked with
            ``QT_TRANSLATE_NOOP("ShortcutOverlay", ...)``; the overlay translates it).
        action: The name handlers connect to.
        bound: Whether the window binds it (``False``: a widget handles the key itself).
    """

    keys: tuple[str, ...]
    description: str
    action: str
    bound: bool = True


SHORTCUTS: list[Shortcut] = [
    Shortcut(
        ("Enter",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Send the message"),
        "send",
        bound=False,
    ),
    Shortcut(
        ("Shift+Enter",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "New line in the message"),
        "newline",
        bound=False,
    ),
    Shortcut(
        ("Esc",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Stop the answer"),
        "stop",
        bound=False,
    ),
    Shortcut(
        ("Ctrl+Shift+M",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Record a voice message"),
        "voice",
        bound=False,
    ),
    Shortcut(("Ctrl+N",), QT_TRANSLATE_NOOP("ShortcutOverlay", "New chat"), "new_chat"),
    Shortcut(
        ("Ctrl+Shift+L",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Choose the chat's model"),
        "model_picker",
    ),
    Shortcut(
        ("Ctrl+Shift+A",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Choose the chat's assistant"),
        "assistant_picker",
    ),
    Shortcut(
        ("Ctrl+Shift+P",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Parameters of this chat"),
        "chat_params",
    ),
    Shortcut(("Ctrl+F",), QT_TRANSLATE_NOOP("ShortcutOverlay", "Find in this chat"), "find"),
    Shortcut(
        ("Ctrl+K", "Ctrl+Shift+F"), QT_TRANSLATE_NOOP("ShortcutOverlay", "Search chats"), "search"
    ),
    Shortcut(
        ("Ctrl+Shift+C",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Copy the last answer"),
        "copy_last_answer",
    ),
    Shortcut(
        ("Up",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Edit your last message (in an empty message field)"),
        "edit_last",
        False,
    ),
    Shortcut(
        ("Ctrl+R",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Regenerate the last answer"),
        "regenerate",
    ),
    Shortcut(
        ("Alt+Left",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Previous version of the message"),
        "version_previous",
    ),
    Shortcut(
        ("Alt+Right",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Next version of the message"),
        "version_next",
    ),
    Shortcut(("Ctrl+,",), QT_TRANSLATE_NOOP("ShortcutOverlay", "Settings"), "settings"),
    Shortcut(
        ("Ctrl+T",),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Context template editor"),
        "template",
    ),
    Shortcut(("Ctrl+Shift+E",), QT_TRANSLATE_NOOP("ShortcutOverlay", "Export the chat"), "export"),
    Shortcut(
        ("F1", "Ctrl+/"),
        QT_TRANSLATE_NOOP("ShortcutOverlay", "Show these shortcuts"),
        "shortcuts",
    ),
]
"""Every shortcut of the main window, in the order the overlay lists them."""


def shown_keys(shortcut: Shortcut) -> str:
    """The keys as the platform writes them (``Ctrl+,`` / ``⌘,``), alternatives with "or"."""
    native = QKeySequence.SequenceFormat.NativeText
    shown = [QKeySequence(keys).toString(native) for keys in shortcut.keys]
    text = shown[0]
    for other in shown[1:]:
        text = QCoreApplication.translate("ShortcutOverlay", "{keys} or {other}").format(
            keys=text, other=other
        )
    return text


class ShortcutMap:
    """Binds the registry's shortcuts on a window, as handlers are connected."""

    def __init__(self, window: QWidget, shortcuts: list[Shortcut] | None = None) -> None:
        """Bind on ``window`` (window-wide) the entries of ``shortcuts`` (default: all)."""
        self._window = window
        self._shortcuts = shortcuts if shortcuts is not None else SHORTCUTS
        self.bound: dict[str, list[QShortcut]] = {}

    def connect(self, action: str, handler: Callable[[], object]) -> list[QShortcut]:
        """Run ``handler`` on every key of ``action``; the ``QShortcut`` objects."""
        made = []
        for shortcut in self._shortcuts:
            if shortcut.action != action or not shortcut.bound:
                continue
            for keys in shortcut.keys:
                qt_shortcut = QShortcut(QKeySequence(keys), self._window)
                qt_shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
                qt_shortcut.activated.connect(handler)
                made.append(qt_shortcut)
        if not made:
            raise ValueError(f"no bound shortcut for action {action!r} in the registry")
        self.bound.setdefault(action, []).extend(made)
        return made

    def listed(self) -> list[Shortcut]:
        """The entries the overlay shows."""
        return list(self._shortcuts)
