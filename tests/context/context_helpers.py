"""Builders for template data and conversations used by the context tests."""

from __future__ import annotations

from typing import Any

from desktop_agent.message import Msg


def module(
    name: str, *segments: tuple[str, str], importance: bool | str = True, role: str = "system"
) -> dict[str, Any]:
    """A template module as JSON data; segments are ``(type, value)`` pairs."""
    return {
        "module_name": name,
        "segments": [{"type": kind, "value": value} for kind, value in segments],
        "importance_func": importance,
        "role": role,
    }


def config(*modules: dict[str, Any], **settings: Any) -> dict[str, Any]:
    """A config as JSON data."""
    return {"context_template": list(modules), **settings}


IMAGE = {
    "type": "image",
    "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
}
AUDIO = {
    "type": "audio",
    "source": {"type": "base64", "media_type": "audio/wav", "data": "UklGRg=="},
}


def tool_call(call_id: str, name: str = "get_weather", **arguments: Any) -> Msg:
    """An assistant message calling one tool."""
    block = {"type": "tool_use", "id": call_id, "name": name, "input": arguments}
    return Msg("Friday", [block], "assistant")


def tool_result(call_id: str, output: str, name: str = "get_weather") -> Msg:
    """The system message carrying a tool's result, as ReActAgent records it."""
    block = {"type": "tool_result", "id": call_id, "name": name, "output": output}
    return Msg("system", [block], "system")
