"""The template editor window: modules · module form / JSON · live preview.

The window edits a *draft* (:class:`TemplateDocument`) of the session's
``InputModule.config``. Every change — typing, picking, reordering, a JSON edit, an
import, Revert, Reset — is an undoable edit pushed on one ``QUndoStack``; the document
then tells the views what changed. After each change the draft is validated with the
session's own ``validate_config`` (so its registered variables count), the faults are
placed at their fields, rows and JSON lines, and a preview build is scheduled. The live
session changes only on Apply (``input_module.load_config``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent, QUndoStack
from PySide6.QtWidgets import QScrollArea, QTabWidget, QWidget

import desktop_agent.ui.template_editor._edits as edits
from desktop_agent._i18n import QT_TRANSLATE_NOOP
from desktop_agent.app._template_library import (
    TemplateLibrary,
    read_template_file,
    template_data,
    write_template_file,
)
from desktop_agent.context import ContextConfig, ContextConfigError, InputModule
from desktop_agent.ui._plain import sentence
from desktop_agent.ui.template_editor._commands import (
    EditCommand,
    UndoKeyRouter,
    redo_keys,
    undo_keys,
)
from desktop_agent.ui.template_editor._dialogs import EditorDialogs
from desktop_agent.ui.template_editor._document import Change, TemplateDocument
from desktop_agent.ui.template_editor._faults import Fault, error_faults
from desktop_agent.ui.template_editor._json_tab import JsonTab
from desktop_agent.ui.template_editor._layout import build_chrome, share_width
from desktop_agent.ui.template_editor._module_form import ModuleForm
from desktop_agent.ui.template_editor._module_list import ModuleListModel, ModuleListPane
from desktop_agent.ui.template_editor._preview import Preview
from desktop_agent.ui.template_editor._preview_pane import (
    MemoryProvider,
    PreviewController,
    PreviewPane,
    VariablesProvider,
)
from desktop_agent.ui.template_editor._segments import focus_segment_editor

AppliedCallback = Callable[[ContextConfig], None]
APPLIED_NOTICE = QT_TRANSLATE_NOOP(
    "TemplateEditorWindow", "Applied: the next turn uses this template."
)


class TemplateEditorWindow(QWidget):
    """A non-modal window editing the context template of one session.

    Signals:
        applied(ContextConfig): The draft was applied to the session's input module.
        preview_finished(Preview): A preview build finished (for tests and tools).
        state_changed(): The draft, its faults or whether it can be applied changed.
    """

    applied = Signal(object)
    preview_finished = Signal(object)
    state_changed = Signal()
    closed = Signal()
    """The window closed (its changes applied or discarded)."""

    def __init__(
        self,
        input_module: InputModule,
        *,
        memory_provider: MemoryProvider | None = None,
        variables_provider: VariablesProvider | None = None,
        on_applied: AppliedCallback | None = None,
        library: TemplateLibrary | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """Edit ``input_module``'s template.

        Args:
            input_module: The session's module; changed only by Apply.
            memory_provider: Returns the session's memory for the preview (or ``None``).
            variables_provider: Returns the build values the agent passes, e.g.
                ``{"agent_name": agent.name, "sys_prompt": agent.sys_prompt}``.
            on_applied: Called with the applied config (e.g. to save the session).
            library: The saved templates (default: under the app's data folder).
            parent: A parent widget (the window stays a separate top-level window).
        """
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(QCoreApplication.translate("TemplateEditorWindow", "Context template"))
        self.setObjectName("templateEditor")
        self.input_module = input_module
        self.library = library or TemplateLibrary()
        self._on_applied = on_applied
        self._applied_data = template_data(input_module.config)
        self.document = TemplateDocument(self._applied_data)
        self.undo_stack = QUndoStack(self)
        self.faults: list[Fault] = []
        self._shown_once = False
        self.draft_config: ContextConfig | None = input_module.config
        self._build_parts(memory_provider, variables_provider)
        self._connect()
        self.chrome = build_chrome(self)
        self._install_actions()
        self.document.subscribe(self._document_changed)
        self._refresh_known_names()
        self.module_list.select_row(0)
        self._after_change()
        self.resize(1200, 760)

    # ------------------------------------------------------------------ building

    def _build_parts(
        self, memory: MemoryProvider | None, variables: VariablesProvider | None
    ) -> None:
        self.key_router = UndoKeyRouter(self.undo, self.redo, self)
        watch = self.key_router.watch
        self.list_model = ModuleListModel(self.document, self._move_module, self._enable)
        self.module_list = ModuleListPane(self.list_model)
        self.list_model.setParent(self.module_list)
        self.form = ModuleForm(watch)
        self.form_scroll = QScrollArea()
        self.form_scroll.setWidgetResizable(True)
        self.form_scroll.setWidget(self.form)
        self.json_tab = JsonTab(watch)
        self.middle = QTabWidget()
        self.middle.addTab(
            self.form_scroll, QCoreApplication.translate("TemplateEditorWindow", "Module")
        )
        self.middle.addTab(self.json_tab, "JSON")
        self.preview_pane = PreviewPane()  # its sample input keeps its own undo
        self.preview = PreviewController(self.input_module, memory, variables, self)
        self.dialogs = EditorDialogs(self, self)

    def _connect(self) -> None:
        pane, form, segments = self.module_list, self.form, self.form.segments
        pane.current_changed.connect(self._show_current)
        pane.add_requested.connect(lambda row: self._push(edits.add_module(self.document, row + 1)))
        pane.duplicate_requested.connect(
            lambda row: self._push(edits.duplicate_module(self.document, row))
        )
        pane.delete_requested.connect(lambda row: self._push(edits.delete_module(row)))
        pane.step_requested.connect(lambda row, delta: self._move_module(row, row + delta))
        form.name_edited.connect(self._for_current(edits.rename_module))
        form.description_edited.connect(self._for_current(edits.set_description))
        form.role_chosen.connect(self._for_current(edits.set_role))
        form.importance_chosen.connect(self._for_current(edits.set_importance))
        segments.text_edited.connect(self._segment_text)
        segments.variable_chosen.connect(self._segment_variable)
        segments.move_requested.connect(self._move_segment)
        segments.remove_requested.connect(self._remove_segment)
        segments.add_requested.connect(self._add_segment)
        self.json_tab.config_edited.connect(self._json_edited)
        self.json_tab.problems_changed.connect(self._update_state)
        self.preview_pane.sample_input_changed.connect(lambda _text: self._request_preview())
        self.preview.started.connect(self.preview_pane.show_busy)
        self.preview.finished.connect(self._preview_done)
        self.preview.failed.connect(self.preview_pane.show_paused)

    def _install_actions(self) -> None:
        chrome = self.chrome
        # Bound methods of the buttons, not lambdas: Qt drops these connections when a
        # button is destroyed, and the stack still signals while it is being cleared.
        self.undo_stack.canUndoChanged.connect(chrome.undo.setEnabled)
        self.undo_stack.canRedoChanged.connect(chrome.redo.setEnabled)
        self.undo_stack.undoTextChanged.connect(chrome.undo.show_command)
        self.undo_stack.redoTextChanged.connect(chrome.redo.show_command)
        chrome.undo.setEnabled(False)
        chrome.redo.setEnabled(False)
        for keys, slot in ((undo_keys(), self.undo), (redo_keys(), self.redo)):
            action = QAction(self)
            action.setShortcuts(keys)
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(slot)
            self.addAction(action)
        apply_action = QAction(self)
        apply_action.setShortcuts([QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter")])
        apply_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        apply_action.triggered.connect(self.apply)
        self.addAction(apply_action)
        close_action = QAction(self)  # Esc closes (asking first about unapplied changes)
        close_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        close_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        close_action.triggered.connect(self.close)
        self.addAction(close_action)

    # ------------------------------------------------------------------- editing

    def _push(self, edit: edits.Edit) -> None:
        self.undo_stack.push(EditCommand(self.document, edit))

    def undo(self) -> None:
        """Undo the last edit (uncommitted JSON typing first)."""
        if self._settle_json_typing():
            self.undo_stack.undo()

    def redo(self) -> None:
        """Redo the last undone edit."""
        if self._settle_json_typing():
            self.undo_stack.redo()

    def _settle_json_typing(self) -> bool:
        """Commit valid JSON typing; drop invalid typing. ``False`` if that was the undo."""
        if not (self.json_tab.has_uncommitted or self.json_tab.pending_faults):
            return True
        self.json_tab.commit_now()
        if self.json_tab.pending_faults:
            self.json_tab.discard_uncommitted()
            return False
        return True

    def _for_current(self, make: Callable[[int, Any], edits.Edit]) -> Callable[[Any], None]:
        def push(value: Any) -> None:
            row = self.module_list.current_row()
            if row >= 0:
                self._push(make(row, value))

        return push

    def _move_module(self, source: int, destination: int) -> None:
        if source != destination and 0 <= destination < len(self.document.modules):
            self._push(edits.move_module(source, destination))

    def _enable(self, row: int, enabled: bool) -> None:
        module = self.document.modules[row]
        if module.enabled != enabled:
            self._push(edits.set_importance(row, enabled))

    def _segment_text(self, position: int, text: str) -> None:
        row = self.module_list.current_row()
        if row >= 0 and self.document.modules[row].segments[position].value != text:
            self._push(edits.set_segment_text(row, position, text))

    def _segment_variable(self, position: int, name: str) -> None:
        row = self.module_list.current_row()
        if row >= 0 and self.document.modules[row].segments[position].value != name:
            self._push(edits.set_segment_variable(row, position, name))

    def _move_segment(self, position: int, delta: int) -> None:
        row = self.module_list.current_row()
        target = position + delta
        if row >= 0 and 0 <= target < len(self.document.modules[row].segments):
            self._push(edits.move_segment(self.document, row, position, target))

    def _remove_segment(self, position: int) -> None:
        row = self.module_list.current_row()
        if row >= 0:
            self._push(edits.remove_segment(self.document, row, position))

    def _add_segment(self, kind: str) -> None:
        row = self.module_list.current_row()
        if row < 0:
            return
        if kind == "text":
            self._push(edits.add_segment(self.document, row, "text"))
        else:
            first = next(iter(self.form.segments.variables()), "")
            self._push(edits.add_segment(self.document, row, "variable", first))
        if self.form.segments.rows:
            focus_segment_editor(self.form.segments.rows[-1])

    def _json_edited(self, data: dict[str, Any]) -> None:
        label = QT_TRANSLATE_NOOP("EditCommand", "Edit JSON")
        self._push(edits.replace_template(data, label, merge=True))

    def replace_draft(self, data: dict[str, Any], label: str) -> None:
        """Replace the whole draft (one undoable step)."""
        if data != self.document.to_data():
            self._push(edits.replace_template(data, label))

    # ----------------------------------------------------------- document events

    def _document_changed(self, change: Change) -> None:
        if self.chrome.notice.label.text() == self._applied_notice():
            self.chrome.notice.hide()  # an edit after applying: the draft is ahead again
        row = self.module_list.current_row()
        if change.kind == "reset":
            self.module_list.select_row(max(row, 0))
            self._show_current(self.module_list.current_row())
        elif change.kind == "module_removed":
            self.module_list.select_row(min(change.module, len(self.document.modules) - 1))
        elif change.kind in ("module_inserted", "module_moved"):
            target = change.to if change.kind == "module_moved" else change.module
            self.module_list.select_row(target)
        elif change.module != row:
            self.module_list.select_row(change.module)  # undo elsewhere: show what changed
        else:
            self._update_form(change)
        self._after_change()

    def _update_form(self, change: Change) -> None:
        module = self.document.modules[change.module]
        if change.kind == "module_changed":
            self.form.show_field(module, change.field)
        elif change.kind == "segments_changed":
            self.form.segments.show_segments(module.segments)
        elif change.kind == "segment_changed":
            segment = module.segments[change.segment]
            if not self.form.segments.update_segment(change.segment, segment):
                self.form.segments.show_segments(module.segments)

    def _show_current(self, row: int) -> None:
        modules = self.document.modules
        self.form.show_module(modules[row] if 0 <= row < len(modules) else None)
        self.form.show_faults([f for f in self.faults if f.module == row])

    def _after_change(self) -> None:
        data = self.document.to_data()
        self.json_tab.show_data(data)
        self._validate(data)
        self._request_preview()

    def _validate(self, data: dict[str, Any]) -> None:
        try:
            self.draft_config = self.input_module.validate_config(data)
            self.faults = []
        except ContextConfigError as exc:
            self.draft_config = None
            self.faults = error_faults(exc)
        row = self.module_list.current_row()
        self.form.show_faults([f for f in self.faults if f.module == row])
        self.list_model.set_faults(self.faults)
        self.json_tab.show_faults(self.faults)
        self._update_state()

    def _update_state(self) -> None:
        self.chrome.apply.setEnabled(self.can_apply)
        self.chrome.revert.setEnabled(self.is_dirty)
        self.chrome.save.setEnabled(self.is_valid)
        self.chrome.show_problems(self.problems(), self.document.module_names())
        self.state_changed.emit()

    # ------------------------------------------------------------------- state

    @property
    def is_valid(self) -> bool:
        """Whether the draft (and the JSON tab's text) has no faults."""
        return not self.faults and not self.json_tab.pending_faults

    @property
    def is_dirty(self) -> bool:
        """Whether the draft differs from the config the session uses."""
        return self.document.to_data() != self._applied_data

    @property
    def can_apply(self) -> bool:
        """Whether Apply is possible: the draft is valid and differs from the session's."""
        return self.is_valid and self.is_dirty

    def problems(self) -> Sequence[Fault]:
        """Every fault to show: the JSON tab's unapplied text first, then the draft's."""
        return [*self.json_tab.pending_faults, *self.faults]

    def select_module(self, row: int) -> None:
        """Select the module at ``row`` (shows it in the form)."""
        self.module_list.select_row(row)

    # ------------------------------------------------------------------ preview

    def _request_preview(self) -> None:
        if self.draft_config is None or self.json_tab.pending_faults:
            self.preview.cancel()
            self.preview_pane.show_paused(
                QCoreApplication.translate(
                    "TemplateEditorWindow", "Paused until the problems are fixed."
                )
            )
            return
        if not self.isVisible():
            return  # built when shown: no plug-in calls for a hidden window
        self.preview.request(self.draft_config, self.preview_pane.sample_text())

    def _preview_done(self, preview: Preview) -> None:
        self.preview_pane.show_preview(preview)
        self.preview_finished.emit(preview)

    # ---------------------------------------------------------- apply / revert

    def apply(self) -> bool:
        """Use the draft in the session from the next turn.

        Returns:
            Whether it was applied (``False`` when the draft has problems).
        """
        if self.json_tab.has_uncommitted:
            self.json_tab.commit_now()
        if not self.is_valid:
            fix = QCoreApplication.translate(
                "TemplateEditorWindow", "Fix the problems shown in red before applying."
            )
            self.chrome.show_notice(fix, error=True)
            return False
        try:
            self.input_module.load_config(self.document.to_data())
        except ContextConfigError as exc:  # names changed since the last validation
            self.faults = error_faults(exc)
            self._after_change()
            return False
        config = self.input_module.config
        self._applied_data = template_data(config)
        self.undo_stack.setClean()
        self._update_state()
        self.chrome.show_notice(self._applied_notice())
        self.applied.emit(config)
        if self._on_applied is not None:
            self._on_applied(config)
        return True

    def revert(self) -> None:
        """Go back to the config the session uses (undoable)."""
        self.replace_draft(dict(self._applied_data), QT_TRANSLATE_NOOP("EditCommand", "Revert"))

    def reset_to_default(self) -> None:
        """Replace the draft with the default template shipped with the app (undoable)."""
        try:
            config = read_template_file(InputModule.default_config_path())
        except ContextConfigError as exc:
            self.chrome.show_notice(str(exc), error=True)
            return
        self.replace_draft(
            template_data(config), QT_TRANSLATE_NOOP("EditCommand", "Reset to default")
        )

    def reload_from_session(self) -> None:
        """Drop the draft and its history; edit the session's current config again."""
        self._applied_data = template_data(self.input_module.config)
        self.document.replace(self._applied_data)
        self.undo_stack.clear()
        self._refresh_known_names()
        self._after_change()

    def _refresh_known_names(self) -> None:
        self.form.set_known_names(
            self.input_module.known_variables(), self.input_module.known_importance_funcs()
        )
        self._show_current(self.module_list.current_row())

    # ---------------------------------------------------------- files / library

    def import_file(self, path: str | Path) -> bool:
        """Replace the draft with a template file (undoable).

        A file that is unreadable, not JSON or not a structurally valid config changes
        nothing; the notice says why. Unknown variables or functions are imported and
        flagged at their fields.
        """
        try:
            config = read_template_file(path)
        except ContextConfigError as exc:
            nothing = QCoreApplication.translate(
                "TemplateEditorWindow", "Nothing imported. {error}"
            ).format(error=exc)
            self.chrome.show_notice(nothing, error=True)
            return False
        name = Path(path).name
        label = QCoreApplication.translate("EditCommand", "Import {name}").format(name=name)
        self.replace_draft(template_data(config), label)
        loaded = QCoreApplication.translate("TemplateEditorWindow", "Imported {name}")
        self._notice_loaded(loaded.format(name=name))
        return True

    def export_file(self, path: str | Path) -> bool:
        """Write the draft to ``path`` as template JSON."""
        try:
            write_template_file(path, self.document.to_data())
        except (OSError, ContextConfigError) as exc:
            failed = QCoreApplication.translate(
                "TemplateEditorWindow", "Could not export to {path}: {error}"
            )
            self.chrome.show_notice(sentence(failed.format(path=path, error=exc)), error=True)
            return False
        done = QCoreApplication.translate("TemplateEditorWindow", "Exported to {path}")
        self.chrome.show_notice(done.format(path=path))
        return True

    def library_has(self, name: str) -> bool:
        """Whether the library has a template called ``name``."""
        return self.library.exists(name)

    def save_to_library(self, name: str) -> bool:
        """Save the draft (which must be valid) in the library as ``name``."""
        if not self.is_valid:
            fix = QCoreApplication.translate(
                "TemplateEditorWindow", "Fix the problems before saving the template."
            )
            self.chrome.show_notice(fix, error=True)
            return False
        try:
            self.library.save(name, self.document.to_data())
        except (ValueError, OSError) as exc:
            failed = QCoreApplication.translate(
                "TemplateEditorWindow", "Could not save the template: {error}"
            ).format(error=exc)
            self.chrome.show_notice(sentence(failed), error=True)
            return False
        self.chrome.refresh_library(self.library.names(), name)
        saved = QCoreApplication.translate(
            "TemplateEditorWindow", "Saved as “{name}” in your templates."
        )
        self.chrome.show_notice(saved.format(name=name))
        return True

    def load_from_library(self, name: str) -> bool:
        """Replace the draft with the saved template ``name`` (undoable)."""
        try:
            config = self.library.load(name)
        except (ValueError, ContextConfigError) as exc:
            nothing = QCoreApplication.translate(
                "TemplateEditorWindow", "Nothing loaded. {error}"
            ).format(error=exc)
            self.chrome.show_notice(nothing, error=True)
            return False
        label = QCoreApplication.translate("EditCommand", "Load “{name}”").format(name=name)
        self.replace_draft(template_data(config), label)
        loaded = QCoreApplication.translate("TemplateEditorWindow", "Loaded “{name}”")
        self._notice_loaded(loaded.format(name=name))
        return True

    def delete_from_library(self, name: str) -> bool:
        """Delete the saved template ``name``."""
        try:
            self.library.delete(name)
        except (ValueError, OSError) as exc:
            failed = QCoreApplication.translate(
                "TemplateEditorWindow", "Could not delete the template: {error}"
            ).format(error=exc)
            self.chrome.show_notice(sentence(failed), error=True)
            return False
        self.chrome.refresh_library(self.library.names(), None)
        done = QCoreApplication.translate("TemplateEditorWindow", "Deleted “{name}”.")
        self.chrome.show_notice(done.format(name=name))
        return True

    def _notice_loaded(self, what: str) -> None:
        if self.faults:
            count = len(self.faults)  # a plain name: lupdate skips a call as the count
            flagged = QCoreApplication.translate(
                "TemplateEditorWindow",
                "{what}, with %n problem(s) flagged in red — fix them before applying.",
                "",
                count,
            )
            self.chrome.show_notice(flagged.format(what=what), error=True)
        else:
            done = QCoreApplication.translate(
                "TemplateEditorWindow", "{what}. Apply to use it in the session."
            )
            self.chrome.show_notice(done.format(what=what))

    @staticmethod
    def _applied_notice() -> str:
        return QCoreApplication.translate("TemplateEditorWindow", APPLIED_NOTICE)

    # ------------------------------------------------------------------ window

    def showEvent(self, event: QShowEvent) -> None:
        """Pick up names registered meanwhile and build the preview."""
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            share_width(self.chrome.splitter)
        if (
            not self.is_dirty
            and self.input_module.config.model_dump(mode="json", exclude_none=True)
            != self._applied_data
        ):
            self.reload_from_session()  # the session's config changed (e.g. restored)
        self._refresh_known_names()
        self._validate(self.document.to_data())
        self._request_preview()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Ask about unapplied changes; stop the preview."""
        if self.is_dirty:
            event.ignore()
            self.dialogs.ask_unapplied(self._apply_and_close, self._discard_and_close)
            return
        self.preview.cancel()
        super().closeEvent(event)
        self.closed.emit()

    def _apply_and_close(self) -> None:
        if self.apply():
            self.close()

    def _discard_and_close(self) -> None:
        self.reload_from_session()
        self.close()
