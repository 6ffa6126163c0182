"""The Appearance tab's language choice: the desktop's, or one the window is translated into.

Each language is named in itself ("English", "简体中文"), so a user who cannot read the
current language still finds theirs. The window is translated when it is built, so a new
choice applies at the next start; the box says so as soon as the choice changes.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale
from PySide6.QtWidgets import QComboBox, QLabel, QVBoxLayout, QWidget

LANGUAGES = (("en", "English"), ("zh_CN", "简体中文"))
"""(``Settings.language``, the language's name in itself) of the shipped translations."""


class LanguageBox(QWidget):
    """A combo of "System (<desktop language>)" and the translated languages, and a note."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.combo = QComboBox()
        system = QLocale.system().nativeLanguageName() or "English"
        self.combo.addItem(
            QCoreApplication.translate("LanguageBox", "System ({language})").format(
                language=system
            ),
            "",
        )
        for value, name in LANGUAGES:
            self.combo.addItem(name, value)
        self.combo.setProperty("i18n_data", True)  # languages are named in themselves
        self.combo.setToolTip(
            QCoreApplication.translate("LanguageBox", "The language of the window")
        )
        self.note = QLabel(
            QCoreApplication.translate("LanguageBox", "Applies after restarting desktop_agent")
        )
        self.note.setWordWrap(True)
        self.note.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo)
        layout.addWidget(self.note)
        self._loaded = ""
        self.combo.currentIndexChanged.connect(self._on_changed)

    def load(self, language: str) -> None:
        """Show ``language`` (a value of ``Settings.language``; unknown: added as is)."""
        self._loaded = language
        index = self.combo.findData(language)
        if index < 0:
            self.combo.addItem(language, language)
            index = self.combo.count() - 1
        self.combo.setCurrentIndex(index)
        self.note.hide()

    def value(self) -> str:
        """The chosen ``Settings.language`` (``""``: the desktop's)."""
        return str(self.combo.currentData() or "")

    def _on_changed(self, _index: int) -> None:
        self.note.setVisible(self.value() != self._loaded)
