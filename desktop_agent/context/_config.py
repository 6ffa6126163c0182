"""The context template as data: pydantic models, JSON reading and validation.

The models check structure only (types, required fields, unknown keys), so their JSON
Schema is exactly what the template editor validates against. Rules that need to know
the engine — module names unique, variables and importance functions that exist — are
checked by :func:`validate_config_data`, which also walks the raw data so that one error lists
*every* fault, each named by its JSON path (``context_template[2].segments[0].type``).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from desktop_agent._i18n import translate
from desktop_agent.context._exceptions import ContextConfigError

ROOT_PATH = "(root)"
FILE_PATH = "(file)"
JSON_PATH = "(json)"

Fault = tuple[str, str]


class _StrictModel(BaseModel):
    # strict: a template is hand-edited JSON; "200" for a number or "true" for a boolean
    # is a mistake to point at, not to coerce.
    model_config = ConfigDict(extra="forbid", strict=True)


class Segment(_StrictModel):
    """A piece of a module: fixed text, or a variable filled in when a prompt is built."""

    type: Literal["text", "variable"] = Field(
        description="'text': value is inserted as is; 'variable': value names a variable."
    )
    value: str = Field(description="The text, or the variable's name.")


class ContextModule(_StrictModel):
    """One entry of the template: a named, ordered list of segments and when to include it."""

    module_name: str = Field(min_length=1, description="Unique name of the module.")
    segments: list[Segment] = Field(min_length=1, description="Text and variable segments.")
    importance_func: bool | str = Field(
        default=True,
        description=(
            "true: always included; false: always left out; a string: the name of an "
            "importance function deciding at each build."
        ),
    )
    role: Literal["system", "user", "assistant"] = Field(
        default="system", description="The chat role of the message the module becomes."
    )
    description: str | None = Field(
        default=None, description="A note for the template's author; never sent."
    )

    @field_validator("importance_func", mode="before")
    @classmethod
    def _bool_or_name(cls, value: Any) -> Any:
        # One clear message instead of one error per member of the union.
        if not isinstance(value, bool | str):
            raise PydanticCustomError(
                "importance_func_type",
                "Input should be true, false or the name of an importance function",
            )
        return value


class ContextConfig(_StrictModel):
    """A context configuration: the ordered template plus the short-term memory bounds."""

    context_template: list[ContextModule] = Field(
        min_length=1, description="The modules in prompt order."
    )
    short_term_max_utterances: int = Field(
        default=200, ge=1, description="Most utterances the short-term memory keeps."
    )
    short_term_max_tokens: int = Field(
        default=5000, ge=1, description="Most tokens the short-term memory keeps."
    )


def json_path(loc: Sequence[int | str]) -> str:
    """``("context_template", 2, "segments")`` → ``"context_template[2].segments"``."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path or ROOT_PATH


def validate_config_data(
    data: Any,
    *,
    known_variables: Collection[str],
    known_importance_funcs: Collection[str],
    source: str | None = None,
) -> ContextConfig:
    """Validate raw config data (a decoded JSON object) completely.

    Args:
        data: The decoded JSON data.
        known_variables: Names a ``variable`` segment may use.
        known_importance_funcs: Names ``importance_func`` may use.
        source: Where the data came from, named in the error.

    Raises:
        ContextConfigError: Listing every fault with its JSON path.
    """
    faults: list[tuple[tuple[int | str, ...], str]] = []
    config: ContextConfig | None = None
    try:
        config = ContextConfig.model_validate(data)
    except ValidationError as exc:
        faults.extend((tuple(error["loc"]), error["msg"]) for error in exc.errors())
    faults.extend(_semantic_faults(data, known_variables, known_importance_funcs))
    if faults or config is None:
        faults.sort(key=_module_order)
        raise ContextConfigError([(json_path(loc), msg) for loc, msg in faults], source)
    return config


def _module_order(fault: tuple[tuple[int | str, ...], str]) -> int:
    loc = fault[0]
    if len(loc) > 1 and loc[0] == "context_template" and isinstance(loc[1], int):
        return loc[1]
    return -1


def _semantic_faults(
    data: Any, known_variables: Collection[str], known_funcs: Collection[str]
) -> list[tuple[tuple[int | str, ...], str]]:
    template = data.get("context_template") if isinstance(data, Mapping) else None
    if not isinstance(template, list):
        return []
    faults: list[tuple[tuple[int | str, ...], str]] = []
    first_use: dict[str, int] = {}
    for index, module in enumerate(template):
        if not isinstance(module, Mapping):
            continue
        loc: tuple[int | str, ...] = ("context_template", index)
        name = module.get("module_name")
        if isinstance(name, str) and name in first_use:
            faults.append(
                (
                    (*loc, "module_name"),
                    translate(
                        "ContextConfigError",
                        "duplicate module_name {name} (already used by context_template[{index}])",
                    ).format(name=repr(name), index=first_use[name]),
                )
            )
        elif isinstance(name, str):
            first_use[name] = index
        func = module.get("importance_func")
        if isinstance(func, str) and func not in known_funcs:
            faults.append(
                (
                    (*loc, "importance_func"),
                    translate(
                        "ContextConfigError",
                        "unknown importance function {name}; known importance functions: {known}",
                    ).format(name=repr(func), known=_names(known_funcs)),
                )
            )
        faults.extend(_variable_faults(loc, module.get("segments"), known_variables))
    return faults


def _variable_faults(
    loc: tuple[int | str, ...], segments: Any, known_variables: Collection[str]
) -> list[tuple[tuple[int | str, ...], str]]:
    if not isinstance(segments, list):
        return []
    faults: list[tuple[tuple[int | str, ...], str]] = []
    for index, segment in enumerate(segments):
        if not isinstance(segment, Mapping) or segment.get("type") != "variable":
            continue
        value = segment.get("value")
        if isinstance(value, str) and value not in known_variables:
            faults.append(
                (
                    (*loc, "segments", index, "value"),
                    translate(
                        "ContextConfigError", "unknown variable {name}; known variables: {known}"
                    ).format(name=repr(value), known=_names(known_variables)),
                )
            )
    return faults


def _names(names: Collection[str]) -> str:
    return ", ".join(sorted(names)) or translate("ContextConfigError", "(none)")


def decode_config_text(text: str, source: str | None = None) -> Any:
    """Decode JSON text.

    Raises:
        ContextConfigError: The text is not valid JSON (the fault gives line and column),
            or nests too deeply to be decoded.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        message = translate(
            "ContextConfigError", "invalid JSON at line {line}, column {column}: {error}"
        ).format(line=exc.lineno, column=exc.colno, error=exc.msg)
        raise ContextConfigError([(JSON_PATH, message)], source) from exc
    except RecursionError:  # "[[[[…" thousands deep: the decoder gives up
        message = translate(
            "ContextConfigError", "the JSON nests too deeply to be read (thousands of levels)"
        )
        raise ContextConfigError([(JSON_PATH, message)], source) from None


def read_config_file(path: Path) -> Any:
    """Read and decode a JSON config file.

    Raises:
        ContextConfigError: The file is missing, unreadable, not UTF-8 or not JSON.
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError as exc:
        missing = translate("ContextConfigError", "file not found")
        raise ContextConfigError([(FILE_PATH, missing)], str(path)) from exc
    except (OSError, UnicodeDecodeError) as exc:
        reason = translate("ContextConfigError", "cannot be read ({error})").format(
            error=f"{type(exc).__name__}: {exc}"
        )
        raise ContextConfigError([(FILE_PATH, reason)], str(path)) from exc
    return decode_config_text(text, str(path))


def load_config_source(config: Mapping[str, Any] | str | Path) -> tuple[Any, str | None]:
    """Turn what ``InputModule.load_config`` accepts into raw data plus a source label.

    A ``Path`` is a file. A ``str`` naming an existing file is a file too; otherwise a
    ``str`` whose first non-blank character is ``{`` or ``[`` is JSON text, and any other
    ``str`` is taken as the path of a file that is missing.

    Raises:
        ContextConfigError: The file cannot be read or the text is not JSON.
        TypeError: ``config`` is of another type.
    """
    if isinstance(config, Path):
        return read_config_file(config), str(config)
    if isinstance(config, str):
        if _is_file(config):
            return read_config_file(Path(config)), config
        if config.lstrip().startswith(("{", "[")):
            return decode_config_text(config), None
        return read_config_file(Path(config)), config
    if isinstance(config, Mapping):
        return config, None
    raise TypeError(
        f"A context config must be a dict, JSON text or a path, got {type(config).__name__}."
    )


def _is_file(candidate: str) -> bool:
    try:
        return Path(candidate).is_file()
    except (OSError, ValueError):  # name too long, NUL byte: not a usable path
        return False


def config_to_json(config: ContextConfig) -> dict[str, Any]:
    """The JSON-ready data of a config (what files and saved states hold)."""
    return config.model_dump(mode="json", exclude_none=True)


def config_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a context config file."""
    schema = ContextConfig.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
