"""Qt-free application services the window uses: settings, providers, the chat service,
and the session switcher (the session library itself is ``desktop_agent.app.library``,
imported lazily: the switcher loads it after the window's first paint).

Nothing here imports Qt; the window (``desktop_agent.ui``) adapts these objects to widgets.
"""

import typing as _typing

from desktop_agent.app._agent_factory import preload_agent_core
from desktop_agent.app._agent_state import AgentState
from desktop_agent.app._chat_service import ChatService
from desktop_agent.app._conversation import (
    Changed,
    Conversation,
    ConversationEntry,
    ConversationEvent,
    EntryKind,
    Inserted,
    Removed,
    Reset,
    ToolStatus,
    answer_ending,
)
from desktop_agent.app._conversation_tree import ConversationTree, VersionInfo
from desktop_agent.app._mcp_servers import McpServers
from desktop_agent.app._mcp_status import McpServerStatus, McpToolInfo
from desktop_agent.app._providers import (
    Discovery,
    LocalServer,
    ModelListError,
    Provider,
    discover,
    fetch_model_ids,
    probe_local_servers,
    provider_from_environment,
    provider_from_settings,
    resolve_provider,
)
from desktop_agent.app._session_switcher import (
    ActiveSessionChanged,
    AutosaveFailed,
    AutosaveRecovered,
    SessionSwitcher,
    SwitcherEvent,
)
from desktop_agent.app._settings import (
    LoadedSettings,
    ProviderPreset,
    Settings,
    load_settings,
    save_settings,
    settings_path,
)
from desktop_agent.app._turn_events import (
    TurnEvent,
    TurnFailed,
    TurnFinished,
    TurnInterrupted,
    TurnStarted,
    TurnUsage,
)
from desktop_agent.app._versions import ConversationVersions

if _typing.TYPE_CHECKING:
    from desktop_agent.app._mcp_config import (
        McpConfigError,
        McpServerConfig,
        parse_mcp_json,
        to_mcp_json,
    )

__all__ = [
    "ActiveSessionChanged",
    "AgentState",
    "AutosaveFailed",
    "AutosaveRecovered",
    "Changed",
    "ChatService",
    "Conversation",
    "ConversationEntry",
    "ConversationEvent",
    "ConversationTree",
    "ConversationVersions",
    "Discovery",
    "EntryKind",
    "Inserted",
    "LoadedSettings",
    "LocalServer",
    "McpConfigError",
    "McpServerConfig",
    "McpServerStatus",
    "McpServers",
    "McpToolInfo",
    "ModelListError",
    "Provider",
    "ProviderPreset",
    "Removed",
    "Reset",
    "SessionSwitcher",
    "Settings",
    "SwitcherEvent",
    "ToolStatus",
    "TurnEvent",
    "TurnFailed",
    "TurnFinished",
    "TurnInterrupted",
    "TurnStarted",
    "TurnUsage",
    "VersionInfo",
    "answer_ending",
    "discover",
    "fetch_model_ids",
    "load_settings",
    "parse_mcp_json",
    "preload_agent_core",
    "probe_local_servers",
    "provider_from_environment",
    "provider_from_settings",
    "resolve_provider",
    "save_settings",
    "settings_path",
    "to_mcp_json",
]

_LAZY_MCP_CONFIG = ("McpConfigError", "McpServerConfig", "parse_mcp_json", "to_mcp_json")


def __getattr__(name: str) -> _typing.Any:
    """The MCP configuration model (~60 ms of pydantic schema building) loads on first use,
    not at start-up."""
    if name in _LAZY_MCP_CONFIG:
        from desktop_agent.app import _mcp_config

        return getattr(_mcp_config, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
