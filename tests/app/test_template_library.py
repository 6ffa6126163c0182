"""The saved-templates library: list, save, load, delete, import and export JSON files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_agent.app._template_library import (
    TemplateLibrary,
    check_template_name,
    read_template_file,
    template_data,
    write_template_file,
)
from desktop_agent.context import ContextConfig, ContextConfigError, InputModule


def small_config(text: str = "Be brief.") -> ContextConfig:
    return ContextConfig.model_validate(
        {
            "context_template": [
                {"module_name": "rules", "segments": [{"type": "text", "value": text}]},
                {
                    "module_name": "input",
                    "segments": [{"type": "variable", "value": "current_user_input"}],
                    "role": "user",
                },
            ]
        }
    )


def test_default_root_is_the_data_folder(desktop_agent_home: Path) -> None:
    assert TemplateLibrary().folder == desktop_agent_home / "templates"


def test_empty_library_lists_nothing(tmp_path: Path) -> None:
    assert TemplateLibrary(tmp_path).list() == []


def test_save_list_load_delete(tmp_path: Path) -> None:
    library = TemplateLibrary(tmp_path)
    saved = library.save("Short answers", small_config())
    library.save("alpha", small_config("Alpha."))

    assert saved.path == tmp_path / "templates" / "Short answers.json"
    assert library.names() == ["alpha", "Short answers"]
    assert library.exists("alpha") and not library.exists("beta")
    assert library.load("Short answers") == small_config()

    library.delete("alpha")
    assert library.names() == ["Short answers"]
    with pytest.raises(FileNotFoundError, match="alpha"):
        library.delete("alpha")


def test_save_replaces_a_template_of_the_same_name(tmp_path: Path) -> None:
    library = TemplateLibrary(tmp_path)
    library.save("mine", small_config("One."))
    library.save("mine", small_config("Two."))
    assert library.load("mine") == small_config("Two.")
    assert [p.name for p in (tmp_path / "templates").iterdir()] == ["mine.json"]


def test_saved_file_is_plain_config_json_an_input_module_loads(tmp_path: Path) -> None:
    library = TemplateLibrary(tmp_path)
    saved = library.save("mine", small_config("Talk like a pirate."))
    data = json.loads(saved.path.read_text(encoding="utf-8"))
    assert data["context_template"][0]["segments"][0]["value"] == "Talk like a pirate."

    module = InputModule(saved.path)
    assert module.config == small_config("Talk like a pirate.")


def test_list_skips_other_files(tmp_path: Path) -> None:
    library = TemplateLibrary(tmp_path)
    library.save("real", small_config())
    (library.folder / "notes.txt").write_text("x")
    (library.folder / ".real.json.123.tmp").write_text("x")
    (library.folder / ".hidden.json").write_text("{}")
    assert library.names() == ["real"]


@pytest.mark.parametrize("name", ["", " padded", "a/b", "..", ".hidden", "a\\b", "x" * 101, "a\nb"])
def test_unusable_names_are_refused(tmp_path: Path, name: str) -> None:
    library = TemplateLibrary(tmp_path)
    with pytest.raises(ValueError, match="Invalid template name"):
        library.save(name, small_config())
    with pytest.raises(ValueError, match="Invalid template name"):
        check_template_name(name)
    assert not library.exists(name)


def test_load_of_a_damaged_file_names_the_fault(tmp_path: Path) -> None:
    library = TemplateLibrary(tmp_path)
    library.save("broken", small_config())
    library.path_of("broken").write_text('{"context_template": [', encoding="utf-8")
    with pytest.raises(ContextConfigError) as caught:
        library.load("broken")
    assert caught.value.faults[0][0] == "(json)"
    assert "line 1, column 23" in caught.value.faults[0][1]


def test_load_of_a_missing_template(tmp_path: Path) -> None:
    with pytest.raises(ContextConfigError, match="file not found"):
        TemplateLibrary(tmp_path).load("nothing")


def test_export_import_round_trip(tmp_path: Path) -> None:
    target = tmp_path / "exported" / "template.json"
    target.parent.mkdir()
    write_template_file(target, small_config("Round trip."))
    assert read_template_file(target) == small_config("Round trip.")
    assert target.read_text(encoding="utf-8").endswith("}\n")


def test_import_of_a_non_json_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text("just some notes\n", encoding="utf-8")
    with pytest.raises(ContextConfigError) as caught:
        read_template_file(path)
    assert caught.value.faults == (("(json)", "invalid JSON at line 1, column 1: Expecting value"),)
    assert str(path) in str(caught.value)


def test_import_of_a_structurally_invalid_file_lists_each_fault_path(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    data = template_data(small_config())
    data["context_template"][1]["segments"][0]["type"] = "varible"
    data["context_template"][0]["colour"] = "red"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ContextConfigError) as caught:
        read_template_file(path)
    assert [p for p, _ in caught.value.faults] == [
        "context_template[0].colour",
        "context_template[1].segments[0].type",
    ]


def test_import_keeps_unknown_variables_for_the_caller_to_flag(tmp_path: Path) -> None:
    path = tmp_path / "other-app.json"
    data = template_data(small_config())
    data["context_template"][0]["segments"].append({"type": "variable", "value": "mood"})
    path.write_text(json.dumps(data), encoding="utf-8")

    config = read_template_file(path)

    assert config.context_template[0].segments[1].value == "mood"
    with pytest.raises(ContextConfigError, match=r"segments\[1\]\.value: unknown variable"):
        InputModule().validate_config(config)


def test_export_refuses_an_invalid_config(tmp_path: Path) -> None:
    with pytest.raises(ContextConfigError, match="context_template"):
        write_template_file(tmp_path / "x.json", {"context_template": []})
    assert not (tmp_path / "x.json").exists()
