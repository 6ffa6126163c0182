"""Model-proposed titles: one small request after a chat's first answer; the user's rename
wins; off by a setting."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from desktop_agent.app import ChatService, Conversation, Provider, SessionSwitcher, Settings
from desktop_agent.app._auto_title import TITLE_PROMPT, AutoTitler, clean_title
from desktop_agent.testing import OpenAICompatServer, RecordedRequest, ScriptedReply


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


def _answer(request: RecordedRequest) -> ScriptedReply | str:
    system = str(request.messages[0].get("content", ""))
    if TITLE_PROMPT in system:  # slow: a rename can come first
        return ScriptedReply('"Paris Weather In Spring."', response_delay=0.3)
    return "It is mild and often rainy."


async def _chat(server: OpenAICompatServer, home: Path, settings: Settings) -> SessionSwitcher:
    provider = Provider("Test", server.base_url, "test-model", SecretStr("k"), "environment")
    conversation = Conversation()
    service = ChatService(conversation, settings, provider)
    switcher = SessionSwitcher(service, conversation, root=home)
    await switcher.start()
    return switcher


async def _title(switcher: SessionSwitcher) -> str:
    assert switcher.library is not None
    rows = await switcher.library.list()
    return rows[0].title


async def _close(switcher: SessionSwitcher, titler: AutoTitler) -> None:
    await titler.aclose()
    await switcher.service.aclose()
    await switcher.aclose()


def _title_requests(server: OpenAICompatServer) -> list[RecordedRequest]:
    return [r for r in server.chat_requests if TITLE_PROMPT in str(r.messages[0]["content"])]


async def _until_title_requests(server: OpenAICompatServer, count: int) -> None:
    for _ in range(500):
        if len(_title_requests(server)) >= count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("no title request")


async def test_the_model_titles_the_chat_after_its_first_answer(
    server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    server.default_reply = _answer
    switcher = await _chat(server, desktop_agent_home, Settings(auto_title=True))
    titler = AutoTitler(switcher)
    await switcher.service.send("what is the weather like in paris in april, usually?")
    for _ in range(500):
        if await _title(switcher) == "Paris Weather In Spring":
            break
        await asyncio.sleep(0.01)
    assert await _title(switcher) == "Paris Weather In Spring"
    request = _title_requests(server)[0]
    assert request.body["stream"] is False and request.body["max_tokens"] == 24
    await switcher.service.send("and in may?")  # not the first answer: no second request
    await asyncio.sleep(0.2)
    assert len(_title_requests(server)) == 1
    await _close(switcher, titler)


async def test_the_users_rename_wins(server: OpenAICompatServer, desktop_agent_home: Path) -> None:
    server.default_reply = _answer
    switcher = await _chat(server, desktop_agent_home, Settings(auto_title=True))
    titler = AutoTitler(switcher)
    await switcher.service.send("weather?")
    await _until_title_requests(server, 1)  # the title is on its way (0.3 s)
    assert switcher.active_id is not None
    await switcher.rename(switcher.active_id, "My trip")
    await asyncio.sleep(0.5)
    assert await _title(switcher) == "My trip"
    await _close(switcher, titler)


async def test_off_by_the_setting(server: OpenAICompatServer, desktop_agent_home: Path) -> None:
    server.default_reply = _answer
    switcher = await _chat(server, desktop_agent_home, Settings(auto_title=False))
    titler = AutoTitler(switcher)
    await switcher.service.send("weather?")
    await asyncio.sleep(0.3)
    assert _title_requests(server) == []
    assert await _title(switcher) == "weather?"
    await _close(switcher, titler)


def test_clean_title() -> None:
    assert clean_title('Title: "Planning a Trip."\nmore') == "Planning a Trip"
    assert clean_title("**Rust lifetimes**") == "Rust lifetimes"
