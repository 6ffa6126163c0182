"""Which model endpoint to talk to: saved settings, then environment, then a local server.

Resolution order (first match wins):

1. the active preset the user saved in Settings;
2. ``OPENAI_API_KEY`` / ``OPENAI_BASE_URL`` / ``DESKTOP_AGENT_MODEL`` environment variables;
3. an OpenAI-compatible server on this machine (Ollama, LM Studio, llama.cpp, vLLM), found by
   asking each well-known port for ``/v1/models`` — concurrently, with a short timeout, in
   worker threads so the GUI thread never waits on a socket;
4. none: the window shows its first-run panel.

HTTP here uses ``urllib`` on purpose: importing the ``openai`` SDK costs ~0.75 s, which must
not happen before the window's first paint.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from pydantic import SecretStr

from desktop_agent._i18n import translate
from desktop_agent._logging import logger
from desktop_agent.app._settings import Settings

DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
PROBE_TIMEOUT = 0.5
T = TypeVar("T")


@dataclass(frozen=True)
class LocalServer:
    """A well-known local OpenAI-compatible server: a display name and its default port."""

    name: str
    port: int
    host: str = "127.0.0.1"

    @property
    def base_url(self) -> str:
        """The server's OpenAI-compatible API root."""
        return f"http://{self.host}:{self.port}/v1"


LOCAL_SERVERS: tuple[LocalServer, ...] = (
    LocalServer("Ollama", 11434),
    LocalServer("LM Studio", 1234),
    LocalServer("llama.cpp", 8080),
    LocalServer("vLLM", 8000),
)


@dataclass(frozen=True)
class Provider:
    """A resolved endpoint. The key is a ``SecretStr``, so the repr never shows it.

    Attributes:
        name: What the status line shows (preset name, "Environment", "Ollama", ...).
        base_url: The OpenAI-compatible API root.
        model: The model name sent with each request.
        api_key: The key; empty for local servers that need none.
        source: Where it came from.
    """

    name: str
    base_url: str
    model: str
    api_key: SecretStr
    source: Literal["settings", "environment", "local"]


class ModelListError(Exception):
    """``/v1/models`` could not be read; the message is meant for the user.

    Attributes:
        status: The HTTP status the server answered with, if it answered.
    """

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Discovery:
    """What provider resolution found.

    Attributes:
        provider: The endpoint to use, or ``None``.
        needs_key: Local servers that answered but refused without an API key (401/403).
    """

    provider: Provider | None
    needs_key: tuple[LocalServer, ...] = ()

    @property
    def notes(self) -> list[str]:
        """Sentences for the user, e.g. "LM Studio on port 1234 needs an API key." """
        note = translate(
            "ProviderDiscovery",
            "{server} on port {port} needs an API key: enter it in Settings (base URL {url}).",
        )
        return [
            note.format(server=server.name, port=server.port, url=server.base_url)
            for server in self.needs_key
        ]


async def resolve_provider(
    settings: Settings,
    *,
    environ: Mapping[str, str] | None = None,
    local_servers: Sequence[LocalServer] = LOCAL_SERVERS,
    timeout: float = PROBE_TIMEOUT,
) -> Provider | None:
    """The endpoint to use, in the order the module docstring gives, or ``None``.

    Args:
        settings: The user's saved settings.
        environ: Environment variables (``os.environ`` by default).
        local_servers: The servers to probe (tests inject their own ports).
        timeout: Seconds each probe may take.
    """
    found = await discover(settings, environ=environ, local_servers=local_servers, timeout=timeout)
    return found.provider


async def discover(
    settings: Settings,
    *,
    environ: Mapping[str, str] | None = None,
    local_servers: Sequence[LocalServer] = LOCAL_SERVERS,
    timeout: float = PROBE_TIMEOUT,
) -> Discovery:
    """:func:`resolve_provider`, also reporting local servers that need an API key."""
    found = provider_from_settings(settings) or provider_from_environment(
        os.environ if environ is None else environ
    )
    if found is not None:
        return Discovery(found)
    return await discover_local_servers(local_servers, timeout=timeout)


def provider_from_settings(settings: Settings) -> Provider | None:
    """The active saved preset, if it names a base URL and a model."""
    preset = settings.active_preset()
    if preset is None or not preset.base_url.strip() or not preset.model.strip():
        return None
    return Provider(
        preset.name, preset.base_url.strip(), preset.model.strip(), preset.api_key, "settings"
    )


def configured_providers(settings: Settings, default: Provider | None) -> list[Provider]:
    """Every provider a chat may talk to: ``default`` (the resolved one) first, then each
    other saved preset that is enabled and names a base URL (several at once, issue 17)."""
    found = [default] if default is not None else []
    names = {p.name for p in found}
    for preset in settings.providers:
        if not preset.enabled or not preset.base_url.strip() or preset.name in names:
            continue
        names.add(preset.name)
        found.append(
            Provider(
                preset.name,
                preset.base_url.strip(),
                preset.model.strip(),
                preset.api_key,
                "settings",
            )
        )
    return found


def provider_from_environment(environ: Mapping[str, str]) -> Provider | None:
    """A provider from ``OPENAI_API_KEY``/``OPENAI_BASE_URL``/``DESKTOP_AGENT_MODEL``.

    Either the key or the base URL must be set; the model alone is not enough.
    """
    key = environ.get("OPENAI_API_KEY", "").strip()
    base_url = environ.get("OPENAI_BASE_URL", "").strip()
    if not key and not base_url:
        return None
    model = environ.get("DESKTOP_AGENT_MODEL", "").strip() or DEFAULT_OPENAI_MODEL
    return Provider(
        translate("ProviderDiscovery", "Environment"),
        base_url or DEFAULT_OPENAI_BASE_URL,
        model,
        SecretStr(key),
        "environment",
    )


async def probe_local_servers(
    servers: Sequence[LocalServer] = LOCAL_SERVERS, *, timeout: float = PROBE_TIMEOUT
) -> Provider | None:
    """Ask every server for its models at once; the first in ``servers`` order that answers wins."""
    return (await discover_local_servers(servers, timeout=timeout)).provider


async def discover_local_servers(
    servers: Sequence[LocalServer] = LOCAL_SERVERS, *, timeout: float = PROBE_TIMEOUT
) -> Discovery:
    """:func:`probe_local_servers`, also naming the servers that refused without a key."""
    if not servers:
        return Discovery(None)
    jobs = [functools.partial(_probe, server, timeout) for server in servers]
    try:
        results = await _in_threads(jobs, timeout + 1.0)
    except ModelListError:
        return Discovery(None)
    locked = tuple(s for s, r in zip(servers, results, strict=True) if r is _NEEDS_KEY)
    for server in locked:
        logger.info("%s at %s needs an API key", server.name, server.base_url)
    for server, model in zip(servers, results, strict=True):
        if model and model is not _NEEDS_KEY:
            logger.info("Found %s at %s (model %s)", server.name, server.base_url, model)
            provider = Provider(server.name, server.base_url, model, SecretStr(""), "local")
            return Discovery(provider, locked)
    return Discovery(None, locked)


async def fetch_model_ids(base_url: str, api_key: str = "", *, timeout: float = 5.0) -> list[str]:
    """The model ids ``GET {base_url}/models`` lists, fetched in a worker thread.

    Raises:
        ModelListError: The endpoint could not be reached or did not answer a model list.
    """
    job = functools.partial(_get_model_ids, base_url, api_key, timeout)
    return (await _in_threads([job], timeout + 1.0))[0]


_NEEDS_KEY = "\x00needs-key"  # a probe result: the server answered 401/403


def _probe(server: LocalServer, timeout: float) -> str | None:
    try:
        ids = _get_model_ids(server.base_url, "", timeout)
    except ModelListError as exc:
        return _NEEDS_KEY if exc.status in (401, 403) else None
    return ids[0] if ids else None


def _get_model_ids(base_url: str, api_key: str, timeout: float) -> list[str]:
    import urllib.error  # here, in the worker thread: ~40 ms less before first paint
    import urllib.request

    url = base_url.rstrip("/") + "/models"
    if not url.startswith(("http://", "https://")):
        raise ModelListError(
            translate(
                "ProviderDiscovery", "The base URL must start with http:// or https:// (got {url})."
            ).format(url=repr(base_url))
        )
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    if api_key:
        request.add_header("Authorization", f"Bearer {api_key}")
    # No proxies: local servers must be reached directly, and keys stay off proxies we
    # were not told about.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=timeout) as response:
            document = json.loads(response.read(2_000_000))
    except urllib.error.HTTPError as exc:
        exc.close()  # it holds the response (and its socket) open
        raise ModelListError(
            translate("ProviderDiscovery", "The server answered {code} {reason}.").format(
                code=exc.code, reason=exc.reason
            ),
            exc.code,
        ) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ModelListError(
            translate("ProviderDiscovery", "The server could not be reached ({reason}).").format(
                reason=reason
            )
        ) from None
    except (ValueError, UnicodeDecodeError):
        raise ModelListError(_not_a_list()) from None
    return _model_ids(document)


def _not_a_list() -> str:
    return translate("ProviderDiscovery", "The server's answer is not a model list.")


def _model_ids(document: object) -> list[str]:
    data = document.get("data") if isinstance(document, dict) else None
    if not isinstance(data, list):
        raise ModelListError(_not_a_list())
    return [str(item["id"]) for item in data if isinstance(item, dict) and item.get("id")]


async def _in_threads(jobs: Sequence[Callable[[], T]], timeout: float) -> list[T]:
    """Run blocking callables concurrently in the loop's default executor, bounded by ``timeout``.

    The loop's own executor on purpose: under qasync it runs jobs in ``QThread``s, and
    completing a future from a plain Python thread makes qasync emit a Qt signal from a
    thread Qt does not know (PySide6 may crash on that). Every job is bounded by its socket
    timeout, so the executor's join at exit stays short.
    """
    loop = asyncio.get_running_loop()
    futures = [loop.run_in_executor(None, job) for job in jobs]
    try:
        _done, pending = await asyncio.wait(futures, timeout=timeout)
    finally:
        for future in futures:
            future.cancel()  # no-op for finished ones; abandons a hung socket
    if pending:
        raise ModelListError(translate("ProviderDiscovery", "The server did not answer in time."))
    return [future.result() for future in futures]
