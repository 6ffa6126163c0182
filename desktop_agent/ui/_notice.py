"""``DismissibleNotice``: the one-line, closable message bar the window, the sidebar and the
template editor each show (a warning banner, "Deleted … Undo", an editor notice).

Stylesheets address each bar by its object name; ``error`` is a dynamic property a
stylesheet can match (``[error="true"]``).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget


class DismissibleNotice(QFrame):
    """A hidden-until-shown message with a ✕ button; extra buttons sit before the ✕.

    Args:
        object_name: The stylesheet name of this bar.
        close_tip: Tooltip of the ✕ button (default "Dismiss").
        selectable: Whether the message text can be selected with the mouse.
        parent: The parent widget.
    """

    def __init__(
        self,
        object_name: str,
        *,
        close_tip: str = "",
        selectable: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # messages quote files and servers
        self.label.setWordWrap(True)
        if selectable:
            self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip(
            close_tip or QCoreApplication.translate("DismissibleNotice", "Dismiss")
        )
        self.close_button.clicked.connect(self.hide)
        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(8, 4, 4, 4)
        self._row.addWidget(self.label, 1)
        self._row.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def add_button(self, button: QWidget) -> None:
        """Put ``button`` between the message and the ✕."""
        self._row.insertWidget(self._row.count() - 1, button)

    def show_text(self, text: str, error: bool = False) -> None:
        """Show ``text`` (replacing any previous one); ``error`` restyles the bar."""
        self.label.setText(text)
        if bool(self.property("error")) != error:
            self.setProperty("error", error)
            self.style().unpolish(self)
            self.style().polish(self)
        self.show()
