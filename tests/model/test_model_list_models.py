"""list_models: provider discovery through GET /v1/models."""

from __future__ import annotations

import socket

import pytest

from desktop_agent.model import ModelAuthenticationError, ModelConnectionError, list_models
from desktop_agent.testing import OpenAICompatServer, ScriptedReply


async def test_lists_the_server_models_in_order() -> None:
    with OpenAICompatServer(models=["llama3", "qwen2.5", "mistral"]) as server:
        assert await list_models(server.base_url) == ["llama3", "qwen2.5", "mistral"]
        request = await server.wait_for_request()
    assert (request.method, request.path) == ("GET", "/v1/models")


async def test_wrong_key_is_an_authentication_error() -> None:
    with OpenAICompatServer(api_key="right") as server:
        with pytest.raises(ModelAuthenticationError):
            await list_models(server.base_url, api_key="wrong")
        assert await list_models(server.base_url, api_key="right") == ["test-model"]


async def test_scripted_error_on_the_models_endpoint() -> None:
    with OpenAICompatServer() as server:
        server.models_reply = ScriptedReply.error(401)
        with pytest.raises(ModelAuthenticationError):
            await list_models(server.base_url, api_key="k")


async def test_unreachable_server_is_a_connection_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(ModelConnectionError, match="connection refused"):
        await list_models(f"http://127.0.0.1:{port}/v1", timeout=2)
