"""The window's language: which one, and installing its translations before any widget.

:func:`install_language` runs once at start, before the first widget is built (text is
translated when a widget sets it; a change of language applies after a restart):

1. The language: ``$DESKTOP_AGENT_LANGUAGE`` (``zh_CN``, ``en``, ``ar``…) if set, else
   the setting (``Settings.language``), else the desktop's (``QLocale.system()``).
2. ``resources/i18n/desktop_agent_<lang>.qm`` (built by ``scripts/i18n.py release``),
   looked up the way Qt does for the locale's UI languages (``zh_Hans_CN`` finds
   ``zh_CN``). English has one too: it holds only the plural forms ("1 model"/"2 models").
   A language without a file stays English.
3. Qt's own ``qtbase_<lang>.qm`` for its standard buttons and dialogs, when the app has
   a translation for the language (no English window with Japanese buttons).
4. ``QLocale.setDefault``, so numbers and dates follow the language; when a translation
   was installed, the Qt-free layers' :func:`desktop_agent._i18n.translate` goes through
   Qt from now on.
5. Right-to-left languages (Arabic, Hebrew, Persian, Urdu…) mirror the layout, even when
   no translation exists for them.

Loading a ``.qm`` maps the file; this costs well under a millisecond at start.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, Qt, QTranslator
from PySide6.QtGui import QGuiApplication

from desktop_agent import _i18n
from desktop_agent._resources import resource_path

LANGUAGE_ENV = "DESKTOP_AGENT_LANGUAGE"
"""Overrides the setting and the desktop, e.g. ``DESKTOP_AGENT_LANGUAGE=zh_CN``."""
CATALOG = "desktop_agent"

_installed: list[QTranslator] = []


def translations_dir() -> Path:
    """Where the compiled ``desktop_agent_<lang>.qm`` files are."""
    return resource_path("i18n")


def chosen_locale(setting: str = "") -> QLocale:
    """The locale the window speaks: the environment's, the setting's, or the desktop's."""
    name = os.environ.get(LANGUAGE_ENV, "").strip() or setting.strip()
    return QLocale(name) if name else QLocale.system()


def install_language(setting: str = "") -> QLocale:
    """Install the translations of the chosen language; returns its locale.

    Call it after the ``QApplication`` exists and before any widget is built. Calling it
    again replaces what an earlier call installed.

    Args:
        setting: ``Settings.language``: ``""`` follows the desktop.
    """
    remove_translations()
    locale = chosen_locale(setting)
    QLocale.setDefault(locale)
    translated = _load(locale, CATALOG, translations_dir())
    if translated and locale.language() != QLocale.Language.English:
        _load(locale, "qtbase", Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)))
    if translated:  # else the Qt-free layers keep their English fallback ("1 tool(s)" -> "1 tool")
        _i18n.set_backend(QCoreApplication.translate)
    rtl = locale.textDirection() == Qt.LayoutDirection.RightToLeft
    QGuiApplication.setLayoutDirection(
        Qt.LayoutDirection.RightToLeft if rtl else Qt.LayoutDirection.LeftToRight
    )
    return locale


def remove_translations() -> None:
    """Remove what :func:`install_language` installed (the text is English again)."""
    while _installed:
        QCoreApplication.removeTranslator(_installed.pop())
    _i18n.set_backend(None)


def _load(locale: QLocale, catalog: str, folder: Path) -> bool:
    translator = QTranslator(QCoreApplication.instance())
    if not translator.load(locale, catalog, "_", str(folder)):
        return False
    QCoreApplication.installTranslator(translator)
    _installed.append(translator)
    return True
