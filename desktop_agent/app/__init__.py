"""Qt-free application services the window uses: settings, providers, the chat service.

Nothing here imports Qt; the window (``desktop_agent.ui``) adapts these objects to widgets.
"""

from desktop_agent.app._agent_factory import preload_agent_core
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
)
from desktop_agent.app._providers import (
    LocalServer,
    ModelListError,
    Provider,
    fetch_model_ids,
    probe_local_servers,
    provider_from_environment,
    provider_from_settings,
    resolve_provider,
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

__all__ = [
    "Changed",
    "ChatService",
    "Conversation",
    "ConversationEntry",
    "ConversationEvent",
    "EntryKind",
    "Inserted",
    "LoadedSettings",
    "LocalServer",
    "ModelListError",
    "Provider",
    "ProviderPreset",
    "Removed",
    "Reset",
    "Settings",
    "ToolStatus",
    "TurnEvent",
    "TurnFailed",
    "TurnFinished",
    "TurnInterrupted",
    "TurnStarted",
    "TurnUsage",
    "fetch_model_ids",
    "load_settings",
    "preload_agent_core",
    "probe_local_servers",
    "provider_from_environment",
    "provider_from_settings",
    "resolve_provider",
    "save_settings",
    "settings_path",
]
