"""``ScriptedChatModel``: a chat model that answers from a script, without any network.

For fast agent unit tests: queue what the model should answer (text, blocks, whole
``ChatResponse``s, exceptions, or functions of the call), run the agent, then inspect
``model.calls`` to see what the agent sent. With ``stream=True`` it yields *cumulative*
responses like a real streaming model, so printing and interruption paths run too.
"""

from __future__ import annotations

import asyncio
import copy
from collections import deque
from collections.abc import AsyncGenerator, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from desktop_agent.model import ChatModelBase, ChatResponse

if TYPE_CHECKING:
    from pydantic import BaseModel


@dataclass
class ModelCall:
    """One call a :class:`ScriptedChatModel` received.

    Attributes:
        messages: The formatted messages, as passed.
        tools: The tool schemas, or ``None``.
        tool_choice: The tool choice, or ``None``.
        structured_model: The pydantic model for structured output, or ``None``.
        kwargs: Any other keyword arguments.
    """

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    tool_choice: str | None = None
    structured_model: type[BaseModel] | None = None
    kwargs: dict[str, Any] = field(default_factory=dict)


ScriptedAnswer: TypeAlias = "ChatResponse | str | Sequence[dict[str, Any]] | BaseException"
ScriptedModelReply: TypeAlias = "ScriptedAnswer | Callable[[ModelCall], ScriptedAnswer]"


class ScriptedChatModel(ChatModelBase):
    """A chat model whose answers are scripted; records every call.

    Each call takes the next reply from the queue:

    - a ``str``: one text block;
    - a list of content blocks (``TextBlock``, ``ToolUseBlock``, ``ThinkingBlock``…);
    - a ``ChatResponse`` (its ``usage``/``metadata`` are kept);
    - an exception instance: raised by the call (e.g. ``ModelRateLimitError(...)``);
    - a function of the :class:`ModelCall` returning any of the above.

    Streaming splits text and thinking blocks into pieces of ``chunk_size`` characters
    (``None``: one piece per block) and yields cumulative ``ChatResponse``s sharing one id;
    ``usage`` and ``metadata`` ride on the last one.

    Args:
        replies: The initial queue.
        model_name: Reported ``model_name``.
        stream: Yield cumulative chunks instead of returning one response.
        default: Answer when the queue is empty; ``None`` raises ``LookupError``.
        chunk_size: Characters per streamed piece of text/thinking.
        chunk_delay: Seconds between streamed chunks (to test interruption).
        first_chunk_delay: Seconds before the first chunk (or the response).
    """

    def __init__(
        self,
        replies: Iterable[ScriptedModelReply] = (),
        *,
        model_name: str = "scripted-model",
        stream: bool = False,
        default: ScriptedModelReply | None = None,
        chunk_size: int | None = None,
        chunk_delay: float = 0.0,
        first_chunk_delay: float = 0.0,
    ) -> None:
        super().__init__(model_name, stream)
        self._replies: deque[ScriptedModelReply] = deque(replies)
        self.default = default
        self.chunk_size = chunk_size
        self.chunk_delay = chunk_delay
        self.first_chunk_delay = first_chunk_delay
        self.calls: list[ModelCall] = []

    def add_reply(self, *replies: ScriptedModelReply) -> None:
        """Queue more replies, in order."""
        self._replies.extend(replies)

    @property
    def pending_replies(self) -> int:
        """How many queued replies are still unused."""
        return len(self._replies)

    async def __call__(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        tool_choice: str | None = None,
        structured_model: type[BaseModel] | None = None,
        **kwargs: Any,
    ) -> ChatResponse | AsyncGenerator[ChatResponse, None]:
        """Record the call and answer with the next scripted reply.

        Raises:
            LookupError: The queue is empty and there is no ``default``.
            TypeError, ValueError: An invalid ``tool_choice`` (as a real model).
            BaseException: The scripted exception, if that is the reply.
        """
        if tool_choice is not None:
            self._validate_tool_choice("required" if tool_choice == "any" else tool_choice, tools)
        call = ModelCall(messages, tools, tool_choice, structured_model, dict(kwargs))
        self.calls.append(call)
        response = self._response(self._next_reply(call))
        if self.stream:
            return self._stream(response)
        if self.first_chunk_delay:
            await asyncio.sleep(self.first_chunk_delay)
        return response

    def _next_reply(self, call: ModelCall) -> ScriptedAnswer:
        if self._replies:
            reply = self._replies.popleft()
        elif self.default is not None:
            reply = self.default
        else:
            raise LookupError(
                f"ScriptedChatModel has no reply left for call #{len(self.calls)} "
                "(queue more with add_reply() or give a default)."
            )
        if callable(reply) and not isinstance(reply, BaseException | ChatResponse):
            return reply(call)
        return reply

    def _response(self, answer: ScriptedAnswer) -> ChatResponse:
        if isinstance(answer, BaseException):
            raise answer
        if isinstance(answer, ChatResponse):
            response = ChatResponse(
                content=copy.deepcopy(list(answer.content)),
                id=answer.id,
                created_at=answer.created_at,
                usage=answer.usage,
                metadata=copy.deepcopy(answer.metadata),
            )
            return response
        if isinstance(answer, str):
            return ChatResponse(content=[{"type": "text", "text": answer}])
        content: list[Any] = copy.deepcopy(list(answer))
        return ChatResponse(content=content)

    async def _stream(self, response: ChatResponse) -> AsyncGenerator[ChatResponse, None]:
        steps = list(_cumulative_contents(response.content, self.chunk_size))
        for index, content in enumerate(steps):
            delay = self.first_chunk_delay if index == 0 else self.chunk_delay
            if delay:
                await asyncio.sleep(delay)
            last = index == len(steps) - 1
            yield ChatResponse(
                content=content,
                id=response.id,
                created_at=response.created_at,
                usage=response.usage if last else None,
                metadata=response.metadata if last else None,
            )


def _cumulative_contents(blocks: Sequence[Any], chunk_size: int | None) -> Iterable[list[Any]]:
    done: list[Any] = []
    for block in blocks:
        key = {"text": "text", "thinking": "thinking"}.get(block.get("type"))
        if key is None or not block.get(key):
            done.append(block)
            yield list(done)
            continue
        whole = block[key]
        size = chunk_size or len(whole)
        for end in range(size, len(whole) + size, size):
            yield [*done, {**block, key: whole[:end]}]
        done.append(block)
