"""The Qt-free core of the editor: the draft document, its edits and fault locations."""

from __future__ import annotations

import json

import pytest

from desktop_agent.context import ContextConfigError, InputModule
from desktop_agent.ui.template_editor import TemplateDocument
from desktop_agent.ui.template_editor import _edits as edits
from desktop_agent.ui.template_editor._document import Change
from desktop_agent.ui.template_editor._faults import (
    error_faults,
    json_positions,
    parse_fault,
    with_lines,
)


@pytest.fixture
def document() -> TemplateDocument:
    return TemplateDocument.from_config(InputModule().config)


def test_document_data_is_the_config_dump(document: TemplateDocument) -> None:
    config = InputModule().config
    assert document.to_data() == config.model_dump(mode="json", exclude_none=True)


def each_edit(document: TemplateDocument) -> list[edits.Edit]:
    return [
        edits.rename_module(0, "who"),
        edits.set_description(1, ""),
        edits.set_role(2, "user"),
        edits.set_importance(3, False),
        edits.set_importance(0, "has_content"),
        edits.add_module(document, 2),
        edits.duplicate_module(document, 4),
        edits.delete_module(5),
        edits.move_module(0, 6),
        edits.add_segment(document, 0, "variable", "knowledge"),
        edits.remove_segment(document, 0, 1),
        edits.move_segment(document, 0, 0, 2),
        edits.set_segment_text(0, 0, "Hello "),
        edits.set_segment_variable(0, 1, "knowledge"),
        edits.replace_template({"context_template": [], "short_term_max_tokens": 9}, "Clear"),
    ]


@pytest.mark.parametrize("position", range(15))
def test_every_edit_is_undone_by_its_inverse(document: TemplateDocument, position: int) -> None:
    edit = each_edit(document)[position]
    before = json.dumps(document.to_data())
    inverse = edit.apply(document)
    after = json.dumps(document.to_data())
    assert after != before
    redo = inverse.apply(document)
    assert json.dumps(document.to_data()) == before
    redo.apply(document)
    assert json.dumps(document.to_data()) == after


def test_listeners_hear_before_and_after_each_change(document: TemplateDocument) -> None:
    heard: list[tuple[str, Change, int]] = []
    unsubscribe = document.subscribe(
        lambda c: heard.append(("after", c, len(document.modules))),
        lambda c: heard.append(("before", c, len(document.modules))),
    )
    edits.delete_module(1).apply(document)
    edits.move_module(0, 2).apply(document)
    assert heard == [
        ("before", Change("module_removed", 1), 7),
        ("after", Change("module_removed", 1), 6),
        ("before", Change("module_moved", 0, to=2), 6),
        ("after", Change("module_moved", 0, to=2), 6),
    ]
    unsubscribe()
    edits.delete_module(0).apply(document)
    assert len(heard) == 4


def test_new_and_duplicated_modules_get_fresh_names(document: TemplateDocument) -> None:
    edits.add_module(document, 0).apply(document)
    edits.add_module(document, 0).apply(document)
    edits.duplicate_module(document, 2).apply(document)
    edits.duplicate_module(document, 2).apply(document)
    assert document.module_names()[:5] == [
        "new_module_2",
        "new_module",
        "persona",
        "persona_copy_2",
        "persona_copy",
    ]
    assert document.modules[3].segments == document.modules[2].segments
    assert document.modules[3].segments is not document.modules[2].segments


def test_an_empty_note_leaves_the_json(document: TemplateDocument) -> None:
    edits.set_description(0, "").apply(document)
    assert "description" not in document.to_data()["context_template"][0]


@pytest.mark.parametrize(
    ("path", "module", "field", "segment"),
    [
        ("context_template[2].segments[0].type", 2, "segments", 0),
        ("context_template[10].module_name", 10, "module_name", None),
        ("context_template[1].segments", 1, "segments", None),
        ("context_template[3]", 3, None, None),
        ("short_term_max_tokens", None, "short_term_max_tokens", None),
        ("(json)", None, None, None),
    ],
)
def test_fault_paths_point_at_module_segment_and_field(
    path: str, module: int | None, field: str | None, segment: int | None
) -> None:
    fault = parse_fault(path, "message")
    assert (fault.module, fault.field, fault.segment) == (module, field, segment)


def test_fault_lines_are_found_in_the_users_own_formatting() -> None:
    text = (
        '{"context_template": [\n'
        '  {"module_name": "a", "segments": [{"type": "text", "value": "x"}]},\n'
        "  {\n"
        '    "module_name": "a",\n'
        '    "segments": [\n'
        '      {"type": "variable",\n'
        '       "value": "nope"}\n'
        "    ]\n"
        "  }\n"
        "]}"
    )
    try:
        InputModule().validate_config(text)
    except ContextConfigError as exc:
        faults = with_lines(error_faults(exc), text)
    assert [(f.path, f.line) for f in faults] == [
        ("context_template[1].module_name", 4),
        ("context_template[1].segments[0].value", 7),
    ]


def test_a_missing_field_is_marked_at_its_object() -> None:
    text = '{\n  "context_template": [\n    {\n      "segments": []\n    }\n  ]\n}'
    fault = with_lines([parse_fault("context_template[0].module_name", "Field required")], text)
    assert fault[0].line == 3


def test_json_positions_cover_keys_items_and_escapes() -> None:
    text = '{"a": [1, {"b\\"c": true}], "d": "e"}'
    positions = json_positions(text)
    assert positions[""] == 0
    assert text[positions["a"]] == '"'
    assert text[positions["a[0]"]] == "1"
    assert text.startswith('"b\\"c"', positions['a[1].b"c'])
    assert text.startswith('"d"', positions["d"])
