"""Provider resolution: saved settings, then environment, then a local server, else none."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from pydantic import SecretStr

from desktop_agent.app import (
    LocalServer,
    ModelListError,
    ProviderPreset,
    Settings,
    fetch_model_ids,
    probe_local_servers,
    resolve_provider,
)
from desktop_agent.testing import OpenAICompatServer, ScriptedReply

ENV = {
    "OPENAI_API_KEY": "sk-env-secret-value",
    "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
    "DESKTOP_AGENT_MODEL": "env-model",
}


@pytest.fixture
def local_server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer(models=("llama3.2:1b", "qwen")) as server:
        yield server


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _saved() -> Settings:
    preset = ProviderPreset(
        name="Mine", base_url="http://127.0.0.1:7/v1", model="saved-model", api_key=SecretStr("k")
    )
    return Settings().with_preset(preset)


async def test_saved_settings_win_over_environment_and_local(
    local_server: OpenAICompatServer,
) -> None:
    servers = [LocalServer("Ollama", local_server.port)]
    provider = await resolve_provider(_saved(), environ=ENV, local_servers=servers)
    assert provider is not None
    assert (provider.source, provider.model, provider.name) == ("settings", "saved-model", "Mine")


async def test_environment_wins_over_local_server(local_server: OpenAICompatServer) -> None:
    servers = [LocalServer("Ollama", local_server.port)]
    provider = await resolve_provider(Settings(), environ=ENV, local_servers=servers)
    assert provider is not None
    assert provider.source == "environment"
    assert provider.base_url == "http://127.0.0.1:9/v1"
    assert provider.model == "env-model"
    assert provider.api_key.get_secret_value() == "sk-env-secret-value"
    assert "sk-env-secret-value" not in repr(provider)


async def test_key_alone_means_openai_with_default_model() -> None:
    provider = await resolve_provider(Settings(), environ={"OPENAI_API_KEY": "k"}, local_servers=[])
    assert provider is not None
    assert provider.base_url == "https://api.openai.com/v1"
    assert provider.model == "gpt-4o-mini"


async def test_model_variable_alone_is_not_a_provider() -> None:
    assert (
        await resolve_provider(Settings(), environ={"DESKTOP_AGENT_MODEL": "m"}, local_servers=[])
        is None
    )


async def test_local_server_found_on_injected_port(local_server: OpenAICompatServer) -> None:
    servers = [LocalServer("Nothing", _closed_port()), LocalServer("LM Studio", local_server.port)]
    provider = await resolve_provider(Settings(), environ={}, local_servers=servers)
    assert provider is not None
    assert provider.source == "local"
    assert provider.name == "LM Studio"
    assert provider.base_url == f"http://127.0.0.1:{local_server.port}/v1"
    assert provider.model == "llama3.2:1b"
    assert [r.path for r in local_server.requests] == ["/v1/models"]


async def test_first_listed_server_wins_when_several_answer() -> None:
    with OpenAICompatServer(models=("a",)) as first, OpenAICompatServer(models=("b",)) as second:
        servers = [LocalServer("One", first.port), LocalServer("Two", second.port)]
        provider = await probe_local_servers(servers)
    assert provider is not None and provider.name == "One"


async def test_nothing_found_gives_none_quickly() -> None:
    servers = [LocalServer(f"s{i}", _closed_port()) for i in range(4)]
    assert await resolve_provider(Settings(), environ={}, local_servers=servers) is None


async def test_slow_server_is_given_up_after_the_timeout() -> None:
    with OpenAICompatServer() as server:
        server.models_reply = ScriptedReply.error(500, response_delay=2.0)
        provider = await probe_local_servers([LocalServer("Slow", server.port)], timeout=0.2)
    assert provider is None


async def test_fetch_model_ids_sends_the_key(local_server: OpenAICompatServer) -> None:
    ids = await fetch_model_ids(local_server.base_url, "sk-abc")
    assert ids == ["llama3.2:1b", "qwen"]
    assert local_server.requests[-1].headers["authorization"] == "Bearer sk-abc"


async def test_fetch_model_ids_reports_readable_errors() -> None:
    with OpenAICompatServer(api_key="right") as server:
        with pytest.raises(ModelListError, match="401"):
            await fetch_model_ids(server.base_url, "wrong")
    with pytest.raises(ModelListError, match="could not be reached"):
        await fetch_model_ids(f"http://127.0.0.1:{_closed_port()}/v1")
    with pytest.raises(ModelListError, match="http"):
        await fetch_model_ids("ftp://example/v1")


async def test_tests_outside_tests_ui_keep_a_plain_asyncio_loop() -> None:
    """The qasync loop factory of tests/ui/conftest.py does not leak into other folders."""
    import asyncio

    assert type(asyncio.get_running_loop()).__module__.startswith("asyncio")
