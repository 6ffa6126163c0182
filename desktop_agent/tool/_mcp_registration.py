"""How a ``Toolkit`` takes in MCP tools, without importing the ``mcp`` SDK.

An ``MCPToolFunction`` can only exist once ``desktop_agent.mcp`` has been imported, so the
toolkit recognises one through ``sys.modules`` instead of importing that package (which
sits above ``tool`` in the layers and imports the SDK). Clients are recognised the same
way. Errors of an MCP call reach the model as AgentScope words them:
``"Error occurred when calling MCP tool: {e}"`` for an ``McpError`` (also when it came
out of the SDK's task groups), ``"Error: {e}"`` otherwise.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from desktop_agent._logging import logger
from desktop_agent.tool._exceptions import ToolError
from desktop_agent.tool._types import PostprocessFunction

if TYPE_CHECKING:
    from desktop_agent.tool._toolkit import Toolkit


class MCPCallError(ToolError):
    """The MCP server answered a tool call with a protocol error (or did not in time)."""

    label: ClassVar[str] = "Error occurred when calling MCP tool"


def _mcp_class(module: str, name: str) -> type | None:
    loaded = sys.modules.get(module)
    return getattr(loaded, name, None) if loaded is not None else None


def is_mcp_tool_function(obj: object) -> bool:
    """Whether ``obj`` is a ``desktop_agent.mcp.MCPToolFunction``."""
    cls = _mcp_class("desktop_agent.mcp", "MCPToolFunction")
    return cls is not None and isinstance(obj, cls)


def mcp_name_of(obj: object) -> str | None:
    """The client name of an MCP tool function, else ``None``."""
    return str(obj.mcp_name) if is_mcp_tool_function(obj) else None  # type: ignore[attr-defined]


def mcp_schema_of(obj: object) -> dict[str, Any] | None:
    """The JSON schema an MCP tool function brings, else ``None``."""
    return obj.json_schema if is_mcp_tool_function(obj) else None  # type: ignore[attr-defined]


def mcp_call(func: Any) -> Callable[..., Any]:
    """``func`` (an ``MCPToolFunction``) with its protocol errors as :class:`MCPCallError`."""

    async def call_mcp_tool(**kwargs: Any) -> Any:
        try:
            return await func(**kwargs)
        except Exception as exc:
            leaf = _single_leaf(exc)
            mcp_error = _mcp_class("mcp.shared.exceptions", "McpError")
            if mcp_error is not None and isinstance(leaf, mcp_error):
                raise MCPCallError(str(leaf)) from leaf
            if leaf is not exc and isinstance(leaf, Exception):
                raise leaf from None
            raise

    call_mcp_tool.__name__ = str(func.name)
    call_mcp_tool.__doc__ = func.description
    return call_mcp_tool


def _single_leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def _check_filters(enable_funcs: Any, disable_funcs: Any, preset_kwargs_mapping: Any) -> None:
    if enable_funcs is not None and disable_funcs is not None:
        assert isinstance(enable_funcs, list) and all(isinstance(x, str) for x in enable_funcs), (
            f"Enable functions should be a list of strings, but got {enable_funcs}."
        )
        assert isinstance(disable_funcs, list) and all(isinstance(x, str) for x in disable_funcs), (
            f"Disable functions should be a list of strings, but got {disable_funcs}."
        )
        overlap = set(enable_funcs) & set(disable_funcs)
        assert not overlap, (
            "The functions in enable_funcs and disable_funcs should not overlap, but got "
            f"{overlap}."
        )
    if preset_kwargs_mapping is not None and not isinstance(preset_kwargs_mapping, dict):
        raise TypeError(
            "The preset_kwargs_mapping must be a dictionary or None, but got "
            f"{type(preset_kwargs_mapping)}."
        )


def _is_unconnected_stateful(client: Any) -> bool:
    stateful = _mcp_class("desktop_agent.mcp", "StatefulClientBase")
    return stateful is not None and isinstance(client, stateful) and not client.is_connected  # type: ignore[attr-defined]


async def register_mcp_client(
    toolkit: Toolkit,
    mcp_client: Any,
    group_name: str = "basic",
    enable_funcs: list[str] | None = None,
    disable_funcs: list[str] | None = None,
    preset_kwargs_mapping: dict[str, dict[str, Any]] | None = None,
    postprocess_func: PostprocessFunction | None = None,
    namesake_strategy: Literal["override", "skip", "raise", "rename"] = "raise",
    execution_timeout: float | None = None,
) -> None:
    """The body of :meth:`Toolkit.register_mcp_client` (see there)."""
    if _is_unconnected_stateful(mcp_client):
        raise RuntimeError(
            "The MCP client is not connected to the server. Use the `connect()` method first."
        )
    _check_filters(enable_funcs, disable_funcs, preset_kwargs_mapping)
    registered = []
    for tool in await mcp_client.list_tools():
        if enable_funcs is not None and tool.name not in enable_funcs:
            continue
        if disable_funcs is not None and tool.name in disable_funcs:
            continue
        func = await mcp_client.get_callable_function(
            tool.name, wrap_tool_result=True, execution_timeout=execution_timeout
        )
        presets = (
            None if preset_kwargs_mapping is None else preset_kwargs_mapping.get(tool.name, {})
        )
        toolkit.register_tool_function(
            func,
            group_name=group_name,
            preset_kwargs=presets,
            postprocess_func=postprocess_func,
            namesake_strategy=namesake_strategy,
        )
        registered.append(tool.name)
    logger.info(
        "Registered %d tool functions from MCP: %s.", len(registered), ", ".join(registered)
    )


def remove_mcp_clients(toolkit: Toolkit, client_names: list[str] | str) -> None:
    """The body of :meth:`Toolkit.remove_mcp_clients` (see there)."""
    if isinstance(client_names, str):
        client_names = [client_names]
    if isinstance(client_names, list) and not all(isinstance(n, str) for n in client_names):
        raise TypeError(
            f"The client_names must be a list of strings, but got {type(client_names)}."
        )
    removed = [name for name, tool in toolkit.tools.items() if tool.mcp_name in client_names]
    for name in removed:
        toolkit.tools.pop(name)
    logger.info(
        "Removed %d tool functions from %d MCP: %s",
        len(removed),
        len(client_names),
        ", ".join(removed),
    )
