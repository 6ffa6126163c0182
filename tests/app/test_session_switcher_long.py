"""Opening a long session shows its last rows first, then puts the older ones in front;
the chat works in between, and a chat replaced in between does not get them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from desktop_agent.app import (
    ChatService,
    Conversation,
    ConversationEvent,
    Inserted,
    Provider,
    Reset,
    SessionSwitcher,
    Settings,
)
from desktop_agent.app._agent_state import AgentState
from desktop_agent.app._session_restore import TAIL_ROWS
from desktop_agent.app.library import SessionLibrary
from desktop_agent.message import Msg
from desktop_agent.testing import OpenAICompatServer, ScriptedReply

TURNS = 600  # 1,200 messages: six times the rows shown first


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


@pytest.fixture
async def switcher(
    server: OpenAICompatServer, desktop_agent_home: Path
) -> AsyncIterator[SessionSwitcher]:
    provider = Provider("Test", server.base_url, "test-model", SecretStr("k"), "environment")
    conversation = Conversation()
    service = ChatService(conversation, Settings(), provider)
    made = SessionSwitcher(service, conversation, root=desktop_agent_home)
    await made.start()
    yield made
    await service.aclose()
    await made.aclose()


async def _long_session(root: Path) -> tuple[str, list[str]]:
    library = SessionLibrary(root)
    state = AgentState("You are a test.")
    texts: list[str] = []
    for number in range(TURNS):
        texts += [f"question {number}", f"answer {number}"]
        await state.memory.add(Msg("User", texts[-2], "user"))
        await state.memory.add(Msg("Friday", texts[-1], "assistant"))
    session_id = await library.create(title="Long", model="test-model")
    await library.save(session_id, agent=state)
    await library.close_all()
    return session_id, texts


def _texts(conversation: Conversation) -> list[str]:
    return [e.msg.get_text_content() or "" for e in conversation.entries if e.msg is not None]


async def _open_doing(
    switcher: SessionSwitcher, session_id: str, action: Callable[[], asyncio.Future[None]]
) -> asyncio.Future[None]:
    """Open the session, running ``action`` as soon as its last rows are shown (before
    the older ones come); what ``action`` started."""
    conversation = switcher.conversation
    started: list[asyncio.Future[None]] = []

    def on_event(event: ConversationEvent) -> None:
        if isinstance(event, Reset) and conversation.older_pending:
            started.append(action())

    unsubscribe = conversation.subscribe(on_event)
    await switcher.open(session_id)
    unsubscribe()
    return started[0]


async def test_the_last_rows_come_first_then_the_older_ones_in_front(
    switcher: SessionSwitcher, desktop_agent_home: Path
) -> None:
    session_id, texts = await _long_session(desktop_agent_home)
    conversation = switcher.conversation
    shown_first: list[list[str]] = []
    events: list[ConversationEvent] = []

    def on_event(event: ConversationEvent) -> None:
        events.append(event)
        if isinstance(event, Reset):
            shown_first.append(_texts(conversation))

    conversation.subscribe(on_event)
    await switcher.open(session_id)

    (first,) = shown_first
    assert TAIL_ROWS <= len(first) <= TAIL_ROWS + 1
    assert first == texts[-len(first) :] and first[0].startswith("question")
    assert events[1:] == [Inserted(0, len(texts) - len(first))]
    assert _texts(conversation) == texts
    assert not conversation.older_pending


async def test_a_message_sent_meanwhile_follows_the_whole_history(
    switcher: SessionSwitcher, server: OpenAICompatServer, desktop_agent_home: Path
) -> None:
    session_id, texts = await _long_session(desktop_agent_home)
    conversation, service = switcher.conversation, switcher.service
    server.add_reply(ScriptedReply("One more answer."))
    sent = await _open_doing(switcher, session_id, lambda: service.send("and one more?"))
    await asyncio.wait_for(sent, 10)

    assert _texts(conversation) == [*texts, "and one more?", "One more answer."]
    request: Any = server.chat_requests[-1]
    contents = [str(message["content"]) for message in request.messages]
    assert any("question 0" in content for content in contents)  # the whole history went
    assert [m.get_text_content() for m in await service.memory.get_memory()] == _texts(conversation)


async def test_a_chat_replaced_meanwhile_does_not_get_the_older_rows(
    switcher: SessionSwitcher, desktop_agent_home: Path
) -> None:
    session_id, _texts_saved = await _long_session(desktop_agent_home)
    conversation, service = switcher.conversation, switcher.service
    replaced = await _open_doing(
        switcher, session_id, lambda: asyncio.ensure_future(service.new_conversation())
    )
    await replaced
    assert len(conversation) == 0 and not conversation.older_pending
