"""The model picker in the chat header, and the controller that makes its choice count.

The button names the chat's model; clicking it opens a searchable list of the provider's
models (``/v1/models``, fetched in a worker thread each time the list opens; the ones used
recently first). Picking one makes the next request use it, saves it with the chat (the
session's model) and remembers it as the last used, which a new chat starts with.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.app import ChatService, Provider, fetch_model_ids
from desktop_agent.app._model_choice import ModelChoice
from desktop_agent.app._session_switcher import ActiveSessionChanged
from desktop_agent.ui._plain import plain_tooltip
from desktop_agent.ui._qt_async import TaskSet

RECENT_MARK = "Recent"
MODEL_ROLE = Qt.ItemDataRole.UserRole


class ModelPopup(QFrame):
    """A search field over the list of models; Enter or a click picks one."""

    picked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("modelPopup")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search models…")
        self.search.setClearButtonEnabled(True)
        self.list = QListWidget(self)
        self.list.setMinimumSize(320, 260)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.search)
        layout.addWidget(self.list)
        self.search.textChanged.connect(self._filter)
        self.search.returnPressed.connect(self._pick_current)
        self.list.itemActivated.connect(self._pick)
        self.list.itemClicked.connect(self._pick)

    def show_models(self, models: list[str], recent: set[str], current: str, note: str) -> None:
        """List ``models`` (``recent`` ones marked), ``current`` selected; ``note`` if empty."""
        self.list.clear()
        for model in models:
            label = f"{model}    · {RECENT_MARK}" if model in recent else model
            item = QListWidgetItem(("✓ " if model == current else "   ") + label)
            item.setData(MODEL_ROLE, model)
            self.list.addItem(item)
            if model == current:
                self.list.setCurrentItem(item)
        if not models:
            item = QListWidgetItem(note or "No models listed")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(item)
        self._filter(self.search.text())

    def _filter(self, text: str) -> None:
        needle = text.strip().casefold()
        first: QListWidgetItem | None = None
        for row in range(self.list.count()):
            item = self.list.item(row)
            model = item.data(MODEL_ROLE)
            hidden = bool(needle) and (not model or needle not in str(model).casefold())
            item.setHidden(hidden)
            if not hidden and model and first is None:
                first = item
        current = self.list.currentItem()
        if first is not None and (current is None or current.isHidden()):
            self.list.setCurrentItem(first)

    def _pick_current(self) -> None:
        item = self.list.currentItem()
        if item is not None and not item.isHidden():
            self._pick(item)

    def _pick(self, item: QListWidgetItem) -> None:
        model = item.data(MODEL_ROLE)
        if model:
            self.hide()
            self.picked.emit(str(model))


class ModelPicker(QToolButton):
    """The chat header's button: "<model> ▾"; opens :class:`ModelPopup`.

    Signals:
        opened(): The list was opened (the controller fetches the models).
        model_chosen(str): The user picked a model.
    """

    opened = Signal()
    model_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("modelPicker")
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setAutoRaise(True)
        self.popup = ModelPopup(self)
        self.popup.picked.connect(self.model_chosen)
        self.clicked.connect(self.open_list)
        self.set_model("", "")

    def set_model(self, model: str, provider: str) -> None:
        """Name the chat's model (and its provider, on hover)."""
        self.setText(f"{model or 'No model'}  ▾")
        self.setEnabled(bool(model))
        where = f" · {provider}" if provider else ""
        self.setToolTip(plain_tooltip(f"Model of this chat: {model}{where} — click to change"))

    def open_list(self) -> None:
        """Show the list under the button, search field focused."""
        self.popup.search.clear()
        self.popup.show_models([], set(), "", "Loading models…")
        self.popup.move(self.mapToGlobal(QPoint(0, self.height())))
        self.popup.show()
        self.popup.search.setFocus()
        self.opened.emit()


class ModelPickerController:
    """Joins the picker, the :class:`ModelChoice` and the chat service.

    Args:
        picker: The header button.
        choice: The chat's model and the recent ones.
        service: The chat service whose provider is re-configured.
        reconfigure: Re-apply settings and provider to the chat (it goes through
            ``choice.apply``) and refresh the model captions.
    """

    def __init__(
        self,
        picker: ModelPicker,
        choice: ModelChoice,
        service: ChatService,
        reconfigure: Callable[[], None],
    ) -> None:
        self.picker = picker
        self.choice = choice
        self.service = service
        self._reconfigure = reconfigure
        self._tasks = TaskSet()
        picker.opened.connect(self._load)
        picker.model_chosen.connect(self.choose)

    def choose(self, model: str) -> None:
        """Use ``model`` for this chat from the next request on."""
        self.choice.choose(model)
        self._apply()

    def on_session(self, event: object) -> None:
        """A session was opened (its saved model) or a new chat started (the last used)."""
        if not isinstance(event, ActiveSessionChanged):
            return
        if event.session_id is None:
            self.choice.new_chat()
        elif event.summary is None:
            return  # the chat just became a session (its first message): same chat, same model
        else:
            self.choice.restore(event.model)
        self._apply()

    def show_provider(self, provider: Provider | None) -> None:
        """Name the chat's model on the button."""
        if provider is None:
            self.picker.set_model("", "")
        else:
            self.picker.set_model(provider.model, provider.name)

    def _apply(self) -> None:
        self._reconfigure()
        self.show_provider(self.service.provider)

    def _load(self) -> None:
        self._tasks.spawn(self._fill(), "model-picker-list")

    async def _fill(self) -> None:
        provider = self.service.provider
        if provider is None:
            return
        note = ""
        try:
            models = await fetch_model_ids(provider.base_url, provider.api_key.get_secret_value())
        except Exception as exc:  # ModelListError, or anything a broken server causes
            models, note = [], f"Could not list models: {exc}"
        if provider.model not in models and not note:
            models.append(provider.model)
        ordered = self.choice.ordered(models)
        self.picker.popup.show_models(ordered, set(self.choice.recent), provider.model, note)

    async def aclose(self) -> None:
        """Cancel a list being fetched."""
        await self._tasks.cancel_all()
