"""JSON schemas built from signatures and Google docstrings, as AgentScope builds them."""

from __future__ import annotations

import functools
from typing import Any, Optional, Union

import pytest
from pydantic import BaseModel

from desktop_agent.tool import Toolkit, ToolResponse


def sync_func(arg1: int, arg2: Optional[list[Union[str, int]]] = None) -> ToolResponse:  # noqa: UP045, UP007
    """A sync function for testing.

    Long description.

    Args:
        arg1 (int): Test argument 1.
        arg2 (Optional[list[Union[str, int]]]): Test argument 2.
    """
    return ToolResponse(content=[])


def no_params() -> ToolResponse:
    return ToolResponse(content=[])


def schema_of(func: Any, **kwargs: Any) -> dict[str, Any]:
    toolkit = Toolkit()
    toolkit.register_tool_function(func, **kwargs)
    (schema,) = toolkit.get_json_schemas()
    return schema


def test_reference_example_exactly() -> None:
    assert schema_of(sync_func) == {
        "type": "function",
        "function": {
            "name": "sync_func",
            "parameters": {
                "type": "object",
                "properties": {
                    "arg1": {"description": "Test argument 1.", "type": "integer"},
                    "arg2": {
                        "anyOf": [
                            {
                                "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                                "type": "array",
                            },
                            {"type": "null"},
                        ],
                        "default": None,
                        "description": "Test argument 2.",
                    },
                },
                "required": ["arg1"],
            },
            "description": "A sync function for testing.\nLong description.",
        },
    }


def test_long_description_can_be_left_out() -> None:
    schema = schema_of(sync_func, include_long_description=False)
    assert schema["function"]["description"] == "A sync function for testing."


def test_function_without_parameters_or_docstring() -> None:
    assert schema_of(no_params) == {
        "type": "function",
        "function": {"name": "no_params", "parameters": {"properties": {}, "type": "object"}},
    }


def varargs(a: str, *args: int, **kwargs: str) -> ToolResponse:
    """Var args.

    Args:
        a: First.
        args: Extra numbers.
        kwargs: Extra options.
    """
    return ToolResponse(content=[])


def test_var_positional_and_keyword_excluded_by_default() -> None:
    properties = schema_of(varargs)["function"]["parameters"]["properties"]
    assert list(properties) == ["a"]


def test_var_positional_and_keyword_included_on_request() -> None:
    properties = schema_of(varargs, include_var_positional=True, include_var_keyword=True)[
        "function"
    ]["parameters"]["properties"]
    assert properties["args"] == {
        "default": [],
        "description": "Extra numbers.",
        "items": {"type": "integer"},
        "type": "array",
    }
    assert properties["kwargs"] == {
        "additionalProperties": {"type": "string"},
        "default": {},
        "description": "Extra options.",
        "type": "object",
    }


class Address(BaseModel):
    """A postal address."""

    street: str
    city: str


def with_model(title: str, address: Address, note=None) -> ToolResponse:
    """Send a letter.

    Args:
        title: The letter's title.
        address: Where to.
        note: Anything.
    """
    return ToolResponse(content=[])


def test_titles_removed_everywhere_but_a_property_named_title_kept() -> None:
    parameters = schema_of(with_model)["function"]["parameters"]
    assert parameters["properties"]["title"] == {
        "description": "The letter's title.",
        "type": "string",
    }
    assert parameters["properties"]["address"] == {
        "$ref": "#/$defs/Address",
        "description": "Where to.",
    }
    assert parameters["$defs"]["Address"] == {
        "description": "A postal address.",
        "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        "required": ["street", "city"],
        "type": "object",
    }
    assert parameters["properties"]["note"] == {"default": None, "description": "Anything."}
    assert "title" not in parameters


class Calculator:
    def add(self, a: int, b: int = 1) -> ToolResponse:
        """Add two numbers.

        Args:
            a: The first.
            b: The second.
        """
        return ToolResponse(content=[])


def test_bound_method_has_no_self() -> None:
    schema = schema_of(Calculator().add)
    assert schema["function"]["name"] == "add"
    assert list(schema["function"]["parameters"]["properties"]) == ["a", "b"]
    assert schema["function"]["parameters"]["required"] == ["a"]


def test_name_and_description_overrides() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(sync_func, func_name="renamed", func_description="Other.")
    tool = toolkit.tools["renamed"]
    assert tool.original_name == "sync_func"
    assert tool.json_schema["function"]["name"] == "renamed"
    assert tool.json_schema["function"]["description"] == "Other."
    toolkit.register_tool_function(no_params)
    assert toolkit.tools["no_params"].original_name is None


def test_preset_kwargs_hidden_from_schema() -> None:
    schema = schema_of(sync_func, preset_kwargs={"arg1": 3})
    parameters = schema["function"]["parameters"]
    assert list(parameters["properties"]) == ["arg2"]
    assert "required" not in parameters


def test_partial_presets_positional_and_keyword_arguments() -> None:
    def send(to: str, subject: str, body: str = "") -> ToolResponse:
        """Send."""
        return ToolResponse(content=[])

    toolkit = Toolkit()
    toolkit.register_tool_function(
        functools.partial(send, "bob@example.com", body="hi"), preset_kwargs={"body": "hello"}
    )
    tool = toolkit.tools["send"]
    assert tool.original_func is send
    assert tool.preset_kwargs == {"to": "bob@example.com", "body": "hello"}
    assert tool.json_schema["function"]["parameters"] == {
        "properties": {"subject": {"type": "string"}},
        "required": ["subject"],
        "type": "object",
    }


def test_given_json_schema_is_used_with_the_final_name() -> None:
    given = {
        "type": "function",
        "function": {
            "name": "whatever",
            "description": "Given.",
            "parameters": {
                "type": "object",
                "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
                "required": ["x", "y"],
            },
        },
    }
    schema = schema_of(sync_func, json_schema=given, preset_kwargs={"y": 1})
    assert schema["function"]["name"] == "sync_func"
    assert schema["function"]["description"] == "Given."
    assert schema["function"]["parameters"]["required"] == ["x"]
    assert given["function"]["name"] == "whatever"  # the caller's dict is not changed


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "object", "function": {}},
        {"type": "function"},
        {"type": "function", "function": "x"},
        ["not", "a", "dict"],
    ],
)
def test_invalid_json_schema_fails_an_assertion(bad: Any) -> None:
    with pytest.raises(AssertionError, match=r"^Invalid JSON schema for the tool function\.$"):
        Toolkit().register_tool_function(sync_func, json_schema=bad)
