"""Settings → Files & network: the working folder of the file tools and the stream timeout.

A :class:`SettingsPage`: it edits ``Settings.working_folder`` (where a relative path like
``notes.txt`` goes; the home folder by default, never the app's current folder) and
``Settings.stream_idle_timeout`` (how long an answer may stay silent before it fails with
Retry). The folder is shown as the absolute path the tools will use.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.app import Settings

AGENT_PAGE_TITLE = QT_TRANSLATE_NOOP("SettingsDialog", "Files & network")


class AgentPage(QWidget):
    """The working folder (with Choose… and Home) and the stream idle timeout."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """Create the page; :meth:`load` fills it."""
        super().__init__(parent)
        self.folder = QLineEdit()
        self.folder.setPlaceholderText(str(Path.home()))
        self.folder.textChanged.connect(self._show_resolved)
        self.choose_button = QPushButton(QCoreApplication.translate("AgentPage", "Choose…"))
        self.choose_button.clicked.connect(self._choose)
        self.home_button = QPushButton(QCoreApplication.translate("AgentPage", "Home"))
        self.home_button.setToolTip(QCoreApplication.translate("AgentPage", "Use your home folder"))
        self.home_button.clicked.connect(self.folder.clear)
        self.resolved = QLabel()
        self.resolved.setObjectName("caption")
        self.resolved.setTextFormat(Qt.TextFormat.PlainText)
        self.resolved.setWordWrap(True)
        self.idle_timeout = QDoubleSpinBox()
        self.idle_timeout.setRange(5.0, 3600.0)
        self.idle_timeout.setDecimals(0)
        self.idle_timeout.setSuffix(QCoreApplication.translate("AgentPage", " s", "seconds"))
        self.idle_timeout.setToolTip(
            QCoreApplication.translate(
                "AgentPage",
                "An answer that sends nothing for this long counts as failed (with Retry)",
            )
        )
        self._dialog: QFileDialog | None = None
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(self.choose_button)
        folder_row.addWidget(self.home_button)
        form = QFormLayout(self)
        form.addRow(QCoreApplication.translate("AgentPage", "Working folder"), folder_row)
        form.addRow("", self.resolved)
        note = QLabel(
            QCoreApplication.translate(
                "AgentPage", "File tools resolve relative paths (like notes.txt) in this folder."
            )
        )
        note.setObjectName("caption")
        note.setWordWrap(True)
        form.addRow("", note)
        form.addRow(
            QCoreApplication.translate("AgentPage", "Stream idle timeout"), self.idle_timeout
        )

    def load(self, settings: Settings) -> None:
        """Show ``settings``."""
        self.folder.setText(settings.working_folder)
        self.idle_timeout.setValue(settings.stream_idle_timeout)
        self._show_resolved()

    def apply(self, settings: Settings) -> Settings:
        """``settings`` with this page's fields."""
        return settings.model_copy(
            update={
                "working_folder": self.folder.text().strip(),
                "stream_idle_timeout": float(self.idle_timeout.value()),
            }
        )

    def resolved_folder(self) -> Path:
        """The absolute folder the tools will use."""
        return Settings(working_folder=self.folder.text()).resolved_working_folder()

    def _show_resolved(self) -> None:
        folder = self.resolved_folder()
        if folder.is_dir():
            text = QCoreApplication.translate("AgentPage", "Relative paths start in: {folder}")
        else:
            text = QCoreApplication.translate(
                "AgentPage", "Relative paths start in: {folder} (this folder does not exist)"
            )
        self.resolved.setText(text.format(folder=folder))

    def _choose(self) -> None:
        title = QCoreApplication.translate("AgentPage", "Working folder")
        dialog = QFileDialog(self, title, str(self.resolved_folder()))
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.fileSelected.connect(self.folder.setText)
        self._dialog = dialog
        dialog.open()
