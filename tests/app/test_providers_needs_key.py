"""Discovery names a local server that answers 401 instead of skipping it silently."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from desktop_agent.app import LocalServer, Settings, discover
from desktop_agent.testing import OpenAICompatServer


@pytest.fixture
def locked_server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer(api_key="secret") as running:
        yield running


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_a_local_server_answering_401_is_reported(
    locked_server: OpenAICompatServer,
) -> None:
    servers = [
        LocalServer("Ollama", _closed_port()),
        LocalServer("LM Studio", locked_server.port),
    ]
    found = await discover(Settings(), environ={}, local_servers=servers)
    assert found.provider is None
    assert found.needs_key == (servers[1],)
    assert found.notes == [
        f"LM Studio on port {locked_server.port} needs an API key: enter it in Settings "
        f"(base URL http://127.0.0.1:{locked_server.port}/v1)."
    ]


async def test_a_working_server_still_wins_and_the_locked_one_is_named(
    locked_server: OpenAICompatServer,
) -> None:
    with OpenAICompatServer(models=["llama3"]) as open_server:
        servers = [
            LocalServer("LM Studio", locked_server.port),
            LocalServer("Ollama", open_server.port),
        ]
        found = await discover(Settings(), environ={}, local_servers=servers)
    assert found.provider is not None and found.provider.model == "llama3"
    assert [s.name for s in found.needs_key] == ["LM Studio"]
