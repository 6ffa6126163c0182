"""JSON schemas of tool functions, built from their signature and Google docstring.

The parameters go through a pydantic model so every annotation pydantic understands
(unions, optionals, nested models, ``Literal``…) becomes valid JSON Schema; the ``title``
keys pydantic adds are noise for a model and are removed from every schema node (but never
a *property* that happens to be called ``title``).
"""

from __future__ import annotations

import copy
import inspect
import warnings
from collections.abc import Callable
from typing import Any

import docstring_parser
from pydantic import BaseModel, Field, create_model

_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties")
_SCHEMA_NODES = ("items", "additionalProperties", "not", "contains")


def remove_titles(schema: dict[str, Any]) -> dict[str, Any]:
    """Remove the ``title`` key from ``schema`` and from every nested schema, in place.

    Returns:
        The same ``schema``, for chaining.
    """
    schema.pop("title", None)
    for key in _SCHEMA_MAPS:
        for sub in (schema.get(key) or {}).values():
            if isinstance(sub, dict):
                remove_titles(sub)
    for key in _SCHEMA_LISTS:
        for sub in schema.get(key) or []:
            if isinstance(sub, dict):
                remove_titles(sub)
    for key in _SCHEMA_NODES:
        sub = schema.get(key)
        if isinstance(sub, dict):
            remove_titles(sub)
    return schema


def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of ``model`` without titles."""
    return remove_titles(model.model_json_schema())


def callable_name(func: Callable[..., Any]) -> str:
    """The function's ``__name__`` (a callable object's class name when it has none)."""
    return getattr(func, "__name__", None) or type(func).__name__


def _signature(func: Callable[..., Any]) -> inspect.Signature:
    try:
        return inspect.signature(func, eval_str=True)
    except (NameError, TypeError, SyntaxError):
        return inspect.signature(func)


def _annotation(param: inspect.Parameter) -> Any:
    return Any if param.annotation is inspect.Parameter.empty else param.annotation


def _field(param: inspect.Parameter, descriptions: dict[str, str | None]) -> tuple[Any, Any] | None:
    description = descriptions.get(param.name)
    annotation = _annotation(param)
    if param.kind is inspect.Parameter.VAR_POSITIONAL:
        return list[annotation], Field(default=[], description=description)  # type: ignore[valid-type]
    if param.kind is inspect.Parameter.VAR_KEYWORD:
        return dict[str, annotation], Field(default={}, description=description)  # type: ignore[valid-type]
    if param.default is inspect.Parameter.empty:
        return annotation, Field(description=description)
    return annotation, Field(default=param.default, description=description)


def _is_included(
    param: inspect.Parameter, include_var_positional: bool, include_var_keyword: bool
) -> bool:
    if param.name in ("self", "cls"):
        return False
    if param.kind is inspect.Parameter.VAR_POSITIONAL:
        return include_var_positional
    if param.kind is inspect.Parameter.VAR_KEYWORD:
        return include_var_keyword
    return True


def _description(doc: docstring_parser.Docstring, include_long_description: bool) -> str:
    description = doc.short_description or ""
    if include_long_description and doc.long_description:
        description = f"{description}\n{doc.long_description}"
    return description


def parse_tool_function(
    func: Callable[..., Any],
    include_long_description: bool = True,
    include_var_positional: bool = False,
    include_var_keyword: bool = False,
) -> dict[str, Any]:
    """Build the function-calling JSON schema of ``func``.

    Args:
        func: The tool function (a bound method's ``self`` is not a parameter).
        include_long_description: Append the docstring's long description.
        include_var_positional: Expose ``*args`` as an array parameter.
        include_var_keyword: Expose ``**kwargs`` as an object parameter.

    Returns:
        ``{"type": "function", "function": {"name", "parameters", "description"?}}``.
    """
    doc = docstring_parser.parse(func.__doc__ or "")
    descriptions = {p.arg_name: p.description for p in doc.params}
    fields = {
        name: _field(param, descriptions)
        for name, param in _signature(func).parameters.items()
        if _is_included(param, include_var_positional, include_var_keyword)
    }
    with warnings.catch_warnings():
        # A parameter named like a BaseModel attribute ("json", "schema") only warns.
        warnings.simplefilter("ignore")
        model = create_model("_ToolParameters", **fields)  # type: ignore[call-overload]
    function: dict[str, Any] = {"name": callable_name(func), "parameters": model_schema(model)}
    description = _description(doc, include_long_description)
    if description:
        function["description"] = description
    return {"type": "function", "function": function}


def merge_extended_schema(
    json_schema: dict[str, Any], name: str, extended_model: type[BaseModel]
) -> dict[str, Any]:
    """A copy of ``json_schema`` whose parameters also hold the fields of ``extended_model``.

    Raises:
        ValueError: A field already exists in the schema, or a ``$defs`` entry of the same
            name has different content.
    """
    merged = copy.deepcopy(json_schema)
    parameters = merged["function"].setdefault("parameters", {"type": "object", "properties": {}})
    properties = parameters.setdefault("properties", {})
    extension = model_schema(extended_model)
    for key, value in extension.get("properties", {}).items():
        if key in properties:
            raise ValueError(
                f"The field `{key}` already exists in the original function schema of "
                f"`{name}`. Try to use a different name."
            )
        properties[key] = value
    if extension.get("required"):
        parameters.setdefault("required", []).extend(extension["required"])
    _merge_defs(parameters, extension.get("$defs", {}), name)
    return merged


def _merge_defs(parameters: dict[str, Any], defs: dict[str, Any], name: str) -> None:
    if not defs:
        return
    existing = parameters.setdefault("$defs", {})
    for key, value in defs.items():
        if key in existing and existing[key] != value:
            raise ValueError(
                f"The definition `{key}` of the extended model differs from the one already "
                f"in the original function schema of `{name}`. Try to use a different name."
            )
        existing[key] = value
