"""The left sidebar: new chat, search, the sessions list, undo after delete, trash, settings.

A passive view. It reports what the user asks for by signals (open, delete, restore,
search...) and never touches the library; ``SessionsController`` does the work and feeds
the list model. The search field is debounced: ``search_changed`` fires once typing
pauses (clearing it fires at once).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QModelIndex, QPoint, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.ui._notice import DismissibleNotice
from desktop_agent.ui.sidebar._delegate import SessionDelegate
from desktop_agent.ui.sidebar._model import SESSION_ID_ROLE, SessionListModel

SEARCH_DEBOUNCE_MS = 250
MIN_WIDTH = 200
_UNDO_TITLE_CHARS = 32
UNDO_SHOWN_MS = 10_000
"""How long "Deleted … Undo" stays offered."""


class UndoBar(DismissibleNotice):
    """ "Deleted “title”. Undo" — shown after a delete for :data:`UNDO_SHOWN_MS`."""

    undo_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "undoBar",
            close_tip=QCoreApplication.translate(
                "UndoBar", "Dismiss (the session stays in the Trash)"
            ),
            parent=parent,
        )
        self.session_id = ""
        self.label.setObjectName("caption")
        self.undo_button = QToolButton()
        self.undo_button.setText(QCoreApplication.translate("UndoBar", "Undo"))
        self.undo_button.setToolTip(QCoreApplication.translate("UndoBar", "Bring the session back"))
        self.undo_button.clicked.connect(self._undo)
        self.add_button(self.undo_button)
        self.expiry = QTimer(self)  # the offer goes; the session stays in the Trash
        self.expiry.setSingleShot(True)
        self.expiry.setInterval(UNDO_SHOWN_MS)
        self.expiry.timeout.connect(self.hide)

    def show_deleted(self, session_id: str, title: str) -> None:
        """Offer to bring back the session just deleted."""
        self.session_id = session_id
        if len(title) > _UNDO_TITLE_CHARS:
            title = title[: _UNDO_TITLE_CHARS - 1].rstrip() + "…"
        self.label.setText(
            QCoreApplication.translate("UndoBar", "Deleted “{title}”.").format(title=title)
        )
        self.label.setToolTip(
            QCoreApplication.translate("UndoBar", "It is in the Trash until the trash is emptied.")
        )
        self.show()
        self.expiry.start()

    def _undo(self) -> None:
        self.hide()
        self.undo_requested.emit(self.session_id)


class SessionListView(QListView):
    """The virtualized list; Delete asks to delete, Enter opens, F2 renames."""

    delete_pressed = Signal(QModelIndex)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Delete/Backspace on a row asks to delete it."""
        index = self.currentIndex()
        if index.isValid() and event.matches(QKeySequence.StandardKey.Delete):
            self.delete_pressed.emit(index)
            event.accept()
            return
        super().keyPressEvent(event)


class Sidebar(QFrame):
    """Sessions: new, search, open, rename, delete (with undo), the trash; and settings.

    Signals:
        new_chat_requested(): "New chat" or Ctrl+N.
        settings_requested(): The Settings button.
        template_requested(): The Template button (the context template editor).
        session_activated(str): A session was clicked (or Enter pressed on it).
        delete_requested(str): Delete a session (the controller confirms first).
        restore_requested(str): Bring a session back from the trash (or Undo).
        search_changed(str): The search text, once typing pauses.
        trash_toggled(bool): Show the trash (True) or the sessions again.
        empty_trash_requested(): "Empty trash" (the controller confirms first).
        export_requested(str), copy_markdown_requested(str): a row's "Export…" and
            "Copy chat as Markdown".
    """

    new_chat_requested = Signal()
    settings_requested = Signal()
    template_requested = Signal()
    session_activated = Signal(str)
    delete_requested = Signal(str)
    restore_requested = Signal(str)
    search_changed = Signal(str)
    trash_toggled = Signal(bool)
    trashed_session_clicked = Signal(str)
    empty_trash_requested = Signal()
    export_requested = Signal(str)
    copy_markdown_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        self.setMaximumWidth(360)  # the minimum: see minimumSizeHint (nothing clipped)
        self.model = SessionListModel(self)
        self.new_chat_button = QPushButton(QCoreApplication.translate("Sidebar", "+  New chat"))
        self.new_chat_button.setToolTip(
            QCoreApplication.translate("Sidebar", "Start a fresh conversation (Ctrl+N)")
        )
        self.new_chat_button.clicked.connect(self.new_chat_requested)
        self.search = self._make_search()
        self.list = self._make_list()
        self.status = QLabel()
        self.status.setObjectName("sidebarNote")
        self.status.setWordWrap(True)
        self.status.hide()
        self.undo_bar = UndoBar()
        self.undo_bar.undo_requested.connect(self.restore_requested)
        self.trash_button = QPushButton(QCoreApplication.translate("Sidebar", "Trash"))
        self.trash_button.setCheckable(True)
        self.trash_button.setToolTip(
            QCoreApplication.translate("Sidebar", "Deleted sessions, until the trash is emptied")
        )
        self.trash_button.toggled.connect(self._on_trash_toggled)
        self.empty_trash_button = QPushButton(QCoreApplication.translate("Sidebar", "Empty trash…"))
        self.empty_trash_button.clicked.connect(self.empty_trash_requested)
        self.empty_trash_button.hide()
        self.settings_button = QPushButton(QCoreApplication.translate("Sidebar", "⚙  Settings"))
        self.settings_button.clicked.connect(self.settings_requested)
        self.template_button = QPushButton(QCoreApplication.translate("Sidebar", "Template"))
        self.template_button.setToolTip(
            QCoreApplication.translate("Sidebar", "Edit how the prompt is assembled (Ctrl+T)")
        )
        self.template_button.clicked.connect(self.template_requested)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(SEARCH_DEBOUNCE_MS)
        self._debounce.timeout.connect(self._emit_search)
        self._build_layout()

    def minimumSizeHint(self) -> QSize:
        """Wide enough for the bottom buttons in full (at any font or scale), ≥ 200 px."""
        hint = super().minimumSizeHint()
        return QSize(max(MIN_WIDTH, hint.width()), hint.height())

    # -- what the controller calls ---------------------------------------------------

    @property
    def in_trash(self) -> bool:
        """Whether the list shows the trash."""
        return self.trash_button.isChecked()

    def set_status(self, text: str) -> None:
        """A one-line note under the list ("Searching…", "No sessions match"); "" hides it."""
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def show_deleted(self, session_id: str, title: str) -> None:
        """Show "Deleted “title”. Undo"."""
        self.undo_bar.show_deleted(session_id, title)

    def start_rename(self, session_id: str) -> bool:
        """Open the inline title editor on a session's row; whether it could."""
        row = self.model.row_of(session_id)
        if row is None:
            return False
        index = self.model.index(row)
        self.list.setCurrentIndex(index)
        self.list.scrollTo(index)
        self.list.edit(index)
        return self.list.state() == QAbstractItemView.State.EditingState

    def scroll_to(self, session_id: str) -> None:
        """Make a session's row visible and current (without opening it)."""
        row = self.model.row_of(session_id)
        if row is not None:
            index = self.model.index(row)
            self.list.setCurrentIndex(index)
            self.list.scrollTo(index)

    # -- building --------------------------------------------------------------------

    def _make_search(self) -> QLineEdit:
        search = QLineEdit()
        search.setObjectName("sessionSearch")
        search.setPlaceholderText(QCoreApplication.translate("Sidebar", "Search sessions…"))
        search.setClearButtonEnabled(True)
        search.textChanged.connect(self._on_search_text)
        return search

    def _make_list(self) -> SessionListView:
        view = SessionListView()
        view.setObjectName("sessionList")
        view.setProperty("i18n_data", True)  # chat titles
        view.setModel(self.model)
        view.setItemDelegate(SessionDelegate(view))
        view.setUniformItemSizes(False)
        view.setMouseTracking(True)
        view.setFrameShape(QFrame.Shape.NoFrame)
        view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._on_context_menu)
        view.clicked.connect(self._on_clicked)
        view.activated.connect(self._on_clicked)
        view.delete_pressed.connect(self._on_delete_pressed)
        view.viewport().setAutoFillBackground(False)
        return view

    def _build_layout(self) -> None:
        bottom = QHBoxLayout()
        bottom.addWidget(self.trash_button)
        bottom.addWidget(self.template_button)
        bottom.addWidget(self.settings_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 12, 8, 10)
        layout.setSpacing(6)
        layout.addWidget(self.new_chat_button)
        layout.addWidget(self.search)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.undo_bar)
        layout.addWidget(self.empty_trash_button)
        layout.addLayout(bottom)

    # -- reacting --------------------------------------------------------------------

    def _on_search_text(self, text: str) -> None:
        if text.strip():
            self._debounce.start()
        else:
            self._debounce.stop()
            self._emit_search()

    def _emit_search(self) -> None:
        self.search_changed.emit(self.search.text().strip())

    def _on_trash_toggled(self, shown: bool) -> None:
        self.search.setEnabled(not shown)
        self.empty_trash_button.setVisible(shown)
        self.trash_button.setText(
            QCoreApplication.translate("Sidebar", "←  Sessions")
            if shown
            else QCoreApplication.translate("Sidebar", "Trash")
        )
        self.trash_toggled.emit(shown)

    def _on_clicked(self, index: QModelIndex) -> None:
        if not index.isValid():
            return
        session_id = str(index.data(SESSION_ID_ROLE))
        if self.in_trash:
            self.trashed_session_clicked.emit(session_id)  # shown read-only
        else:
            self.session_activated.emit(session_id)

    def _on_delete_pressed(self, index: QModelIndex) -> None:
        if not self.in_trash:
            self.delete_requested.emit(str(index.data(SESSION_ID_ROLE)))

    def _on_context_menu(self, position: QPoint) -> None:
        index = self.list.indexAt(position)
        if not index.isValid():
            return
        menu = self.context_menu(index)
        menu.popup(self.list.viewport().mapToGlobal(position))

    def context_menu(self, index: QModelIndex) -> QMenu:
        """The menu for a row: Open, Rename, Delete — or Restore in the trash."""
        session_id = str(index.data(SESSION_ID_ROLE))
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        if self.in_trash:
            restore = menu.addAction(QCoreApplication.translate("Sidebar", "Restore"))
            restore.triggered.connect(lambda: self.restore_requested.emit(session_id))
            return menu
        menu.addAction(QCoreApplication.translate("Sidebar", "Open")).triggered.connect(
            lambda: self.session_activated.emit(session_id)
        )
        rename = menu.addAction(QCoreApplication.translate("Sidebar", "Rename"))
        rename.setShortcut(QKeySequence(Qt.Key.Key_F2))
        rename.setEnabled(bool(self.model.flags(index) & Qt.ItemFlag.ItemIsEditable))
        rename.triggered.connect(lambda: self.start_rename(session_id))
        menu.addSeparator()
        export = menu.addAction(QCoreApplication.translate("Sidebar", "Export…"))
        export.triggered.connect(lambda: self.export_requested.emit(session_id))
        copy = menu.addAction(QCoreApplication.translate("Sidebar", "Copy chat as Markdown"))
        copy.triggered.connect(lambda: self.copy_markdown_requested.emit(session_id))
        menu.addSeparator()
        delete = menu.addAction(QCoreApplication.translate("Sidebar", "Delete…"))
        delete.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        delete.triggered.connect(lambda: self.delete_requested.emit(session_id))
        return menu
