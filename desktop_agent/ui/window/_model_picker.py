"""The model picker in the chat header, and the controller that makes its choice count.

The button names the chat's model; clicking it (or Ctrl+Shift+L) opens a searchable list
of the models of every configured provider, grouped under the provider's name (each
provider's ``/v1/models`` fetched in a worker thread each time the list opens, all at
once; the ones used recently first in each group; a provider that cannot be reached shows
why in its group). Picking one makes the next request use it — with its provider's base
URL and key — saves it with the chat (the session's model and chat setup) and remembers
it as the last used, which a new chat starts with.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, QPoint, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFrame,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.app import ChatService, Provider, fetch_model_ids
from desktop_agent.app._model_choice import ModelChoice
from desktop_agent.app._session_switcher import ActiveSessionChanged
from desktop_agent.ui._plain import plain_tooltip
from desktop_agent.ui._qt_async import TaskSet

RECENT_MARK = QT_TRANSLATE_NOOP("ModelPopup", "Recent")
MODEL_ROLE = Qt.ItemDataRole.UserRole
PROVIDER_ROLE = Qt.ItemDataRole.UserRole + 1
HEADER_ROLE = Qt.ItemDataRole.UserRole + 2


@dataclass(frozen=True)
class ModelGroup:
    """The models of one provider, as the list shows them.

    Attributes:
        provider: The provider's name (the group's heading).
        models: Its models, in the order to list them.
        note: Shown instead of models when there are none ("Loading…", why not).
    """

    provider: str
    models: tuple[str, ...] = ()
    note: str = ""


class ModelPopup(QFrame):
    """A search field over the models, grouped by provider; Enter or a click picks one.

    Signals:
        picked(str, str): The model and its provider's name.
    """

    picked = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("modelPopup")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(QCoreApplication.translate("ModelPopup", "Search models…"))
        self.search.setClearButtonEnabled(True)
        self.list = QListWidget(self)
        self.list.setProperty("i18n_data", True)  # model and provider names
        self.list.setMinimumSize(340, 300)
        self.list.setWordWrap(True)  # a provider's error line wraps instead of scrolling
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.search)
        layout.addWidget(self.list)
        self.search.textChanged.connect(self._filter)
        self.search.returnPressed.connect(self._pick_current)
        self.list.itemActivated.connect(self._pick)
        self.list.itemClicked.connect(self._pick)

    def show_models(self, models: list[str], recent: set[str], current: str, note: str) -> None:
        """One provider's ``models`` without a heading (``recent`` ones marked)."""
        self.show_groups([ModelGroup("", tuple(models), note)], recent, ("", current))

    def show_groups(
        self, groups: list[ModelGroup], recent: set[str], current: tuple[str, str]
    ) -> None:
        """List each group under its provider's name; ``current`` (provider, model) ticked."""
        self.list.clear()
        for group in groups:
            if group.provider:
                self.list.addItem(_heading(group.provider))
            for model in group.models:
                mark = QCoreApplication.translate("ModelPopup", RECENT_MARK)
                label = f"{model}    · {mark}" if model in recent else model
                chosen = (group.provider or current[0], model) == current
                item = QListWidgetItem(("✓ " if chosen else "   ") + label)
                item.setData(MODEL_ROLE, model)
                item.setData(PROVIDER_ROLE, group.provider)
                self.list.addItem(item)
                if chosen:
                    self.list.setCurrentItem(item)
            if not group.models:
                text = group.note or QCoreApplication.translate("ModelPopup", "No models listed")
                item = QListWidgetItem("   " + text)
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                item.setData(PROVIDER_ROLE, group.provider)
                item.setToolTip(plain_tooltip(text))
                self.list.addItem(item)
        self._filter(self.search.text())

    def _filter(self, text: str) -> None:
        needle = text.strip().casefold()
        first: QListWidgetItem | None = None
        heading: QListWidgetItem | None = None
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(HEADER_ROLE):
                heading = item
                item.setHidden(bool(needle))  # shown again below if a model matches
                continue
            model = item.data(MODEL_ROLE)
            hidden = bool(needle) and (not model or needle not in str(model).casefold())
            item.setHidden(hidden)
            if not hidden and heading is not None:
                heading.setHidden(False)
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
            self.picked.emit(str(model), str(item.data(PROVIDER_ROLE) or ""))


def _heading(provider: str) -> QListWidgetItem:
    item = QListWidgetItem(provider)
    item.setFlags(Qt.ItemFlag.NoItemFlags)
    item.setData(HEADER_ROLE, True)
    item.setData(PROVIDER_ROLE, provider)
    font = QFont(item.font())
    font.setBold(True)
    item.setFont(font)
    return item


class ModelPicker(QToolButton):
    """The chat header's button: "<model> ▾"; opens :class:`ModelPopup`.

    Signals:
        opened(): The list was opened (the controller fetches the models).
        model_chosen(str, str): The user picked a model (the model, its provider's name).
    """

    opened = Signal()
    model_chosen = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("modelPicker")
        self.setProperty("i18n_data", True)  # its text is a model's name
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setAutoRaise(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # a Tab stop (window.tab_stops)
        self.popup = ModelPopup(self)
        self.popup.picked.connect(self.model_chosen)
        self.clicked.connect(self.open_list)
        self.set_model("", "")

    def set_model(self, model: str, provider: str) -> None:
        """Name the chat's model (and its provider, on hover)."""
        none = QCoreApplication.translate("ModelPicker", "No model")
        self.setText(f"{model or none}  ▾")
        self.setEnabled(bool(model))
        where = f" · {provider}" if provider else ""
        tip = QCoreApplication.translate(
            "ModelPicker", "Model of this chat: {model} — click to change (Ctrl+Shift+L)"
        )
        self.setToolTip(plain_tooltip(tip.format(model=model + where)))

    def open_list(self) -> None:
        """Show the list under the button, search field focused."""
        if not self.isEnabled():
            return
        self.popup.search.clear()
        loading = QCoreApplication.translate("ModelPicker", "Loading models…")
        self.popup.show_models([], set(), "", loading)
        self.popup.move(self.mapToGlobal(QPoint(0, self.height())))
        self.popup.show()
        self.popup.search.setFocus()
        self.opened.emit()


class ModelPickerController:
    """Joins the picker, the :class:`ModelChoice` and the chat service.

    Args:
        picker: The header button.
        choice: The chat's model and the recent ones; its ``providers`` lists every
            configured provider (the picker's groups).
        service: The chat service whose provider is re-configured.
        reconfigure: Re-apply settings and provider to the chat (it goes through
            ``choice.apply``) and refresh the model captions.
        save: Save the chat now (its setup names the provider).
    """

    def __init__(
        self,
        picker: ModelPicker,
        choice: ModelChoice,
        service: ChatService,
        reconfigure: Callable[[], None],
        save: Callable[[], Coroutine[Any, Any, None]] | None = None,
    ) -> None:
        self.picker = picker
        self.choice = choice
        self.service = service
        self._reconfigure = reconfigure
        self._save = save
        self._tasks = TaskSet()
        self._groups: dict[str, ModelGroup] = {}
        picker.opened.connect(self._load)
        picker.model_chosen.connect(self.choose)

    def choose(self, model: str, provider: str | None = None) -> None:
        """Use ``model`` (of the provider named ``provider``; ``None``: the chat's current
        one) for this chat from the next request on, and save the chat."""
        if provider == "":
            provider = None
        self.choice.choose(model, provider)
        self._apply()
        if self._save is not None:
            self._tasks.spawn(self._save(), "model-picker-save")

    def on_session(self, event: object) -> None:
        """A session was opened (its saved model) or a new chat started (the last used)."""
        if not isinstance(event, ActiveSessionChanged):
            return
        if event.session_id is None:
            self.choice.new_chat()
        elif event.summary is None:
            return  # the chat just became a session (its first message): same chat, same model
        else:
            self.choice.restore(event.model, self.service.agent_state.setup.provider)
        self._apply()

    def show_provider(self, provider: Provider | None) -> None:
        """Name the chat's model on the button."""
        if provider is None:
            self.picker.set_model("", "")
        else:
            self.picker.set_model(provider.model, provider.name)

    def _apply(self) -> None:
        self._reconfigure()
        self.service.agent_state.setup.provider = self.choice.chosen_provider
        self.show_provider(self.service.provider)

    def _load(self) -> None:
        self._tasks.spawn(self._fill(), "model-picker-list")

    async def _fill(self) -> None:
        current = self.service.provider
        if current is None:
            return
        providers = self.choice.providers() or [current]
        if all(p.name != current.name for p in providers):
            providers = [current, *providers]
        loading = QCoreApplication.translate("ModelPicker", "Loading models…")
        self._groups = {p.name: ModelGroup(p.name, note=loading) for p in providers}
        self._show()
        await asyncio.gather(*(self._fill_group(p) for p in providers))

    async def _fill_group(self, provider: Provider) -> None:
        """One provider's models (a failure is a line in its group, never an exception)."""
        note = ""
        try:
            models = await fetch_model_ids(provider.base_url, provider.api_key.get_secret_value())
        except Exception as exc:  # ModelListError, or anything a broken server causes
            failed = QCoreApplication.translate("ModelPicker", "Could not list models: {error}")
            models, note = [], failed.format(error=exc)
        current = self.service.provider
        own = current.model if current is not None and current.name == provider.name else ""
        for model in (own, provider.model):
            if model and model not in models and not note:
                models.append(model)
        ordered = tuple(self.choice.ordered(models))
        self._groups[provider.name] = ModelGroup(provider.name, ordered, note)
        self._show()

    def _show(self) -> None:
        current = self.service.provider
        chosen = (current.name, current.model) if current is not None else ("", "")
        groups = list(self._groups.values())
        self.picker.popup.show_groups(groups, set(self.choice.recent), chosen)

    async def aclose(self) -> None:
        """Cancel a list being fetched."""
        await self._tasks.cancel_all()
