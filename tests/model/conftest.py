"""Fixtures: a loopback OpenAI-compatible server and models pointed at it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from desktop_agent.model import OpenAIChatModel
from desktop_agent.testing import OpenAICompatServer

ModelFactory = Callable[..., OpenAIChatModel]


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


@pytest.fixture
async def make_model(server: OpenAICompatServer) -> AsyncIterator[ModelFactory]:
    """``make_model(**kwargs)``: an ``OpenAIChatModel`` on ``server``, without retries."""
    models: list[OpenAIChatModel] = []

    def factory(model_name: str = "test-model", **kwargs: Any) -> OpenAIChatModel:
        client_kwargs = {"base_url": server.base_url, "max_retries": 0}
        client_kwargs.update(kwargs.pop("client_kwargs", {}))
        kwargs.setdefault("api_key", "test-key")
        model = OpenAIChatModel(model_name, client_kwargs=client_kwargs, **kwargs)
        models.append(model)
        return model

    yield factory
    for model in models:
        await model.aclose()
