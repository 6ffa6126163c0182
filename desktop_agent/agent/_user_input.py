"""Where a ``UserAgent`` gets its input: the terminal here, a Qt input in ``ui``.

``TerminalUserInput`` reads with ``input()`` in a worker thread, so the event loop keeps
running while the user types. Structured input is asked field by field and each value is
validated with pydantic against that field (AgentScope uses jsonschema; the messages
differ, the behaviour does not).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from desktop_agent.message import AudioBlock, ImageBlock, TextBlock, VideoBlock

_MISSING = object()


@dataclass
class UserInputData:
    """What the user entered: content blocks and, if asked for, a structured input."""

    blocks_input: list[TextBlock | ImageBlock | AudioBlock | VideoBlock] = None  # type: ignore[assignment]
    structured_input: dict[str, Any] | None = None


class UserInputBase:
    """The interface of a user input method."""

    async def __call__(
        self,
        agent_id: str,
        agent_name: str,
        *args: Any,
        structured_model: type[BaseModel] | None = None,
        **kwargs: Any,
    ) -> UserInputData:
        """Ask the user for input.

        Args:
            agent_id: The id of the asking agent.
            agent_name: The name of the asking agent.
            structured_model: Also ask for the fields of this pydantic model.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement __call__.")


class TerminalUserInput(UserInputBase):
    """Reads the user's input from the terminal.

    Args:
        input_hint: The prompt shown before the input.
    """

    def __init__(self, input_hint: str = "User Input: ") -> None:
        self.input_hint = input_hint

    async def __call__(
        self,
        agent_id: str,
        agent_name: str,
        *args: Any,
        structured_model: type[BaseModel] | None = None,
        **kwargs: Any,
    ) -> UserInputData:
        """Read a line of text, then each field of ``structured_model`` if given."""
        text = await _read(self.input_hint)
        structured_input = None
        if structured_model is not None:
            structured_input = await _read_structured(structured_model)
        return UserInputData(
            blocks_input=[TextBlock(type="text", text=text)],
            structured_input=structured_input,
        )


async def _read(prompt: str) -> str:
    text = await asyncio.to_thread(input, prompt)
    return text.encode("utf-8", errors="ignore").decode("utf-8")


async def _read_structured(structured_model: type[BaseModel]) -> dict[str, Any]:
    schema = structured_model.model_json_schema()
    required = set(schema.get("required", []))
    print("Structured input (press Enter to skip for optional):)")
    values: dict[str, Any] = {}
    for key, prop in schema.get("properties", {}).items():
        values[key] = await _read_field(structured_model, key, prop, key in required)
    return values


async def _read_field(
    structured_model: type[BaseModel], key: str, prop: dict[str, Any], required: bool
) -> Any:
    requirements = {k: v for k, v in prop.items() if k != "title"}
    while True:
        raw = await _read(f"\t{key} ({requirements}): ")
        if raw == "":
            if required:
                print(f"Key {key} is required.")
                continue
            return prop.get("default")
        value = _validate_field(structured_model, key, prop, raw)
        if value is not _MISSING:
            return value


def _validate_field(
    structured_model: type[BaseModel], key: str, prop: dict[str, Any], raw: str
) -> Any:
    value: Any = raw
    if str(prop.get("type", "")).lower() == "integer":
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            print(f"'{raw}' is not an integer.")
            return _MISSING
    field = structured_model.model_fields.get(key)
    if field is None:
        return value
    annotation: Any = field.annotation
    if field.metadata:
        annotation = Annotated[annotation, *field.metadata]
    try:
        return TypeAdapter(annotation).validate_python(value)
    except ValidationError as exc:
        print(_readable(exc))
        return _MISSING


def _readable(exc: ValidationError) -> str:
    return "; ".join(error["msg"] for error in exc.errors()) or str(exc)
