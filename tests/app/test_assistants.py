"""Assistants: shipped ones, create/duplicate/edit/delete, JSON import/export, applied to a
chat (its name and system prompt reach the request) and recognized when a chat is opened."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from desktop_agent.app import ChatService, Conversation, Provider, Settings
from desktop_agent.app._assistants import Assistant, AssistantLibrary, apply_to_state
from desktop_agent.testing import OpenAICompatServer


def test_shipped_ones_and_the_users_own(tmp_path: Path) -> None:
    path = tmp_path / "assistants.json"
    library = AssistantLibrary(path)
    assert [a.name for a in library.all()] == ["Assistant", "Coder", "Writer", "Translator"]
    mine = library.save(Assistant(name="Chef", icon="🍳", system_prompt="You cook.", model="m2"))
    copy = library.duplicate(mine.id)
    assert copy.name == "Chef (copy)" and copy.id != mine.id
    library.save(library.get("coder").model_copy(update={"temperature": 0.0}))  # type: ignore[union-attr]
    again = AssistantLibrary(path)  # kept on disk, owner-only
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    names = [a.name for a in again.all()]
    assert names == ["Assistant", "Writer", "Translator", "Chef", "Chef (copy)", "Coder"]
    assert again.get("coder").temperature == 0.0  # type: ignore[union-attr]
    again.delete("coder")  # an edited shipped one: the shipped one comes back
    assert again.get("coder").temperature == 0.2  # type: ignore[union-attr]


def test_export_and_import(tmp_path: Path) -> None:
    library = AssistantLibrary(tmp_path / "a.json")
    exported = library.export_json("translator")
    assert json.loads(exported)["name"] == "Translator"
    imported = library.import_json(exported)
    assert imported.name == "Translator (copy)" and imported.system_prompt.startswith(
        "You translate"
    )
    other = AssistantLibrary(tmp_path / "b.json")
    chef = other.import_json(json.dumps({"name": "Chef", "system_prompt": "You cook."}))
    assert other.get(chef.id) == chef
    with pytest.raises(ValueError, match="not an assistant file"):
        other.import_json('{"icon": "x"}')
    with pytest.raises(ValueError, match="not an assistant file"):
        other.import_json("not json")


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


async def test_a_chat_with_an_assistant_sends_its_prompt(
    server: OpenAICompatServer, tmp_path: Path
) -> None:
    provider = Provider("Test", server.base_url, "test-model", SecretStr("k"), "environment")
    service = ChatService(Conversation(), Settings(), provider)
    library = AssistantLibrary(tmp_path / "a.json")
    coder = library.get("coder")
    assert coder is not None
    apply_to_state(coder, service.agent_state)
    await service.send("hi")
    system = server.chat_requests[-1].messages[0]
    assert system["role"] == "system" and "expert programmer" in str(system["content"])
    state = service.agent_state
    assert library.of_state(state.name, state.sys_prompt) == coder  # what a session restores
    writer = library.get("writer")
    assert writer is not None
    apply_to_state(writer, service.agent_state)  # switching in the middle of a chat
    await service.send("again")
    assert "careful editor" in str(server.chat_requests[-1].messages[0]["content"])
    await service.aclose()
