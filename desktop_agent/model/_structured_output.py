"""Structured output for ``OpenAIChatModel``: native ``response_format``, else a forced tool.

First the SDK's ``parse()`` (or ``stream()``) with ``response_format=<pydantic model>``;
the validated object's ``model_dump()`` becomes the response ``metadata``. Many
compatible servers reject ``response_format`` or answer with something that does not
validate: then the model falls back *permanently* (``_structured_output_fallback``) to
a forced call of a ``generate_structured_output`` tool whose parameters are the model's
JSON schema without pydantic's ``title`` keys, and ``metadata`` is the arguments of the
tool call the server returned, whatever its name (the tool-use block stays in
``content``). If the server rejects the forced ``tool_choice`` — with an HTTP 400, or with
an error event as the first read of the stream — the request is sent once more with
``tool_choice="auto"``.

When a native stream fails validation only at its end, the fallback request streams
from the start again: consumers see the cumulative content restart.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any, cast

from desktop_agent._logging import logger
from desktop_agent.model._exceptions import ModelAPIError, ModelRateLimitError
from desktop_agent.model._model_response import ChatResponse
from desktop_agent.model._openai_response import parse_completion
from desktop_agent.model._openai_stream import Pacer, StreamAccumulator, unreadable_stream

if TYPE_CHECKING:
    from pydantic import BaseModel

    from desktop_agent.model._openai_model import OpenAIChatModel

STRUCTURED_OUTPUT_TOOL = "generate_structured_output"
_NATIVE_DROPPED = ("stream", "tools", "tool_choice")


class _NativeUnsupported(Exception):
    """The server cannot do ``response_format`` structured output."""


class StructuredOutput:
    """One structured-output call of ``model`` for ``structured_model``."""

    def __init__(self, model: OpenAIChatModel, structured_model: type[BaseModel]) -> None:
        self.model = model
        self.structured_model = structured_model

    async def call(
        self, request: dict[str, Any], started: float
    ) -> ChatResponse | AsyncGenerator[ChatResponse, None]:
        """The response(s) with the structured output in ``metadata``."""
        if not self.model._structured_output_fallback:
            try:
                return await self._native(request, started)
            except _NativeUnsupported:
                self._fall_back()
        return await self._with_tool(request, started)

    def _fall_back(self) -> None:
        logger.warning(
            "The server does not support structured output via response_format; "
            "using a forced %s tool call from now on.",
            STRUCTURED_OUTPUT_TOOL,
        )
        self.model._structured_output_fallback = True

    async def _native(
        self, request: dict[str, Any], started: float
    ) -> ChatResponse | AsyncGenerator[ChatResponse, None]:
        import openai  # ~0.7 s: loaded on first use

        kwargs = {k: v for k, v in request.items() if k not in _NATIVE_DROPPED}
        completions = self.model.client.chat.completions
        try:
            if request["stream"]:
                manager = completions.stream(response_format=self.structured_model, **kwargs)
                stream = await manager.__aenter__()
                return self._native_stream(stream, request, started)
            kwargs.pop("stream_options", None)
            response = await completions.parse(response_format=self.structured_model, **kwargs)
        except openai.BadRequestError as exc:
            raise _NativeUnsupported from exc
        except openai.OpenAIError as exc:
            raise self.model.translate(exc) from exc
        except ValueError as exc:  # pydantic.ValidationError: the answer does not validate
            raise _NativeUnsupported from exc
        return self._native_result(response, request, started)

    def _native_result(
        self, response: Any, request: dict[str, Any], started: float
    ) -> ChatResponse:
        parsed = response.choices[0].message.parsed if response.choices else None
        if not isinstance(parsed, self.structured_model):
            raise _NativeUnsupported
        media_type = self.model.audio_media_type(request)
        result = parse_completion(response, started=started, audio_media_type=media_type)
        result.metadata = parsed.model_dump()
        return result

    async def _native_stream(
        self, stream: Any, request: dict[str, Any], started: float
    ) -> AsyncGenerator[ChatResponse, None]:
        import openai  # ~0.7 s: loaded on first use

        accumulator = self._accumulator(request, started)
        pacer = Pacer()
        try:
            async for event in stream:
                if event.type != "chunk":
                    continue
                self._take_parsed(event.snapshot, accumulator)
                if accumulator.feed(event.chunk):
                    yield accumulator.response()
                if pacer.due():
                    await pacer.pause()
        except openai.OpenAIError as exc:
            raise self.model.translate(exc, mid_stream=True) from exc
        except ValueError as exc:  # pydantic.ValidationError, or an event that is not JSON
            if isinstance(exc, json.JSONDecodeError):
                raise unreadable_stream(exc) from exc
            accumulator.metadata = None
        finally:
            await stream.close()
        if accumulator.metadata is None:
            self._fall_back()
            responses = cast(
                AsyncGenerator[ChatResponse, None], await self._with_tool(request, started)
            )
            try:
                async for response in responses:
                    yield response
            finally:
                await responses.aclose()

    def _take_parsed(self, snapshot: Any, accumulator: StreamAccumulator) -> None:
        if accumulator.metadata is not None or not snapshot.choices:
            return
        parsed = snapshot.choices[0].message.parsed
        if isinstance(parsed, self.structured_model):
            accumulator.metadata = parsed.model_dump()

    def _accumulator(self, request: dict[str, Any], started: float) -> StreamAccumulator:
        return StreamAccumulator(
            started=started,
            stream_tool_parsing=self.model.stream_tool_parsing,
            audio_media_type=self.model.audio_media_type(request),
        )

    async def _with_tool(
        self, request: dict[str, Any], started: float
    ) -> ChatResponse | AsyncGenerator[ChatResponse, None]:
        request = {**request, "tools": [self._tool_schema()]}
        request["tool_choice"] = {"type": "function", "function": {"name": STRUCTURED_OUTPUT_TOOL}}
        try:
            result = await self._create_and_read_first(request, started)
        except ModelAPIError as exc:
            if not _may_reject_tool_choice(exc):
                raise
            logger.info("The server rejected the forced tool_choice (%s); retrying with auto.", exc)
            request["tool_choice"] = "auto"
            result = await self._create_and_read_first(request, started)
        if isinstance(result, ChatResponse):
            result.metadata = _tool_arguments(result.content)
            return result
        return _with_tool_metadata(result)

    async def _create_and_read_first(
        self, request: dict[str, Any], started: float
    ) -> ChatResponse | AsyncGenerator[ChatResponse, None]:
        """``_create``, and for a stream its first response read already, so that an error
        event the server sends instead of an answer is raised here."""
        result = await self.model._create(request, started)
        if isinstance(result, ChatResponse):
            return result
        try:
            first = await anext(result)
        except StopAsyncIteration:
            return _replay(None, result)
        except BaseException:
            await result.aclose()
            raise
        return _replay(first, result)

    def _tool_schema(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": STRUCTURED_OUTPUT_TOOL,
                "description": "Generate the required structured output with this function.",
                "parameters": _without_titles(self.structured_model.model_json_schema()),
            },
        }


def _may_reject_tool_choice(exc: ModelAPIError) -> bool:
    """An HTTP 400, or an error event in place of the stream's first chunk."""
    if isinstance(exc, ModelRateLimitError):
        return False
    return exc.status_code in (400, None)


async def _replay(
    first: ChatResponse | None, rest: AsyncGenerator[ChatResponse, None]
) -> AsyncGenerator[ChatResponse, None]:
    try:
        if first is not None:
            yield first
        async for response in rest:
            yield response
    finally:
        await rest.aclose()


_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_NODES = ("items", "additionalProperties", "not", "contains")


def _without_titles(schema: Any) -> Any:
    """``schema`` with pydantic's ``title`` keys removed at every level (a *property*
    named ``title`` stays). Same rule as the toolkit's schemas, which this package may
    not import (independent layers)."""
    if not isinstance(schema, dict):
        return schema
    cleaned = {key: value for key, value in schema.items() if key != "title"}
    for key in _SCHEMA_MAPS:
        if isinstance(cleaned.get(key), dict):
            cleaned[key] = {name: _without_titles(sub) for name, sub in cleaned[key].items()}
    for key in _SCHEMA_LISTS:
        if isinstance(cleaned.get(key), list):
            cleaned[key] = [_without_titles(sub) for sub in cleaned[key]]
    for key in _SCHEMA_NODES:
        if isinstance(cleaned.get(key), dict):
            cleaned[key] = _without_titles(cleaned[key])
    return cleaned


def _tool_arguments(content: Any) -> dict[str, Any] | None:
    """The arguments of the (first) tool call in ``content``, whatever its name."""
    for block in content:
        if block.get("type") == "tool_use":
            return dict(block.get("input") or {})
    return None


async def _with_tool_metadata(
    responses: AsyncGenerator[ChatResponse, None],
) -> AsyncGenerator[ChatResponse, None]:
    try:
        async for response in responses:
            response.metadata = _tool_arguments(response.content)
            yield response
    finally:
        await responses.aclose()
