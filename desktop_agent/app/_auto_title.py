"""Titles the model proposes: after a chat's first answer, one small non-streaming request
("a title of at most six words") replaces the title taken from the first message — unless
the user renamed the chat (``SessionLibrary.refine_title`` keeps a custom title), or
``Settings.auto_title`` is off. A failed request changes nothing (the chat keeps its title).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from desktop_agent._logging import logger
from desktop_agent.app._agent_factory import NO_KEY
from desktop_agent.app._providers import Provider
from desktop_agent.app._turn_events import TurnEvent, TurnFinished

if TYPE_CHECKING:
    from desktop_agent.app._session_switcher import SessionSwitcher

TITLE_PROMPT = (
    "Propose a short title (at most six words) for the conversation below. "
    "Answer with the title only: no quotes, no punctuation at the end."
)
MAX_TITLE = 60
EXCERPT = 1500
TIMEOUT = 20.0


def clean_title(text: str) -> str:
    """The first line of a model's answer, without quotes, a "Title:" label or a final dot."""
    line = next((ln for ln in text.strip().splitlines() if ln.strip()), "").strip()
    if line.casefold().startswith("title:"):
        line = line[6:].strip()
    line = line.strip("\"'“”‘’*#` ").rstrip(".").strip()
    return line[:MAX_TITLE].rstrip()


async def propose_title(provider: Provider, question: str, answer: str) -> str:
    """One small request: a title for the exchange (``""`` if the model gave none)."""
    from desktop_agent.model import OpenAIChatModel  # the agent core loads after first paint

    # The client loads the CA bundle (~50 ms): in a worker thread, as the agent's model.
    model = await asyncio.to_thread(
        OpenAIChatModel,
        provider.model,
        api_key=provider.api_key.get_secret_value() or NO_KEY,
        stream=False,
        client_kwargs={"base_url": provider.base_url, "max_retries": 0, "timeout": TIMEOUT},
        generate_kwargs={"max_tokens": 24, "temperature": 0.2},
    )
    exchange = f"User: {question[:EXCERPT]}\n\nAssistant: {answer[:EXCERPT]}"
    try:
        response: Any = await model(
            [{"role": "system", "content": TITLE_PROMPT}, {"role": "user", "content": exchange}]
        )
    finally:
        await model.aclose()
    text = "".join(str(b.get("text", "")) for b in response.content if b.get("type") == "text")
    return clean_title(text)


class AutoTitler:
    """Asks for a title after the first answer of each new chat.

    Args:
        switcher: The session switcher (its service, conversation and library).
    """

    def __init__(self, switcher: SessionSwitcher) -> None:
        self._switcher = switcher
        self._tasks: set[asyncio.Task[None]] = set()
        switcher.service.subscribe(self._on_turn_event)

    def _on_turn_event(self, event: TurnEvent) -> None:
        service = self._switcher.service
        if not isinstance(event, TurnFinished) or event.cut_off:
            return
        if not service.settings.auto_title or service.provider is None:
            return
        messages = [e.msg for e in self._switcher.conversation.entries if e.msg is not None]
        users = [m for m in messages if m.role == "user"]
        answers = [m for m in messages if m.role == "assistant"]
        if len(users) != 1 or not answers:
            return  # not the first exchange
        question = users[0].get_text_content() or ""
        answer = answers[-1].get_text_content() or ""
        task = asyncio.get_running_loop().create_task(
            self._retitle(service.provider, question, answer), name="auto-title"
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _retitle(self, provider: Provider, question: str, answer: str) -> None:
        switcher = self._switcher
        for _ in range(100):  # the session is created with the first message: let it exist
            if switcher.active_id is not None and switcher.library is not None:
                break
            await asyncio.sleep(0.05)
        session_id, library = switcher.active_id, switcher.library
        if session_id is None or library is None or switcher.read_only:
            return
        try:
            title = await propose_title(provider, question, answer)
            if title:
                await library.refine_title(session_id, title)
        except Exception as exc:  # a title is a nicety: never an error for the user
            logger.info("No title from the model: %s", exc)

    async def aclose(self) -> None:
        """Cancel a title request still running."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=2.0)
