"""Accumulating an OpenAI chat-completion stream into cumulative ``ChatResponse``s.

Every chunk with choices yields a response holding *everything so far*, in the block
order ``[Thinking?, Audio?, Text?, *ToolUse]`` (AgentScope's contract). The design
decision: per-chunk cost must not grow with the answer. Text accumulators are strings
grown in place (one ``memcpy`` per chunk, no re-joining of pieces), only the tool calls
that received a delta are re-parsed, and their parse is incremental.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from desktop_agent._utils import _pacing, timestamp_id, timestamp_now
from desktop_agent.model._exceptions import ModelResponseError
from desktop_agent.model._model_response import ChatResponse, ChatUsage
from desktop_agent.model._tool_arguments import StreamedToolCall

# Give a GUI sharing the loop a turn at least this often while draining buffered chunks
# (on the clock the agent's printing and the app's consumer share with it).
PAUSE_INTERVAL = _pacing.PAUSE_INTERVAL
# A cumulative response copies the whole text, so past this size (a 20 MB reply) pieces
# are collected and joined at most every LARGE_TEXT_INTERVAL s, or less often as the text
# grows (LARGE_TEXT_RATE characters copied per second at most): bounded time, no
# quadratic copying. Smaller replies still yield one response per chunk.
LARGE_TEXT_CHARS = 256 * 1024
LARGE_TEXT_INTERVAL = 0.05
LARGE_TEXT_RATE = 200e6


class Pacer:
    """Says when a stream consumer should ``await asyncio.sleep(0)``.

    When SSE data is already buffered, ``async for`` over the SDK stream completes its
    awaits without suspending, so a Qt GUI on the same loop would freeze; pausing every
    few ms keeps it responsive at a negligible cost. Without a ``clock``, the pauses are
    timed on the stream path's shared clock (``desktop_agent._utils._pacing``): a turn the
    agent or the app gave the loop counts, so one yield serves all three.

    Args:
        interval: Seconds between pauses (default ``PAUSE_INTERVAL``, 5 ms).
        clock: A time source of its own (tests); pauses are then timed on it alone.
    """

    __slots__ = ("_clock", "_interval", "_last")

    def __init__(
        self, interval: float | None = None, clock: Callable[[], float] | None = None
    ) -> None:
        self._interval = PAUSE_INTERVAL if interval is None else interval
        self._clock = clock
        self._last = clock() if clock is not None else 0.0

    def due(self) -> bool:
        """Whether ``interval`` passed since the last pause (which this call then records;
        on the shared clock, :func:`pause` records it)."""
        if self._clock is None:
            return _pacing.turn_due(self._interval)
        now = self._clock()
        if now - self._last < self._interval:
            return False
        self._last = now
        return True

    async def pause(self) -> None:
        """Give the event loop a turn."""
        if self._clock is None:
            await _pacing.give_turn()
        else:
            await asyncio.sleep(0)


class _ToolCallDelta:
    """A tool-call delta read from JSON, with the attributes of the SDK's model."""

    __slots__ = ("function", "id", "index")

    def __init__(self, raw: dict[str, Any]) -> None:
        self.index = raw.get("index")
        self.id = raw.get("id")
        function = raw.get("function")
        self.function = None if function is None else _FunctionDelta(function)


class _FunctionDelta:
    __slots__ = ("arguments", "name")

    def __init__(self, raw: dict[str, Any]) -> None:
        self.name = raw.get("name")
        self.arguments = raw.get("arguments")


def unreadable_stream(exc: Exception) -> ModelResponseError:
    """The error for a stream event that is not valid JSON."""
    return ModelResponseError(f"The model server sent a stream event that is not valid JSON: {exc}")


def field(obj: Any, name: str) -> Any:
    """``obj.name`` for SDK models (including extra fields) or ``obj[name]`` for dicts.

    A field a pydantic model lacks is looked up in its ``__pydantic_extra__`` first:
    ``getattr`` would go through ``BaseModel.__getattr__`` and a raised ``AttributeError``
    (a few microseconds, several times per streamed chunk).
    """
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    declared = getattr(obj, "__dict__", None)
    if declared is not None and name in declared:
        return declared[name]
    extra = getattr(obj, "__pydantic_extra__", None)
    if isinstance(extra, dict):
        return extra.get(name)
    return getattr(obj, name, None)


def reasoning_of(obj: Any) -> Any:
    """The reasoning text of a message or delta (``reasoning_content`` or ``reasoning``)."""
    value = field(obj, "reasoning_content")
    if value is None:
        value = field(obj, "reasoning")
    return value


def usage_of(raw_usage: Any, started: float) -> ChatUsage:
    """A :class:`ChatUsage` from the SDK's usage object; ``metadata`` keeps the raw object."""
    return ChatUsage(
        input_tokens=int(field(raw_usage, "prompt_tokens") or 0),
        output_tokens=int(field(raw_usage, "completion_tokens") or 0),
        time=time.monotonic() - started,
        metadata=raw_usage,
    )


class StreamAccumulator:
    """Folds chunks into cumulative ``ChatResponse``s.

    Args:
        started: ``time.monotonic()`` when the request was sent.
        stream_tool_parsing: Parse tool arguments on every chunk (else ``{}`` until the end).
        audio_media_type: Media type of streamed audio, e.g. ``"audio/mp3"``.
    """

    def __init__(self, *, started: float, stream_tool_parsing: bool, audio_media_type: str) -> None:
        self.started = started
        self.stream_tool_parsing = stream_tool_parsing
        self.audio_media_type = audio_media_type
        self.response_id: str | None = None
        self.created_at = timestamp_now()
        self.thinking = ""
        self.text = ""
        self.audio = ""
        self.tool_calls: dict[int, StreamedToolCall] = {}
        self.usage: ChatUsage | None = None
        self.metadata: dict[str, Any] | None = None
        self.finish_reason: str | None = None
        self.content: list[Any] = []
        self._first_chunk = True
        self._pending: dict[str, list[str]] = {"thinking": [], "text": [], "audio": []}
        self._joined_at = time.perf_counter()

    def feed(self, chunk: Any) -> bool:
        """Take one chunk (an SDK object, or the event's JSON as a dict); whether a new
        response should be yielded."""
        if type(chunk) is dict:
            return self._feed_dict(chunk)
        if self._first_chunk:
            self._first_chunk = False
            self.response_id = chunk.id or None
        if chunk.usage:
            self.usage = usage_of(chunk.usage, self.started)
        if not chunk.choices:
            joined = self._join()
            if joined:
                self.content = self._blocks()
            return (bool(chunk.usage) or joined) and bool(self.content)
        choice = chunk.choices[0]
        delta = getattr(choice, "delta", None)
        if delta is not None:
            self._take_delta(delta)
        finish_reason = getattr(choice, "finish_reason", None)
        if finish_reason:
            self.finish_reason = str(finish_reason)
            if self.stream_tool_parsing:
                for call in self.tool_calls.values():
                    call.finish()
        if not self._due(bool(finish_reason)):
            return False
        self.content = self._blocks()
        return bool(self.content)

    def _feed_dict(self, chunk: dict[str, Any]) -> bool:
        """:meth:`feed` for a chunk read straight from the event's JSON (no SDK model)."""
        if self._first_chunk:
            self._first_chunk = False
            self.response_id = chunk.get("id") or None
        usage = chunk.get("usage")
        if usage:
            self.usage = usage_of(usage, self.started)
        choices = chunk.get("choices")
        if not choices:
            joined = self._join()
            if joined:
                self.content = self._blocks()
            return (bool(usage) or joined) and bool(self.content)
        if not isinstance(choices, list):
            raise TypeError(f"its 'choices' is a {type(choices).__name__}, not a list")
        choice = choices[0]
        delta = choice.get("delta")
        if delta is not None:
            self._take_delta_dict(delta)
        finish_reason = choice.get("finish_reason")
        if finish_reason:
            self.finish_reason = str(finish_reason)
            if self.stream_tool_parsing:
                for call in self.tool_calls.values():
                    call.finish()
        if not self._due(bool(finish_reason)):
            return False
        self.content = self._blocks()
        return bool(self.content)

    def _take_delta_dict(self, delta: dict[str, Any]) -> None:
        get = delta.get
        reasoning = get("reasoning_content")
        if reasoning is None:
            reasoning = get("reasoning")
        if isinstance(reasoning, str):
            self._grow("thinking", reasoning)
        content = get("content")
        if content:
            if not isinstance(content, str):
                raise TypeError(f"its content is a {type(content).__name__}, not a string")
            self._grow("text", content)
        audio = get("audio")
        if audio is not None:
            self._take_audio(audio)
        tool_calls = get("tool_calls")
        if tool_calls:
            self._take_tool_calls([_ToolCallDelta(call) for call in tool_calls])

    def _grow(self, name: str, piece: str) -> None:
        """Append to ``thinking``, ``text`` or ``audio`` (collected once it is large)."""
        pending = self._pending[name]
        current: str = getattr(self, name)
        if pending or len(current) >= LARGE_TEXT_CHARS:
            pending.append(piece)
        else:
            setattr(self, name, current + piece)

    def _due(self, final: bool) -> bool:
        """Whether to build a response now; joins collected pieces if so."""
        if not any(self._pending.values()):
            return True
        now = time.perf_counter()
        size = len(self.thinking) + len(self.text) + len(self.audio)
        wait = max(LARGE_TEXT_INTERVAL, size / LARGE_TEXT_RATE)
        if not final and now - self._joined_at < wait:
            return False
        self._join()
        return True

    def _join(self) -> bool:
        """Join the collected pieces; whether there were any."""
        joined = False
        for name, pending in self._pending.items():
            if pending:  # one copy: the text so far and its new pieces, joined at once
                setattr(self, name, "".join([getattr(self, name), *pending]))
                pending.clear()
                joined = True
        self._joined_at = time.perf_counter()
        return joined

    def _take_delta(self, delta: Any) -> None:
        reasoning = reasoning_of(delta)
        if isinstance(reasoning, str):
            self._grow("thinking", reasoning)
        content = delta.content
        if content:
            self._grow("text", content)
        audio = field(delta, "audio")
        if audio is not None:
            self._take_audio(audio)
        tool_calls = delta.tool_calls
        if tool_calls:
            self._take_tool_calls(tool_calls)

    def _take_audio(self, audio: Any) -> None:
        data = field(audio, "data")
        if data:
            self._grow("audio", data)
        transcript = field(audio, "transcript")
        if transcript:
            self._grow("text", transcript)

    def _take_tool_calls(self, tool_calls: Any) -> None:
        changed: list[StreamedToolCall] = []
        for delta in tool_calls:
            function = delta.function
            arguments = (function.arguments if function is not None else None) or ""
            call = self.tool_calls.get(delta.index)
            if call is None:
                name = (function.name if function is not None else None) or ""
                call = StreamedToolCall(delta.id or "", name, arguments)
                self.tool_calls[delta.index] = call
            else:
                if delta.id and not call.id:
                    call.id = delta.id
                if arguments:
                    call.append(arguments)
            changed.append(call)
        if self.stream_tool_parsing:
            for call in changed:
                call.refresh()

    def _blocks(self) -> list[Any]:
        blocks: list[Any] = []
        if self.thinking:
            blocks.append({"type": "thinking", "thinking": self.thinking})
        if self.audio:
            source = {"type": "base64", "media_type": self.audio_media_type, "data": self.audio}
            blocks.append({"type": "audio", "source": source})
        if self.text:
            blocks.append({"type": "text", "text": self.text})
        parsing = self.stream_tool_parsing
        for call in self.tool_calls.values():
            blocks.append(
                {
                    "type": "tool_use",
                    "id": call.id,
                    "name": call.name,
                    "input": call.input if parsing else {},
                    "raw_input": call.raw,
                }
            )
        return blocks

    def response(self) -> ChatResponse:
        """The cumulative response for the current state."""
        if self.response_id is None:
            self.response_id = timestamp_id()
        return ChatResponse(
            content=self.content,
            id=self.response_id,
            created_at=self.created_at,
            usage=self.usage,
            metadata=self.metadata,
            finish_reason=self.finish_reason,
        )

    def finish(self) -> ChatResponse | None:
        """After the last chunk: one more response if the final tool inputs changed.

        Without ``stream_tool_parsing`` that is the one response carrying parsed inputs.
        A large text's last collected pieces are joined into one more response too.
        """
        flushed = self._join()
        if flushed:
            self.content = self._blocks()
        changed = [call.finish() for call in self.tool_calls.values()]
        if not any(changed) and self.stream_tool_parsing:
            return self.response() if flushed else None
        if not self.tool_calls:
            return self.response() if flushed else None
        self.stream_tool_parsing = True
        self.content = self._blocks()
        return self.response()
