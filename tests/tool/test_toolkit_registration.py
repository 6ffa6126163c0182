"""Registering tools: groups, name clashes, the meta tool, extended models, state, skills."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from pydantic import BaseModel, Field
from tool_helpers import run_tool, text

from desktop_agent.tool import ToolGroup, Toolkit, ToolResponse

# reference/agentscope-1.0-texts.md: the meta tool's description, exactly.
META_TOOL_DESCRIPTION = (
    "This function allows you to activate or deactivate tool groups dynamically based on "
    "your current task requirements.\n**Important: Each call sets the absolute final state "
    "of ALL tool groups, not incremental changes**. Any group not explicitly set to True will "
    "be deactivated, regardless of its previous state.\n\n**Best practice**: Actively manage "
    "your tool groups——activate only what you need for the current task, and promptly "
    "deactivate groups as soon as they are no longer needed to conserve context space.\n\n"
    "The function will return the usage instructions for the activated tool groups, which "
    "you **MUST pay attention to and follow**. You can also reuse this function to check the "
    "notes of the tool groups."
)


def first() -> ToolResponse:
    """The first."""
    return ToolResponse(content=[])


def second() -> ToolResponse:
    """The second."""
    return ToolResponse(content=[])


def other() -> ToolResponse:
    """Another tool."""
    return ToolResponse(content=[])


def names(toolkit: Toolkit) -> list[str]:
    return [schema["function"]["name"] for schema in toolkit.get_json_schemas()]


# -- name clashes ------------------------------------------------------------------------


def test_unknown_group_is_refused() -> None:
    with pytest.raises(ValueError, match=r"^Tool group 'web' not found\.$"):
        Toolkit().register_tool_function(first, group_name="web")


def test_namesake_raise_is_the_default() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(first)
    with pytest.raises(
        ValueError,
        match=r"^A function with name 'first' is already registered in the toolkit\.$",
    ):
        toolkit.register_tool_function(second, func_name="first")


def test_namesake_skip_keeps_the_old_tool(caplog: pytest.LogCaptureFixture) -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(first)
    with caplog.at_level(logging.WARNING, logger="desktop_agent"):
        toolkit.register_tool_function(second, func_name="first", namesake_strategy="skip")
    assert toolkit.tools["first"].original_func is first
    assert caplog.records


def test_namesake_override_replaces_in_place(caplog: pytest.LogCaptureFixture) -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(first)
    toolkit.register_tool_function(other)
    with caplog.at_level(logging.WARNING, logger="desktop_agent"):
        toolkit.register_tool_function(second, func_name="first", namesake_strategy="override")
    assert list(toolkit.tools) == ["first", "other"]
    assert toolkit.tools["first"].original_func is second
    assert toolkit.tools["first"].original_name == "second"
    assert caplog.records


def test_namesake_rename_adds_a_suffix() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(first)
    toolkit.register_tool_function(second, func_name="first", namesake_strategy="rename")
    toolkit.register_tool_function(first, namesake_strategy="rename")
    renamed = [name for name in toolkit.tools if name != "first"]
    assert len(renamed) == 2
    for name in renamed:
        assert name.startswith("first_") and len(name) == len("first_") + 5
        tool = toolkit.tools[name]
        assert tool.json_schema["function"]["name"] == name
    assert toolkit.tools[renamed[0]].original_name == "second"
    assert toolkit.tools[renamed[1]].original_name == "first"


def test_unknown_namesake_strategy() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(first)
    with pytest.raises(ValueError, match="namesake_strategy"):
        toolkit.register_tool_function(first, namesake_strategy="merge")  # type: ignore[arg-type]


def test_remove_tool_function() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(first)
    toolkit.remove_tool_function("first")
    toolkit.remove_tool_function("first")
    assert toolkit.tools == {}
    with pytest.raises(ValueError, match="'first'"):
        toolkit.remove_tool_function("first", allow_not_exist=False)


# -- groups ------------------------------------------------------------------------------


def test_groups_filter_the_schemas() -> None:
    toolkit = Toolkit()
    toolkit.create_tool_group("web", "Browse the web.")
    toolkit.create_tool_group("mail", "Send mail.", active=True, notes="Be polite.")
    toolkit.register_tool_function(first)
    toolkit.register_tool_function(second, group_name="web")
    toolkit.register_tool_function(other, group_name="mail")
    assert toolkit.groups["web"] == ToolGroup(
        name="web", active=False, description="Browse the web."
    )
    assert names(toolkit) == ["first", "other"]
    toolkit.update_tool_groups(["web", "unknown"], True)
    assert names(toolkit) == ["first", "second", "other"]
    toolkit.update_tool_groups(["mail"], False)
    assert names(toolkit) == ["first", "second"]


def test_create_tool_group_errors() -> None:
    toolkit = Toolkit()
    toolkit.create_tool_group("web", "Browse.")
    with pytest.raises(ValueError, match="'web'"):
        toolkit.create_tool_group("web", "Again.")
    with pytest.raises(ValueError, match="'basic'"):
        toolkit.create_tool_group("basic", "Reserved.")


def test_basic_group_cannot_be_switched(caplog: pytest.LogCaptureFixture) -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(first)
    with caplog.at_level(logging.WARNING, logger="desktop_agent"):
        toolkit.update_tool_groups(["basic"], False)
    assert names(toolkit) == ["first"]
    assert "basic" in caplog.text


def test_remove_tool_groups_removes_their_tools() -> None:
    toolkit = Toolkit()
    toolkit.create_tool_group("web", "Browse.")
    toolkit.create_tool_group("mail", "Mail.")
    toolkit.register_tool_function(first)
    toolkit.register_tool_function(second, group_name="web")
    toolkit.register_tool_function(other, group_name="mail")
    toolkit.remove_tool_groups("web")
    assert list(toolkit.groups) == ["mail"]
    assert list(toolkit.tools) == ["first", "other"]
    toolkit.remove_tool_groups(["mail"])
    assert list(toolkit.tools) == ["first"]


def test_remove_tool_groups_errors() -> None:
    toolkit = Toolkit()
    with pytest.raises(TypeError):
        toolkit.remove_tool_groups(["web", 3])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="basic"):
        toolkit.remove_tool_groups(["basic"])


def test_clear() -> None:
    toolkit = Toolkit()
    toolkit.create_tool_group("web", "Browse.")
    toolkit.register_tool_function(first)
    toolkit.clear()
    assert toolkit.tools == {} and toolkit.groups == {}


# -- the meta tool -----------------------------------------------------------------------


def meta_toolkit() -> Toolkit:
    toolkit = Toolkit()
    toolkit.register_tool_function(toolkit.reset_equipped_tools)
    toolkit.create_tool_group("web", "Browse the web.", notes="Cite your sources.")
    toolkit.create_tool_group("mail", "Send mail.")
    toolkit.create_tool_group("files", "Manage files.", notes="Never delete.")
    toolkit.register_tool_function(second, group_name="web")
    return toolkit


def test_meta_tool_schema_lists_every_group() -> None:
    toolkit = meta_toolkit()
    (schema,) = toolkit.get_json_schemas()
    assert schema["function"]["name"] == "reset_equipped_tools"
    assert schema["function"]["description"] == META_TOOL_DESCRIPTION
    assert schema["function"]["parameters"] == {
        "type": "object",
        "properties": {
            "web": {"type": "boolean", "description": "Browse the web.", "default": False},
            "mail": {"type": "boolean", "description": "Send mail.", "default": False},
            "files": {"type": "boolean", "description": "Manage files.", "default": False},
        },
    }
    toolkit.create_tool_group("maps", "Maps.")
    assert "maps" in toolkit.get_json_schemas()[0]["function"]["parameters"]["properties"]


async def test_meta_tool_activates_groups_and_shows_notes() -> None:
    toolkit = meta_toolkit()
    toolkit.update_tool_groups(["mail"], True)
    (chunk,) = await run_tool(toolkit, "reset_equipped_tools", web=True, files=True, mail=False)
    assert text(chunk) == (
        "Now tool groups 'web', 'files' are activated. You MUST follow these notes to use "
        "these tools:\n<notes>## About Tool Group 'web'\nCite your sources.\n"
        "## About Tool Group 'files'\nNever delete.</notes>"
    )
    assert [name for name, group in toolkit.groups.items() if group.active] == ["web", "files"]
    assert names(toolkit) == ["reset_equipped_tools", "second"]


async def test_meta_tool_without_notes() -> None:
    toolkit = meta_toolkit()
    (chunk,) = await run_tool(toolkit, "reset_equipped_tools", mail=True)
    assert text(chunk) == "Now tool groups 'mail' are activated."


async def test_meta_tool_deactivates_everything() -> None:
    toolkit = meta_toolkit()
    toolkit.update_tool_groups(["web", "mail"], True)
    (chunk,) = await run_tool(toolkit, "reset_equipped_tools")
    assert text(chunk) == "All tool groups are now deactivated currently."
    assert not any(group.active for group in toolkit.groups.values())


async def test_meta_tool_rejects_non_bool() -> None:
    toolkit = meta_toolkit()
    (chunk,) = await run_tool(toolkit, "reset_equipped_tools", web="yes")
    assert text(chunk) == (
        "Invalid arguments: the argument web should be a bool value, but got <class 'str'>."
    )


# -- extended models ---------------------------------------------------------------------


class Summary(BaseModel):
    """Ignored description."""

    title: str = Field(description="A title.")
    score: int = 0


def respond(answer: str) -> ToolResponse:
    """Respond.

    Args:
        answer: The answer.
    """
    return ToolResponse(content=[])


def test_extended_model_is_merged() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(respond)
    toolkit.set_extended_model("respond", Summary)
    (schema,) = toolkit.get_json_schemas()
    assert schema["function"] == {
        "name": "respond",
        "description": "Respond.",
        "parameters": {
            "type": "object",
            "properties": {
                "answer": {"description": "The answer.", "type": "string"},
                "title": {"description": "A title.", "type": "string"},
                "score": {"default": 0, "type": "integer"},
            },
            "required": ["answer", "title"],
        },
    }
    assert (
        "title" not in toolkit.tools["respond"].json_schema["function"]["parameters"]["properties"]
    )
    toolkit.set_extended_model("respond", None)
    assert toolkit.get_json_schemas()[0] == toolkit.tools["respond"].json_schema


def test_extended_model_creates_required() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(respond, preset_kwargs={"answer": "x"})
    toolkit.set_extended_model("respond", Summary)
    assert toolkit.get_json_schemas()[0]["function"]["parameters"]["required"] == ["title"]


def test_extended_model_errors() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(respond)
    with pytest.raises(TypeError):
        toolkit.set_extended_model("respond", dict)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^Tool function 'nope' not found in the toolkit\.$"):
        toolkit.set_extended_model("nope", Summary)


def test_extended_model_field_clash() -> None:
    class Clash(BaseModel):
        answer: str

    toolkit = Toolkit()
    toolkit.register_tool_function(respond)
    toolkit.set_extended_model("respond", Clash)
    with pytest.raises(ValueError) as info:
        toolkit.get_json_schemas()
    assert str(info.value) == (
        "The field `answer` already exists in the original function schema of `respond`. "
        "Try to use a different name."
    )


class Point(BaseModel):
    x: int


class OtherPoint(BaseModel):
    y: int


def test_extended_model_defs_are_merged_and_deduplicated() -> None:
    def draw(start: Point) -> ToolResponse:
        """Draw."""
        return ToolResponse(content=[])

    class Same(BaseModel):
        end: Point

    toolkit = Toolkit()
    toolkit.register_tool_function(draw)
    toolkit.set_extended_model("draw", Same)
    parameters = toolkit.get_json_schemas()[0]["function"]["parameters"]
    assert parameters["$defs"] == {
        "Point": {"properties": {"x": {"type": "integer"}}, "required": ["x"], "type": "object"}
    }
    assert parameters["properties"]["end"] == {"$ref": "#/$defs/Point"}
    assert parameters["required"] == ["start", "end"]


def test_extended_model_defs_clash() -> None:
    def draw(start: Point) -> ToolResponse:
        """Draw."""
        return ToolResponse(content=[])

    Different = type("Point", (BaseModel,), {"__annotations__": {"z": str}})

    class Holder(BaseModel):
        end: Different  # type: ignore[valid-type]

    toolkit = Toolkit()
    toolkit.register_tool_function(draw)
    toolkit.set_extended_model("draw", Holder)
    with pytest.raises(ValueError, match="Point"):
        toolkit.get_json_schemas()


# -- state -------------------------------------------------------------------------------


def test_state_dict_lists_active_groups() -> None:
    toolkit = meta_toolkit()
    toolkit.update_tool_groups(["files", "web"], True)
    assert toolkit.state_dict() == {"active_groups": ["web", "files"]}


def test_load_state_dict_activates_exactly_the_listed_groups() -> None:
    toolkit = meta_toolkit()
    toolkit.update_tool_groups(["web"], True)
    toolkit.load_state_dict({"active_groups": ["mail", "gone"]})
    assert [n for n, g in toolkit.groups.items() if g.active] == ["mail"]


@pytest.mark.parametrize(
    "state",
    [
        ["mail"],
        {},
        {"active_groups": "mail"},
        {"active_groups": [], "extra": 1},
    ],
)
def test_load_state_dict_errors(state: object) -> None:
    with pytest.raises(ValueError):
        meta_toolkit().load_state_dict(state)  # type: ignore[arg-type]


def test_load_state_dict_not_strict_ignores_extra_keys() -> None:
    toolkit = meta_toolkit()
    toolkit.load_state_dict({"active_groups": ["web"], "extra": 1}, strict=False)
    assert toolkit.groups["web"].active


# -- agent skills ------------------------------------------------------------------------


def make_skill(root: Path, name: str, front_matter: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "SKILL.md").write_text(front_matter + "\n# Body\nDetails.\n", encoding="utf-8")
    return folder


def test_agent_skills(tmp_path: Path) -> None:
    toolkit = Toolkit()
    assert toolkit.get_agent_skill_prompt() is None
    folder = make_skill(
        tmp_path, "pdf", "---\nname: pdf\ndescription: 'Fill PDF forms: any form.'\n---"
    )
    toolkit.register_agent_skill(str(folder))
    assert toolkit.skills["pdf"] == {
        "name": "pdf",
        "description": "Fill PDF forms: any form.",
        "dir": str(folder),
    }
    prompt = toolkit.get_agent_skill_prompt()
    assert prompt is not None
    assert prompt.startswith("# Agent Skills\n")
    assert prompt.endswith(
        f'## pdf\nFill PDF forms: any form.\nCheck "{folder}/SKILL.md" for how to use this skill.'
    )
    with pytest.raises(ValueError, match="'pdf'"):
        toolkit.register_agent_skill(str(folder))
    toolkit.remove_agent_skill("pdf")
    assert toolkit.get_agent_skill_prompt() is None


def test_agent_skill_custom_prompt(tmp_path: Path) -> None:
    toolkit = Toolkit(
        agent_skill_instruction="Skills:\n", agent_skill_template="- {name}: {description}"
    )
    toolkit.register_agent_skill(
        str(make_skill(tmp_path, "a", "---\nname: a\ndescription: A.\n---"))
    )
    toolkit.register_agent_skill(
        str(make_skill(tmp_path, "b", "---\nname: b\ndescription: B.\n---"))
    )
    assert toolkit.get_agent_skill_prompt() == "Skills:\n- a: A.\n- b: B."


def test_agent_skill_errors(tmp_path: Path) -> None:
    toolkit = Toolkit()
    with pytest.raises(ValueError, match="does not exist"):
        toolkit.register_agent_skill(str(tmp_path / "missing"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match=r"SKILL\.md"):
        toolkit.register_agent_skill(str(tmp_path / "empty"))
    folder = make_skill(tmp_path, "nodesc", "---\nname: nodesc\n---")
    with pytest.raises(ValueError, match="description"):
        toolkit.register_agent_skill(str(folder))
    folder = make_skill(tmp_path, "nofront", "# Just a title")
    with pytest.raises(ValueError, match="name"):
        toolkit.register_agent_skill(str(folder))


async def test_meta_tool_with_group_names_that_are_not_identifiers() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(toolkit.reset_equipped_tools)
    toolkit.create_tool_group("_private", "Private.")
    toolkit.create_tool_group("web-search", "Search.")
    properties = toolkit.get_json_schemas()[0]["function"]["parameters"]["properties"]
    assert list(properties) == ["_private", "web-search"]
    (chunk,) = await run_tool(toolkit, "reset_equipped_tools", **{"web-search": True})
    assert text(chunk) == "Now tool groups 'web-search' are activated."


def test_callable_object_is_named_after_its_class() -> None:
    class Lookup:
        def __call__(self, word: str) -> ToolResponse:
            """Look a word up.

            Args:
                word: The word.
            """
            return ToolResponse(content=[])

    toolkit = Toolkit()
    toolkit.register_tool_function(Lookup())
    schema = toolkit.tools["Lookup"].json_schema["function"]
    assert schema["name"] == "Lookup"
    assert list(schema["parameters"]["properties"]) == ["word"]
