"""Running one tool call and turning whatever it does into a stream of ``ToolResponse``.

A tool may be sync or async and may return a response or a (sync or async) generator of
cumulative responses. Whatever it does — including being cancelled or raising — the caller
gets an async generator whose last chunk says how the call ended, so every ``tool_use`` in
the agent's memory gets its ``tool_result``.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncGenerator, Callable, Generator
from typing import Any

from desktop_agent._logging import logger
from desktop_agent.message import TextBlock, ToolUseBlock
from desktop_agent.tool._exceptions import ToolError
from desktop_agent.tool._response import ToolResponse
from desktop_agent.tool._types import PostprocessFunction

INTERRUPTED_TEXT = "<system-info>The tool call has been interrupted by the user.</system-info>"


def text_response(text: str, **fields: Any) -> ToolResponse:
    """A response holding one text block."""
    return ToolResponse(content=[TextBlock(type="text", text=text)], **fields)


def interrupted_response() -> ToolResponse:
    """The chunk that ends a call the user interrupted before it produced anything."""
    return text_response(INTERRUPTED_TEXT, stream=True, is_last=True, is_interrupted=True)


def error_text(exc: BaseException) -> str:
    """The text the model reads for an exception a tool raised."""
    if isinstance(exc, ToolError):
        return exc.to_text()
    return f"Error: {exc}"


def _report(exc: Exception, tool_name: str) -> None:
    if isinstance(exc, ToolError):
        logger.info("Tool %r reported: %s", tool_name, exc)
    else:
        logger.warning("Tool %r raised %s", tool_name, type(exc).__name__, exc_info=exc)


def _final_chunk(last: ToolResponse | None, text: str, *, interrupted: bool) -> ToolResponse:
    """Append ``text`` to the last (cumulative) chunk and mark it last, or start a fresh one."""
    if last is None:
        return interrupted_response() if interrupted else text_response(text)
    last.content.append(TextBlock(type="text", text=text))
    last.is_last = True
    last.is_interrupted = last.is_interrupted or interrupted
    return last


async def single(response: ToolResponse) -> AsyncGenerator[ToolResponse, None]:
    """A stream of exactly ``response``."""
    yield response


def _wrong_type_message(result: object) -> str:
    return (
        "The tool function must return a ToolResponse object, or an AsyncGenerator/Generator "
        f"of ToolResponse objects, but got {type(result)}."
    )


async def _postprocessed(
    chunk: object, tool_call: ToolUseBlock, postprocess: PostprocessFunction | None
) -> ToolResponse:
    if not isinstance(chunk, ToolResponse):
        raise TypeError(_wrong_type_message(chunk))
    if postprocess is None:
        return chunk
    replacement = postprocess(tool_call, chunk)
    if inspect.isawaitable(replacement):
        replacement = await replacement
    return replacement or chunk


async def _stream(
    source: AsyncGenerator[Any, None] | Generator[Any, None, None] | list[ToolResponse],
    tool_call: ToolUseBlock,
    postprocess: PostprocessFunction | None,
) -> AsyncGenerator[ToolResponse, None]:
    last: ToolResponse | None = None
    try:
        if isinstance(source, AsyncGenerator):
            async for chunk in source:
                last = await _postprocessed(chunk, tool_call, postprocess)
                yield last
        else:
            for chunk in source:
                last = await _postprocessed(chunk, tool_call, postprocess)
                yield last
    except asyncio.CancelledError:
        yield _final_chunk(last, INTERRUPTED_TEXT, interrupted=True)
    except Exception as exc:  # a tool's bug must not break the agent's turn
        _report(exc, tool_call["name"])
        yield _final_chunk(last, error_text(exc), interrupted=False)
    finally:
        if isinstance(source, AsyncGenerator):
            await source.aclose()
        elif isinstance(source, Generator):
            source.close()


def wrap_result(
    result: object, tool_call: ToolUseBlock, postprocess: PostprocessFunction | None
) -> AsyncGenerator[ToolResponse, None]:
    """The stream of chunks for what a tool returned.

    Deviation from AgentScope: a result of the wrong type does not raise ``TypeError`` into
    the agent; the stream holds one chunk ``"Error: <the TypeError message>"``.
    """
    if isinstance(result, AsyncGenerator | Generator):
        return _stream(result, tool_call, postprocess)
    if isinstance(result, ToolResponse):
        return _stream([result], tool_call, postprocess)
    message = _wrong_type_message(result)
    logger.error("Tool %r: %s", tool_call["name"], message)
    return single(text_response(f"Error: {message}"))


def arguments_mismatch(func: Callable[..., Any], kwargs: dict[str, Any]) -> str | None:
    """Why ``func(**kwargs)`` cannot be called (a sentence for the model), or ``None``.

    A model may send arguments that do not fit the signature (a missing required one, an
    unknown name); the call is then not made at all, instead of failing inside the tool.
    """
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):  # a builtin without a signature: let the call decide
        return None
    try:
        signature.bind(**kwargs)
    except TypeError as exc:
        params = signature.parameters
        problems = [f"missing the required argument {n!r}" for n in _missing(params, kwargs)]
        if not any(p.kind is p.VAR_KEYWORD for p in params.values()):
            named = {n for n, p in params.items() if p.kind in _NAMED}
            problems += [f"unexpected argument {n!r}" for n in kwargs if n not in named]
        detail = "; ".join(problems) or str(exc)
        return f"the arguments do not fit the tool ({detail}). The tool was not run."
    return None


_NAMED = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def _missing(params: Any, kwargs: dict[str, Any]) -> list[str]:
    return [
        name
        for name, param in params.items()
        if param.kind in _NAMED and param.default is param.empty and name not in kwargs
    ]


async def invoke(
    func: Callable[..., Any],
    kwargs: dict[str, Any],
    tool_call: ToolUseBlock,
    postprocess: PostprocessFunction | None,
) -> AsyncGenerator[ToolResponse, None]:
    """Call ``func(**kwargs)`` (awaiting it if needed) and return the stream of its chunks.

    A cancellation while awaiting becomes the interrupted chunk; an exception while calling
    becomes ``"Error: {e}"`` (a ``ToolError`` renders with its own label).
    """
    mismatch = arguments_mismatch(func, kwargs)
    if mismatch is not None:
        logger.info("Tool %r not called: %s", tool_call["name"], mismatch)
        return single(text_response(f"Error: {mismatch}"))
    try:
        result = func(**kwargs)
        if inspect.isawaitable(result):
            result = await result
    except asyncio.CancelledError:
        return single(interrupted_response())
    except Exception as exc:
        _report(exc, tool_call["name"])
        return single(text_response(error_text(exc)))
    return wrap_result(result, tool_call, postprocess)


async def collect(stream: AsyncGenerator[ToolResponse, None]) -> ToolResponse:
    """The final (cumulative) chunk of ``stream``."""
    last = ToolResponse(content=[])
    async for chunk in stream:
        last = chunk
    return last
