"""The OpenAI-compatible endpoints the Settings dialog offers as ready-made presets.

Each entry gives the base URL, whether a key is needed, where keys come from, and a model
to start with (the picker lists the server's own once connected).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KnownProvider:
    """A well-known OpenAI-compatible endpoint.

    Attributes:
        name: What the preset is called.
        base_url: The API root (``…/v1``).
        key_url: Where the user gets an API key (``""`` for local servers).
        model: A model to start with.
        local: Runs on this machine (no key needed by default).
    """

    name: str
    base_url: str
    key_url: str
    model: str
    local: bool = False

    @property
    def needs_key(self) -> bool:
        """Whether requests need an API key."""
        return not self.local


KNOWN_PROVIDERS: tuple[KnownProvider, ...] = (
    KnownProvider(
        "OpenAI", "https://api.openai.com/v1", "https://platform.openai.com/api-keys", "gpt-4o-mini"
    ),
    KnownProvider(
        "OpenRouter",
        "https://openrouter.ai/api/v1",
        "https://openrouter.ai/settings/keys",
        "openai/gpt-4o-mini",
    ),
    KnownProvider(
        "DeepSeek",
        "https://api.deepseek.com/v1",
        "https://platform.deepseek.com/api_keys",
        "deepseek-chat",
    ),
    KnownProvider(
        "Groq",
        "https://api.groq.com/openai/v1",
        "https://console.groq.com/keys",
        "llama-3.3-70b-versatile",
    ),
    KnownProvider(
        "Mistral",
        "https://api.mistral.ai/v1",
        "https://console.mistral.ai/api-keys",
        "mistral-small-latest",
    ),
    KnownProvider(
        "Together",
        "https://api.together.xyz/v1",
        "https://api.together.ai/settings/api-keys",
        "meta-llama/Llama-3.3-70B-Instruct-Turbo",
    ),
    KnownProvider("xAI", "https://api.x.ai/v1", "https://console.x.ai", "grok-3-mini"),
    KnownProvider(
        "Google Gemini",
        "https://generativelanguage.googleapis.com/v1beta/openai",
        "https://aistudio.google.com/apikey",
        "gemini-2.0-flash",
    ),
    KnownProvider("Ollama", "http://127.0.0.1:11434/v1", "", "llama3.2", local=True),
    KnownProvider("LM Studio", "http://127.0.0.1:1234/v1", "", "", local=True),
    KnownProvider("llama.cpp", "http://127.0.0.1:8080/v1", "", "", local=True),
    KnownProvider("vLLM", "http://127.0.0.1:8000/v1", "", "", local=True),
)


def known_provider(name: str) -> KnownProvider | None:
    """The catalog entry called ``name`` (case-insensitive), if any."""
    for provider in KNOWN_PROVIDERS:
        if provider.name.casefold() == name.strip().casefold():
            return provider
    return None


def known_provider_at(base_url: str) -> KnownProvider | None:
    """The catalog entry whose base URL is ``base_url`` (trailing ``/`` ignored), if any."""
    wanted = base_url.strip().rstrip("/").casefold()
    for provider in KNOWN_PROVIDERS:
        if provider.base_url.rstrip("/").casefold() == wanted:
            return provider
    return None
