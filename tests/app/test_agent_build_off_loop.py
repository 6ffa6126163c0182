"""Rebuilding the agent (another model, new settings, a new session) never stalls the
window: the model client — which loads the CA bundle, ~50 ms — is built in a worker
thread, not on the event loop's (the GUI's) thread."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from pydantic import SecretStr

from desktop_agent.app import Provider, Settings, _agent_factory


async def test_the_model_client_is_built_off_the_loop_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    builders: list[threading.Thread] = []
    original = _agent_factory._metered_model

    def recording(*args: Any) -> Any:
        builders.append(threading.current_thread())
        return original(*args)

    monkeypatch.setattr(_agent_factory, "_metered_model", recording)
    provider = Provider("Test", "http://127.0.0.1:9/v1", "m", SecretStr(""), "environment")
    parts = await _agent_factory.build_agent_parts(provider, Settings())
    try:
        assert builders and builders[0] is not threading.current_thread()
        assert parts.model.model_name == "m"
    finally:
        await parts.aclose()
