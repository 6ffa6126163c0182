"""Import, export and the saved-templates library, and the dialogs that lead there."""

from __future__ import annotations

import json
from pathlib import Path

from _template_helpers import json_view, names
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox
from pytestqt.qtbot import QtBot

from desktop_agent.app._template_library import TemplateLibrary
from desktop_agent.context import InputModule
from desktop_agent.ui.template_editor import TemplateEditorWindow


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def two_modules(text: str) -> dict[str, object]:
    return {
        "context_template": [
            {"module_name": "rules", "segments": [{"type": "text", "value": text}]},
            {
                "module_name": "input",
                "segments": [{"type": "variable", "value": "current_user_input"}],
                "role": "user",
            },
        ]
    }


def test_export_import_round_trip(
    qtbot: QtBot, editor: TemplateEditorWindow, tmp_path: Path, input_module: InputModule
) -> None:
    editor.form.name.setText("identity")
    target = tmp_path / "mine.json"
    assert editor.export_file(target)
    assert json.loads(target.read_text(encoding="utf-8")) == editor.document.to_data()
    assert "Exported to" in editor.chrome.notice.label.text()

    other = TemplateEditorWindow(InputModule())
    qtbot.addWidget(other, before_close_func=lambda w: w.reload_from_session())
    assert other.import_file(target)
    assert other.document.to_data() == editor.document.to_data()
    assert names(other)[0] == "identity"
    assert other.can_apply
    other.undo()
    assert names(other)[0] == "persona"


def test_import_replaces_the_draft_undoably(editor: TemplateEditorWindow, tmp_path: Path) -> None:
    path = write_json(tmp_path / "short.json", two_modules("Be brief."))
    assert editor.import_file(path)
    assert names(editor) == ["rules", "input"]
    assert json_view(editor) == editor.document.to_data()
    assert "Imported short.json" in editor.chrome.notice.label.text()
    assert editor.undo_stack.undoText() == "Import short.json"
    editor.undo()
    assert names(editor)[0] == "persona"


def test_importing_a_non_json_file_changes_nothing_and_says_why(
    editor: TemplateEditorWindow, tmp_path: Path
) -> None:
    path = tmp_path / "notes.json"
    path.write_text("hello\n", encoding="utf-8")
    before = editor.document.to_data()
    assert not editor.import_file(path)
    assert editor.document.to_data() == before
    assert editor.undo_stack.count() == 0
    notice = editor.chrome.notice
    assert notice.property("error") is True
    assert "Nothing imported" in notice.label.text()
    assert "invalid JSON at line 1, column 1" in notice.label.text()


def test_importing_an_invalid_template_names_the_faults(
    editor: TemplateEditorWindow, tmp_path: Path
) -> None:
    data = two_modules("x")
    data["context_template"][0]["segments"][0]["type"] = "txt"  # type: ignore[index]
    path = write_json(tmp_path / "bad.json", data)
    assert not editor.import_file(path)
    assert names(editor)[0] == "persona"
    assert "context_template[0].segments[0].type" in editor.chrome.notice.label.text()


def test_importing_a_missing_file(editor: TemplateEditorWindow, tmp_path: Path) -> None:
    assert not editor.import_file(tmp_path / "gone.json")
    assert "file not found" in editor.chrome.notice.label.text()


def test_an_unknown_variable_in_an_imported_file_is_flagged(
    editor: TemplateEditorWindow, tmp_path: Path
) -> None:
    data = two_modules("Today: ")
    data["context_template"][0]["segments"].append(  # type: ignore[index]
        {"type": "variable", "value": "stock_prices"}
    )
    assert editor.import_file(write_json(tmp_path / "other.json", data))

    assert editor.document.modules[0].segments[1].value == "stock_prices"
    assert "1 problem(s) flagged" in editor.chrome.notice.label.text()
    editor.select_module(0)
    row = editor.form.segments.rows[1]
    assert row.picker is not None and row.picker.current_name() == "stock_prices"
    assert "unknown variable 'stock_prices'" in row.fault.text()
    assert not editor.can_apply
    assert not editor.apply()


def test_library_save_list_load_delete(
    editor: TemplateEditorWindow, library: TemplateLibrary
) -> None:
    editor.form.name.setText("identity")
    assert editor.save_to_library("Pirate")
    assert library.names() == ["Pirate"]
    combo = editor.chrome.library
    assert [combo.itemText(i) for i in range(combo.count())] == ["Saved templates…", "Pirate"]
    assert editor.chrome.selected_template() == "Pirate"

    editor.reset_to_default()
    assert names(editor)[0] == "persona"
    editor.chrome.load.click()
    assert names(editor)[0] == "identity"
    assert editor.undo_stack.undoText() == "Load “Pirate”"

    assert editor.delete_from_library("Pirate")
    assert library.names() == []
    assert editor.chrome.selected_template() is None
    assert not editor.chrome.load.isEnabled()


def test_an_invalid_draft_is_not_saved(
    editor: TemplateEditorWindow, library: TemplateLibrary
) -> None:
    editor.form.name.clear()
    assert not editor.chrome.save.isEnabled()
    assert not editor.save_to_library("Broken")
    assert library.names() == []


def test_library_templates_saved_elsewhere_are_listed(
    qtbot: QtBot, input_module: InputModule, library: TemplateLibrary
) -> None:
    library.save("b", two_modules("B"))
    library.save("a", two_modules("A"))
    window = TemplateEditorWindow(input_module, library=library)
    qtbot.addWidget(window)
    combo = window.chrome.library
    assert [combo.itemData(i) for i in range(combo.count())] == [None, "a", "b"]
    combo.setCurrentIndex(2)
    assert window.load_from_library("b")
    assert window.document.modules[0].segments[0].value == "B"


def test_import_button_opens_a_non_modal_file_dialog(
    qtbot: QtBot, editor: TemplateEditorWindow, tmp_path: Path
) -> None:
    path = write_json(tmp_path / "pick.json", two_modules("Picked."))
    editor.show()
    editor.chrome.import_.click()  # returns at once: the dialog is open()ed, not exec()ed
    dialog = editor.dialogs.dialog
    assert isinstance(dialog, QFileDialog) and dialog.isVisible()
    dialog.fileSelected.emit(str(path))
    assert names(editor) == ["rules", "input"]
    dialog.reject()


def test_export_button_opens_a_save_dialog(
    qtbot: QtBot, editor: TemplateEditorWindow, tmp_path: Path
) -> None:
    editor.show()
    editor.chrome.export.click()
    dialog = editor.dialogs.dialog
    assert isinstance(dialog, QFileDialog)
    assert dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
    dialog.fileSelected.emit(str(tmp_path / "out.json"))
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["context_template"]


def test_save_as_asks_for_a_name_and_before_replacing(
    qtbot: QtBot, editor: TemplateEditorWindow, library: TemplateLibrary
) -> None:
    editor.show()
    library.save("Mine", two_modules("Old."))
    editor.chrome.save.click()
    ask = editor.dialogs.dialog
    assert isinstance(ask, QInputDialog) and ask.isVisible()
    ask.setTextValue("Mine")
    ask.accept()

    confirm = editor.dialogs.dialog
    assert isinstance(confirm, QMessageBox) and confirm.isVisible()
    assert library.load("Mine").context_template[0].module_name == "rules"  # not yet
    confirm.button(QMessageBox.StandardButton.Yes).click()
    assert library.load("Mine").context_template[0].module_name == "persona"


def test_delete_asks_first(
    qtbot: QtBot, editor: TemplateEditorWindow, library: TemplateLibrary
) -> None:
    editor.show()
    library.save("Old", two_modules("Old."))
    editor.chrome.refresh_library(library.names(), "Old")
    editor.chrome.delete.click()
    confirm = editor.dialogs.dialog
    assert isinstance(confirm, QMessageBox)
    confirm.button(QMessageBox.StandardButton.Cancel).click()
    assert library.names() == ["Old"]
    editor.chrome.delete.click()
    confirm = editor.dialogs.dialog
    assert isinstance(confirm, QMessageBox)
    confirm.button(QMessageBox.StandardButton.Yes).click()
    assert library.names() == []
