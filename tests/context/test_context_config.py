"""Loading and validating context configs: defaults, fallbacks, faults named by JSON path."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from context_helpers import config, module

from desktop_agent._resources import resource_path
from desktop_agent.context import ContextConfig, ContextConfigError, InputModule

DEFAULT_NAMES = [
    "persona",
    "instructions",
    "current_datetime",
    "long_term_memory",
    "knowledge",
    "chat_history",
    "user_input",
]


def names(input_module: InputModule) -> list[str]:
    return [m.module_name for m in input_module.config.context_template]


def faults_of(exc_info: pytest.ExceptionInfo[ContextConfigError]) -> dict[str, str]:
    return dict(exc_info.value.faults)


# --------------------------------------------------------------------------- defaults


def test_default_config_ships_in_resources_and_validates() -> None:
    path = InputModule.default_config_path()
    assert path == resource_path("context", "default.json")
    assert path.is_file()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert InputModule().validate_config(data).model_dump(mode="json") == data


def test_without_a_path_the_default_loads_silently(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="desktop_agent"):
        input_module = InputModule()
    assert names(input_module) == DEFAULT_NAMES
    assert caplog.records == []


def test_default_template_roles_and_importance() -> None:
    template = {m.module_name: m for m in InputModule().config.context_template}
    assert template["user_input"].role == "user"
    assert template["long_term_memory"].importance_func == "is_relevant_func"
    assert template["knowledge"].importance_func == "has_content"
    assert all(m.role == "system" for n, m in template.items() if n != "user_input")
    assert InputModule().config.short_term_max_utterances == 200
    assert InputModule().config.short_term_max_tokens == 5000


def test_a_valid_file_is_loaded(write_json: Callable[..., Path]) -> None:
    path = write_json(config(module("only", ("text", "Hi"))))
    assert names(InputModule(path)) == ["only"]
    assert names(InputModule(str(path))) == ["only"]


# -------------------------------------------------------------------------- fallbacks


def _fallback(config_path: Any, caplog: pytest.LogCaptureFixture) -> str:
    with caplog.at_level(logging.WARNING, logger="desktop_agent"):
        input_module = InputModule(config_path)
    assert names(input_module) == DEFAULT_NAMES
    [record] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert record.name == "desktop_agent"
    return record.getMessage()


def test_missing_file_falls_back_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    message = _fallback(tmp_path / "nope.json", caplog)
    assert "nope.json" in message
    assert "file not found" in message
    assert str(InputModule.default_config_path()) in message


def test_unreadable_path_falls_back_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    message = _fallback(tmp_path, caplog)  # a folder cannot be read as a file
    assert "cannot be read" in message


def test_undecodable_file_falls_back_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"context_template": "caf\xe9"}')
    assert "UnicodeDecodeError" in _fallback(path, caplog)


def test_invalid_file_falls_back_with_a_warning_naming_the_fault(
    write_json: Callable[..., Path], caplog: pytest.LogCaptureFixture
) -> None:
    path = write_json(config(module("a", ("variable", "nonexistent"))))
    message = _fallback(path, caplog)
    assert "context_template[0].segments[0].value: unknown variable 'nonexistent'" in message


def test_malformed_json_file_falls_back_with_line_and_column(
    write_json: Callable[..., Path], caplog: pytest.LogCaptureFixture
) -> None:
    path = write_json('{\n  "context_template": [\n    {"module_name": "a",,}\n  ]\n}')
    message = _fallback(path, caplog)
    assert "line 3, column 25" in message


# ------------------------------------------------------------------- validation faults


def _load_error(data: Any) -> pytest.ExceptionInfo[ContextConfigError]:
    with pytest.raises(ContextConfigError) as exc_info:
        InputModule().load_config(data)
    return exc_info


def test_wrong_segment_type_names_its_path() -> None:
    data = config(
        module("a", ("text", "x")),
        module("b", ("text", "y")),
        module("c", ("string", "z")),
    )
    exc_info = _load_error(data)
    assert faults_of(exc_info) == {
        "context_template[2].segments[0].type": "Input should be 'text' or 'variable'"
    }
    assert "context_template[2].segments[0].type: Input should be 'text' or 'variable'" in str(
        exc_info.value
    )


def test_each_fault_is_listed_with_its_path() -> None:
    data = {
        "context_template": [
            {"module_name": "a", "segments": [{"type": "text", "value": 3}], "color": "red"},
            {"module_name": "a", "segments": [], "importance_func": 1, "role": "tool"},
            {"segments": [{"type": "text"}]},
        ],
        "short_term_max_tokens": "5000",
        "extra": True,
    }
    faults = faults_of(_load_error(data))
    assert faults == {
        "context_template[0].segments[0].value": "Input should be a valid string",
        "context_template[0].color": "Extra inputs are not permitted",
        "context_template[1].segments": "List should have at least 1 item after validation, not 0",
        "context_template[1].importance_func": (
            "Input should be true, false or the name of an importance function"
        ),
        "context_template[1].role": "Input should be 'system', 'user' or 'assistant'",
        "context_template[1].module_name": (
            "duplicate module_name 'a' (already used by context_template[0])"
        ),
        "context_template[2].module_name": "Field required",
        "context_template[2].segments[0].value": "Field required",
        "short_term_max_tokens": "Input should be a valid integer",
        "extra": "Extra inputs are not permitted",
    }


def test_faults_are_in_module_order() -> None:
    data = config(
        module("a", ("variable", "nope")),
        module("a", ("string", "x")),
    )
    paths = [path for path, _ in _load_error(data).value.faults]
    assert paths == [
        "context_template[0].segments[0].value",
        "context_template[1].segments[0].type",
        "context_template[1].module_name",
    ]


def test_unknown_variable_lists_the_known_names() -> None:
    message = faults_of(_load_error(config(module("a", ("variable", "weather")))))[
        "context_template[0].segments[0].value"
    ]
    known = ", ".join(sorted(InputModule().known_variables()))
    assert message == f"unknown variable 'weather'; known variables: {known}"
    assert "current_user_input" in known and "chat_history" in known


def test_unknown_importance_function_lists_the_known_names() -> None:
    data = config(module("a", ("text", "x"), importance="is_urgent"))
    message = faults_of(_load_error(data))["context_template[0].importance_func"]
    assert message == (
        "unknown importance function 'is_urgent'; known importance functions: "
        "has_content, is_relevant_func"
    )


def test_registered_names_are_accepted() -> None:
    input_module = InputModule()
    input_module.register_variable("weather", lambda: "sunny")
    input_module.register_importance_func("is_urgent", lambda: True)
    input_module.load_config(config(module("a", ("variable", "weather"), importance="is_urgent")))
    assert names(input_module) == ["a"]


def test_constructor_registrations_let_a_file_use_custom_names(
    write_json: Callable[..., Path],
) -> None:
    path = write_json(config(module("a", ("variable", "weather"), importance="is_urgent")))
    input_module = InputModule(
        path, variables={"weather": lambda: "sunny"}, importance_funcs={"is_urgent": bool}
    )
    assert names(input_module) == ["a"]


def test_empty_template_and_non_object_root_are_faults() -> None:
    assert faults_of(_load_error(config())) == {
        "context_template": "List should have at least 1 item after validation, not 0"
    }
    assert faults_of(_load_error({})) == {"context_template": "Field required"}
    assert list(faults_of(_load_error("[1, 2]"))) == ["(root)"]


def test_malformed_json_text_gives_line_and_column() -> None:
    exc_info = _load_error('{"context_template": [}')
    assert exc_info.value.faults == (
        ("(json)", "invalid JSON at line 1, column 23: Expecting value"),
    )


def test_an_invalid_config_leaves_the_current_one_in_place() -> None:
    input_module = InputModule()
    before = input_module.config
    _load_error(config(module("a", ("text", "x"), importance=False), module("a", ("text", "y"))))
    assert input_module.config is before


# ------------------------------------------------------------------- load_config forms


def test_load_config_accepts_dict_json_text_path_and_model(
    write_json: Callable[..., Path],
) -> None:
    input_module = InputModule()
    data = config(module("from_dict", ("text", "x")))
    input_module.load_config(data)
    assert names(input_module) == ["from_dict"]
    input_module.load_config(json.dumps(config(module("from_text", ("text", "x")))))
    assert names(input_module) == ["from_text"]
    path = write_json(config(module("from_file", ("text", "x"))))
    input_module.load_config(path)
    assert names(input_module) == ["from_file"]
    input_module.load_config(str(path))
    assert names(input_module) == ["from_file"]
    input_module.load_config(ContextConfig.model_validate(data))
    assert names(input_module) == ["from_dict"]


def test_a_str_that_is_neither_a_file_nor_json_is_a_missing_file(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    exc_info = _load_error(missing)
    assert exc_info.value.faults == (("(file)", "file not found"),)
    assert str(exc_info.value) == f"Cannot read the context config {missing}: file not found"


def test_load_config_rejects_other_types() -> None:
    with pytest.raises(TypeError, match="dict, JSON text or a path"):
        InputModule().load_config(42)  # type: ignore[arg-type]


def test_validate_config_does_not_apply() -> None:
    input_module = InputModule()
    validated = input_module.validate_config(config(module("x", ("text", "y"))))
    assert [m.module_name for m in validated.context_template] == ["x"]
    assert names(input_module) == DEFAULT_NAMES


def test_new_bounds_apply_to_the_short_term_memory() -> None:
    input_module = InputModule()
    for index in range(10):
        input_module.add_to_short_term(f"utterance {index}")
    input_module.load_config(config(module("a", ("text", "x")), short_term_max_utterances=3))
    assert [m.content for m in input_module.short_term_memory] == [
        "utterance 7",
        "utterance 8",
        "utterance 9",
    ]
    assert input_module.short_term_memory.maxlen == 3


# ------------------------------------------------------------------------ JSON Schema


def test_config_json_schema_validates_the_default_and_rejects_faults() -> None:
    schema = InputModule.config_json_schema()
    default = json.loads(InputModule.default_config_path().read_text(encoding="utf-8"))
    bad = config(module("a", ("string", "x")))
    try:
        import jsonschema
    except ImportError:  # pragma: no cover - jsonschema is optional
        jsonschema = None
    if jsonschema is not None:
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        assert list(validator.iter_errors(default)) == []
        [error] = list(validator.iter_errors(bad))
        assert list(error.absolute_path) == ["context_template", 0, "segments", 0, "type"]
        assert list(validator.iter_errors({**default, "extra": 1})) != []
    module_schema = schema["$defs"]["ContextModule"]
    assert schema["required"] == ["context_template"]
    assert schema["additionalProperties"] is False
    assert module_schema["required"] == ["module_name", "segments"]
    assert module_schema["additionalProperties"] is False
    assert module_schema["properties"]["segments"]["minItems"] == 1
    assert schema["$defs"]["Segment"]["properties"]["type"]["enum"] == ["text", "variable"]
    assert module_schema["properties"]["role"]["default"] == "system"


# ------------------------------------------------------------------------- resources


def test_resource_path_finds_the_checkout_resources() -> None:
    root = Path(__file__).resolve().parents[2]
    assert (
        resource_path("context", "default.json") == root / "resources" / "context" / "default.json"
    )


def test_resource_path_prefers_the_packaged_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import desktop_agent._resources as resources

    packaged = tmp_path / "desktop_agent"
    (packaged / "resources" / "context").mkdir(parents=True)
    (packaged / "resources" / "context" / "default.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(resources, "files", lambda package: packaged)
    assert resource_path("context", "default.json") == (
        packaged / "resources" / "context" / "default.json"
    )
    # A file the packaged copy lacks is looked up in the checkout.
    checkout = Path(__file__).resolve().parents[2] / "resources"
    assert resource_path("context", "other.json") == checkout / "context" / "other.json"
    assert resources.resources_root() == packaged / "resources"
