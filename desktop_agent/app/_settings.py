"""User settings: provider presets, temperature, system prompt, theme.

Stored as JSON in ``settings.json`` (see :func:`settings_path`), written atomically and
readable by its owner only. API keys are ``SecretStr``: they print as ``**********`` in
reprs, logs and ``model_dump()``, and are revealed only when the file itself is written.
A file that cannot be read never silently disappears: it is renamed aside
(``settings.json.bad-<timestamp>``) and the app starts with defaults plus a warning.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    FieldSerializationInfo,
    PlainSerializer,
    PlainValidator,
    SecretStr,
    SerializationInfo,
    TypeAdapter,
    ValidationError,
    field_serializer,
)

from desktop_agent._i18n import translate
from desktop_agent._logging import logger
from desktop_agent.app._files import config_dir, write_private_file

if TYPE_CHECKING:
    from desktop_agent.app._mcp_config import McpServerConfig

SETTINGS_FILE = "settings.json"
DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant."
_REVEAL = "reveal_secrets"


_mcp_adapter: TypeAdapter[list[McpServerConfig]] | None = None


def _mcp_servers_from(value: Any) -> list[McpServerConfig]:
    """Validate ``Settings.mcp_servers``.

    The MCP server model (~60 ms of pydantic schema building) is loaded only when there
    are servers: with none, start-up never imports it.
    """
    if isinstance(value, list | tuple) and not value:
        return []
    global _mcp_adapter
    if _mcp_adapter is None:
        from desktop_agent.app._mcp_config import McpServerConfig

        _mcp_adapter = TypeAdapter(list[McpServerConfig])
    return _mcp_adapter.validate_python(value)


def _mcp_servers_to(servers: list[McpServerConfig], info: SerializationInfo) -> list[Any]:
    return [s.model_dump(mode=info.mode, context=info.context) for s in servers]


if TYPE_CHECKING:
    McpServerList = list[McpServerConfig]
else:
    McpServerList = Annotated[
        list[Any],
        PlainValidator(_mcp_servers_from, json_schema_input_type=list[dict[str, Any]]),
        PlainSerializer(_mcp_servers_to),
    ]


class ProviderPreset(BaseModel):
    """One OpenAI-compatible endpoint the user saved."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    base_url: str
    model: str
    api_key: SecretStr = SecretStr("")
    enabled: bool = True
    """Its models are listed in the chat header's model picker (several providers at once)."""

    @field_serializer("api_key", when_used="json")
    def _dump_key(self, key: SecretStr, info: FieldSerializationInfo) -> str:
        """Reveal the key only when writing the settings file itself."""
        if info.context and info.context.get(_REVEAL):
            return key.get_secret_value()
        return str(key)


class Settings(BaseModel):
    """Everything the user can change in the Settings dialog."""

    model_config = ConfigDict(extra="forbid")

    providers: list[ProviderPreset] = Field(default_factory=list)
    active_provider: str | None = None
    temperature: float = Field(default=0.7, ge=0.0, le=2.0)
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    theme: Literal["light", "dark", "system"] = "light"  # system: follow the desktop
    language: str = Field(default="", max_length=35)
    """The window's language as a locale name (``"zh_CN"``, ``"en"``); ``""``: the
    desktop's. Applies at the next start (``$DESKTOP_AGENT_LANGUAGE`` overrides it)."""
    allow_remote_images: bool = False
    mcp_servers: McpServerList = Field(default_factory=list)
    """The MCP servers of the Tools page (``env``/``headers`` values are secrets)."""
    mcp_start_at_launch: bool = False
    """Start the enabled MCP servers with the app, not when a chat first needs them."""
    stream_idle_timeout: float = Field(default=60.0, ge=0.1, le=3600.0)
    """Seconds a streaming answer may stay silent before it counts as failed."""
    working_folder: str = ""
    """Where file tools resolve relative paths; empty means the home folder."""
    plan_mode: bool = False
    """Give the agent a plan notebook: for complex tasks the model makes a plan, follows it
    step by step, and the chat shows it as a live checklist. Off by default: the 8 plan
    tools and a planning hint go with every request (~2,000 tokens), which small local
    models handle poorly."""
    max_output_tokens: int | None = Field(default=None, ge=1, le=1_000_000)
    """The answer's token limit (``max_tokens``); ``None``: the server's default."""
    top_p: float | None = Field(default=None, ge=0.0, le=1.0)
    """Nucleus sampling; ``None``: not sent."""
    reasoning_effort: Literal["", "minimal", "low", "medium", "high"] = ""
    """For reasoning models that take it; ``""``: not sent."""
    context_budget: int = Field(default=128_000, ge=1_000, le=10_000_000)
    """The tokens a chat's context may take (the model's context length, or less): attached
    documents are checked against it before they are sent."""
    stream: bool = True
    """Stream answers as they are written (off: the answer shows when it is complete)."""
    auto_title: bool = False
    """After a chat's first answer, ask the model for a short title (one small request
    that sends the first exchange again: opt-in); a title the user gave is never replaced."""

    def resolved_working_folder(self) -> Path:
        """``working_folder`` as an absolute path (the home folder when unset)."""
        folder = self.working_folder.strip()
        return Path(folder).expanduser().absolute() if folder else Path.home()

    def active_preset(self) -> ProviderPreset | None:
        """The preset named by ``active_provider`` (or the only one), if any."""
        for preset in self.providers:
            if preset.name == self.active_provider:
                return preset
        if self.active_provider is None and len(self.providers) == 1:
            return self.providers[0]
        return None

    def with_preset(self, preset: ProviderPreset) -> Settings:
        """A copy in which ``preset`` replaces the one of the same name and is active."""
        others = [p for p in self.providers if p.name != preset.name]
        return self.model_copy(
            update={"providers": [*others, preset], "active_provider": preset.name}
        )


@dataclass(frozen=True)
class LoadedSettings:
    """The result of :func:`load_settings`.

    Attributes:
        settings: What was read, or defaults.
        warning: A sentence for the user when the file could not be used, else ``None``.
    """

    settings: Settings
    warning: str | None = None


def settings_path() -> Path:
    """``$DESKTOP_AGENT_HOME/settings.json``, else the platform's user config folder."""
    return config_dir() / SETTINGS_FILE


def load_settings(path: Path | None = None) -> LoadedSettings:
    """Read the settings file; a missing file gives defaults, a bad one is kept aside.

    Args:
        path: The file; :func:`settings_path` by default.
    """
    path = path or settings_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return LoadedSettings(Settings())
    except OSError as exc:
        reason = translate("SettingsFile", "it could not be read ({error})").format(
            error=exc.strerror
        )
        return _unusable(path, reason, keep_aside=False)
    try:
        return LoadedSettings(Settings.model_validate(json.loads(raw)))
    except json.JSONDecodeError as exc:
        reason = translate(
            "SettingsFile", "it is not valid JSON (line {line}, column {column})"
        ).format(line=exc.lineno, column=exc.colno)
        return _unusable(path, reason)
    except UnicodeDecodeError:
        return _unusable(path, translate("SettingsFile", "it is not UTF-8 text"))
    except ValidationError as exc:
        return _unusable(path, _describe_validation_error(exc))


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write ``settings`` atomically, owner-only (mode 0600), keys included.

    Returns:
        The path written.
    """
    path = path or settings_path()
    document = settings.model_dump(mode="json", context={_REVEAL: True})
    write_private_file(path, (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode())
    logger.info("Settings saved to %s", path)
    return path


def _describe_validation_error(exc: ValidationError) -> str:
    """Locations and reasons only: the offending values (maybe a key) are left out."""
    parts = []
    for error in exc.errors(include_input=False, include_url=False)[:3]:
        where = ".".join(str(p) for p in error["loc"]) or translate("SettingsFile", "(top level)")
        parts.append(f"{where}: {error['msg']}")
    return translate("SettingsFile", "it has invalid entries ({entries})").format(
        entries="; ".join(parts)
    )


def _unusable(path: Path, reason: str, *, keep_aside: bool = True) -> LoadedSettings:
    kept = _keep_aside(path) if keep_aside else None
    if kept is not None:
        warning = translate(
            "SettingsFile",
            "Your settings file {path} could not be used: {reason}. It was kept as {kept}; "
            "default settings are in use.",
        ).format(path=path, reason=reason, kept=kept.name)
    else:
        warning = translate(
            "SettingsFile", "Your settings file {path} could not be used: {reason}."
        ).format(path=path, reason=reason)
    logger.warning("%s", warning)
    return LoadedSettings(Settings(), warning)


def _keep_aside(path: Path) -> Path | None:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.bad-{stamp}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.bad-{stamp}-{counter}")
    try:
        os.replace(path, target)
    except OSError as exc:
        logger.warning("Could not keep the unusable settings file aside: %s", exc.strerror)
        return None
    return target
