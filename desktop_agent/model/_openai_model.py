"""``OpenAIChatModel``: any OpenAI-compatible chat-completions server.

Mirrors AgentScope 1.0.21's model on the official async SDK. Two decisions a reader
needs: ``openai`` is imported in the constructor, never at package import (it costs
~0.75 s, and the window must paint first); and SDK exceptions never escape — they
become :mod:`desktop_agent.model` errors (``raise ... from exc``), mid-stream included.

Streaming is built for a GUI sharing the event loop: the per-chunk cost is flat (see
``_openai_stream``), the generator returns control to the loop at least every ~8 ms even
when chunks are already buffered, and the HTTP stream is closed whenever the consumer
stops (end, error, ``aclose()`` or cancellation).
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any, Literal

from desktop_agent._logging import logger
from desktop_agent.model._exceptions import ModelError
from desktop_agent.model._model_base import TOOL_CHOICE_MODES, ChatModelBase
from desktop_agent.model._model_response import ChatResponse
from desktop_agent.model._openai_errors import translate_openai_error
from desktop_agent.model._openai_response import parse_completion
from desktop_agent.model._openai_sse import close_chunks, stream_chunks
from desktop_agent.model._openai_stream import Pacer, StreamAccumulator, unreadable_stream
from desktop_agent.model._response_checks import (
    UNUSABLE_CHUNK_ERRORS,
    check_chunk,
    check_event_stream,
    empty_stream,
    mask_secret,
    unusable_chunk,
)
from desktop_agent.model._structured_output import StructuredOutput

if TYPE_CHECKING:
    from pydantic import BaseModel


class OpenAIChatModel(ChatModelBase):
    """Chat model on the OpenAI chat-completions API (or any compatible server).

    The SDK's defaults apply unless ``client_kwargs`` says otherwise: 2 retries with
    backoff on connection errors, 408/409/429/5xx (honouring ``retry-after``), and a
    600 s read timeout. Pass e.g. ``client_kwargs={"base_url": ..., "max_retries": 0,
    "timeout": 30}`` to change them.
    """

    def __init__(
        self,
        model_name: str,
        api_key: str | None = None,
        stream: bool = True,
        reasoning_effort: str | None = None,
        organization: str | None = None,
        stream_tool_parsing: bool = True,
        client_type: Literal["openai", "azure"] = "openai",
        client_kwargs: dict[str, Any] | None = None,
        generate_kwargs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """Create the model and its ``openai`` async client.

        Args:
            model_name: The model id sent as ``model``.
            api_key: The API key; ``None`` lets the SDK read ``OPENAI_API_KEY``.
            stream: Return an async generator of cumulative responses.
            reasoning_effort: Sent as ``reasoning_effort`` unless a call overrides it.
            organization: The OpenAI organization id.
            stream_tool_parsing: Parse tool arguments on every chunk; otherwise inputs
                are ``{}`` until one extra final response.
            client_type: ``"openai"`` (``openai.AsyncClient``) or ``"azure"``
                (``openai.AsyncAzureOpenAI``).
            client_kwargs: Extra client arguments (``base_url``, ``timeout``, …).
            generate_kwargs: Extra request arguments for every call.
            **kwargs: ``client_args`` (deprecated alias of ``client_kwargs``); anything
                else is ignored with a warning.

        Raises:
            ValueError: Both ``client_args`` and ``client_kwargs``, or an unknown
                ``client_type``.
        """
        client_kwargs = _take_client_args(client_kwargs, kwargs)
        if kwargs:
            logger.warning(
                "Unknown keyword arguments %s for OpenAIChatModel are ignored.", sorted(kwargs)
            )
        if client_type not in ("openai", "azure"):
            raise ValueError(
                f"Invalid client_type {client_type!r}. Supported types: 'openai', 'azure'."
            )
        super().__init__(model_name, stream)
        self.reasoning_effort = reasoning_effort
        self.stream_tool_parsing = stream_tool_parsing
        self.generate_kwargs: dict[str, Any] = generate_kwargs or {}
        self._structured_output_fallback = False

        import openai  # ~0.7 s: loaded on first use

        client_class = openai.AsyncClient if client_type == "openai" else openai.AsyncAzureOpenAI
        self.client: Any = client_class(
            api_key=api_key, organization=organization, **(client_kwargs or {})
        )

    async def __call__(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        tool_choice: str | None = None,
        structured_model: type[BaseModel] | None = None,
        **kwargs: Any,
    ) -> ChatResponse | AsyncGenerator[ChatResponse, None]:
        """Send ``messages``; a ``ChatResponse``, or a generator of cumulative ones.

        Args:
            messages: OpenAI-format messages (e.g. from ``OpenAIChatFormatter``).
            tools: Tool JSON schemas, passed through.
            tool_choice: ``"auto"``, ``"none"``, ``"required"`` (``"any"`` is a deprecated
                alias) or the name of one of ``tools``.
            structured_model: A pydantic model the answer must follow; the result is in
                ``metadata``. Tools are not sent in this mode.
            **kwargs: Extra request arguments, overriding ``generate_kwargs``.

        Raises:
            ValueError: Malformed ``messages`` or an invalid ``tool_choice``.
            TypeError: ``tool_choice`` is not a str.
            ModelError: The call failed (see :mod:`desktop_agent.model`'s errors).
        """
        _check_messages(messages)
        request = self._build_request(messages, tools, tool_choice, kwargs)
        started = time.monotonic()
        if structured_model is not None:
            if tools or tool_choice:
                logger.warning("structured_model is given: tools and tool_choice are not sent.")
            return await StructuredOutput(self, structured_model).call(request, started)
        return await self._create(request, started)

    async def aclose(self) -> None:
        """Close the HTTP client (its pooled connections)."""
        await self.client.close()

    def _build_request(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        tool_choice: str | None,
        kwargs: dict[str, Any],
    ) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": self.model_name,
            "messages": messages,
            "stream": self.stream,
            **self.generate_kwargs,
            **kwargs,
        }
        if self.reasoning_effort and "reasoning_effort" not in request:
            request["reasoning_effort"] = self.reasoning_effort
        if tools:
            request["tools"] = tools
        if tool_choice is not None:
            request["tool_choice"] = self._tool_choice_param(tool_choice, tools)
        if request["stream"]:
            request["stream_options"] = {"include_usage": True}
        return request

    def _tool_choice_param(
        self, tool_choice: str, tools: list[dict[str, Any]] | None
    ) -> str | dict[str, Any]:
        if tool_choice == "any":
            logger.warning('tool_choice "any" is deprecated; use "required" instead.')
            tool_choice = "required"
        self._validate_tool_choice(tool_choice, tools)
        if tool_choice in TOOL_CHOICE_MODES:
            return tool_choice
        return {"type": "function", "function": {"name": tool_choice}}

    @property
    def base_url(self) -> str:
        """The server the client talks to (named in error messages)."""
        return str(self.client.base_url).rstrip("/")

    def audio_media_type(self, request: dict[str, Any]) -> str:
        """Media type of audio the model returns, from the request's ``audio.format``."""
        audio = request.get("audio")
        fmt = audio.get("format") if isinstance(audio, dict) else None
        return f"audio/{fmt or 'mp3'}"

    def translate(self, exc: BaseException, *, mid_stream: bool = False) -> Exception:
        """The :class:`ModelError` for an SDK exception (the API key masked in its text)."""
        error = translate_openai_error(
            exc, base_url=self.base_url, mid_stream=mid_stream, read_timeout=self._read_timeout()
        )
        return mask_secret(error, getattr(self.client, "api_key", None))

    def _read_timeout(self) -> float | None:
        timeout = getattr(self.client, "timeout", None)
        value = getattr(timeout, "read", timeout)
        return float(value) if isinstance(value, int | float) else None

    async def _create(
        self, request: dict[str, Any], started: float
    ) -> ChatResponse | AsyncGenerator[ChatResponse, None]:
        import openai  # ~0.7 s: loaded on first use

        try:
            response = await self.client.chat.completions.create(**_untransformed(request))
        except openai.OpenAIError as exc:
            raise self.translate(exc) from exc
        media_type = self.audio_media_type(request)
        if request["stream"]:
            accumulator = StreamAccumulator(
                started=started,
                stream_tool_parsing=self.stream_tool_parsing,
                audio_media_type=media_type,
            )
            try:
                await check_event_stream(response, self.base_url)
            except ModelError as exc:  # it quotes the page, which may echo the key
                await response.close()
                raise mask_secret(exc, getattr(self.client, "api_key", None)) from None
            except BaseException:
                await response.close()
                raise
            return self.stream_responses(response, accumulator)
        return parse_completion(response, started=started, audio_media_type=media_type)

    async def stream_responses(
        self, stream: Any, accumulator: StreamAccumulator
    ) -> AsyncGenerator[ChatResponse, None]:
        """Cumulative responses from an SDK ``AsyncStream`` of chunks; closes it at the end."""
        import openai  # ~0.7 s: loaded on first use

        pacer = Pacer()
        received = False
        chunks = stream_chunks(stream)  # dicts, not SDK models (see _openai_sse)
        try:
            async for chunk in chunks:
                received = True
                try:
                    fed = accumulator.feed(check_chunk(chunk))
                except UNUSABLE_CHUNK_ERRORS as exc:
                    raise unusable_chunk(exc) from exc
                if fed:
                    yield accumulator.response()
                if pacer.due():
                    await pacer.pause()
            if not received:
                raise empty_stream(self.base_url)
            final = accumulator.finish()
            if final is not None:
                yield final
        except openai.OpenAIError as exc:
            raise self.translate(exc, mid_stream=True) from exc
        except json.JSONDecodeError as exc:  # an SSE event that is not JSON
            raise unreadable_stream(exc) from exc
        except (UnicodeDecodeError, RecursionError) as exc:
            raise unusable_chunk(exc) from exc
        finally:
            try:
                await close_chunks(chunks)
            finally:
                await stream.close()


def _take_client_args(
    client_kwargs: dict[str, Any] | None, kwargs: dict[str, Any]
) -> dict[str, Any] | None:
    if "client_args" not in kwargs:
        return client_kwargs
    if client_kwargs is not None:
        raise ValueError("Pass either client_kwargs or the deprecated client_args, not both.")
    logger.warning("client_args is deprecated; use client_kwargs instead.")
    client_args: dict[str, Any] | None = kwargs.pop("client_args")
    return client_args


def _check_messages(messages: Any) -> None:
    if not isinstance(messages, list):
        raise ValueError(
            f"OpenAI `messages` field expected type `list`, got `{type(messages)}` instead."
        )
    for message in messages:
        if not isinstance(message, dict) or "role" not in message or "content" not in message:
            raise ValueError(
                "Each message in the 'messages' list must contain a 'role' and 'content' "
                f"key for OpenAI API, got {message!r}."
            )


# The SDK walks every request parameter through its TypedDict "transform" on the event loop:
# ~0.5 ms per message, i.e. a 5 s GUI freeze before a 10,000-message session's request is
# even sent. Our messages and tools are already wire-ready, so they travel in
# ``extra_body``, which the SDK merges over the transformed body unchanged.
_WIRE_READY = ("messages", "tools")


def _untransformed(request: dict[str, Any]) -> dict[str, Any]:
    """``request`` with the bulky wire-ready parameters moved into ``extra_body``."""
    kwargs = dict(request)
    extra_body = dict(kwargs.get("extra_body") or {})
    for key in _WIRE_READY:
        if key in kwargs and key not in extra_body:
            extra_body[key] = kwargs[key]
            kwargs[key] = []
    kwargs["extra_body"] = extra_body
    return kwargs
