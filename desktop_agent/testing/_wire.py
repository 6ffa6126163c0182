"""The OpenAI chat-completions wire format of a :class:`ScriptedReply`.

Streamed replies are produced lazily as already-encoded SSE events (``data: {...}``),
in the order a real server sends them: a role delta, reasoning, content, audio, the tool
calls one by one (id and name first, then argument pieces), the finish chunk, the usage
chunk (when ``stream_options.include_usage``), and ``data: [DONE]``. Chunk objects share
one pre-encoded envelope, so the server can flood a client at many thousand chunks/s.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator, Sequence
from typing import Any

from desktop_agent.testing._scripted_reply import ScriptedReply

DONE_EVENT = b"data: [DONE]\n\n"


def split(value: str | Sequence[str], size: int) -> list[str]:
    """``value`` as deltas: explicit pieces as given, a string cut every ``size`` chars."""
    if not isinstance(value, str):
        return [piece for piece in value if piece]
    return [value[i : i + size] for i in range(0, len(value), size)]


def joined(value: str | Sequence[str]) -> str:
    """The whole text of ``value``."""
    return value if isinstance(value, str) else "".join(value)


def sse(payload: Any) -> bytes:
    """One SSE event; a str or bytes payload is sent as is."""
    if isinstance(payload, bytes):
        return b"data: " + payload + b"\n\n"
    data = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return b"data: " + data.encode() + b"\n\n"


class CompletionEncoder:
    """Encodes one reply to one request (shared id, model and creation time)."""

    def __init__(self, reply: ScriptedReply, request_body: dict[str, Any]) -> None:
        self.reply = reply
        self.request_body = request_body
        self.id = reply.id or f"chatcmpl-{secrets.token_hex(12)}"
        self.model = reply.model or str(request_body.get("model") or "test-model")
        self.created = int(time.time())
        envelope = json.dumps(
            {"id": self.id, "object": "chat.completion.chunk", "created": self.created}
        )[:-1]
        self._prefix = (
            f'data: {envelope}, "model": {json.dumps(self.model)}, "system_fingerprint": null, '
            '"choices": [{"index": 0, "delta": '
        ).encode()

    def usage(self) -> dict[str, int] | None:
        """The usage object of this reply, or ``None``."""
        usage = self.reply.usage
        if usage is None:
            return None
        if usage != "auto":
            data = {"prompt_tokens": 0, "completion_tokens": 0, **dict(usage)}
        else:
            data = {
                "prompt_tokens": _estimate_tokens(json.dumps(self.request_body.get("messages"))),
                "completion_tokens": _estimate_tokens(self._output_text()),
            }
        data.setdefault("total_tokens", data["prompt_tokens"] + data["completion_tokens"])
        return data

    def _output_text(self) -> str:
        reply = self.reply
        parts = [joined(reply.text), joined(reply.reasoning)]
        parts += [call.arguments_text for call in reply.scripted_tool_calls()]
        return "".join(parts)

    # -- streamed -----------------------------------------------------------------------

    def events(self, include_usage: bool) -> Iterator[bytes]:
        """The SSE events of the streamed reply (``[DONE]`` included)."""
        reply = self.reply
        if reply.raw_events is not None:
            yield from (sse(event) for event in reply.raw_events)
        else:
            yield self._delta({"role": "assistant", "content": ""})
            for piece in split(reply.reasoning, reply.chunk_size):
                yield self._delta({reply.reasoning_field: piece})
            for piece in split(reply.text, reply.chunk_size):
                yield self._delta({"content": piece})
            yield from self._audio_events()
            yield from self._tool_call_events()
            if reply.send_finish:
                yield self._delta({}, reply.resolved_finish_reason())
                usage = self.usage() if include_usage else None
                if usage is not None:
                    yield sse(self._usage_chunk(usage))
        if reply.send_done:
            yield DONE_EVENT

    def error_event(self) -> bytes:
        """An error event in the middle of a stream."""
        body = self.reply.error_body or {
            "message": "Scripted error in the middle of the stream.",
            "type": "server_error",
            "code": None,
        }
        return sse({"error": body})

    def _delta(self, delta: dict[str, Any], finish_reason: str | None = None) -> bytes:
        finish = json.dumps(finish_reason)
        return (
            self._prefix
            + json.dumps(delta, ensure_ascii=False).encode()
            + f', "logprobs": null, "finish_reason": {finish}}}]}}\n\n'.encode()
        )

    def _usage_chunk(self, usage: dict[str, int]) -> dict[str, Any]:
        return {
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "choices": [],
            "usage": usage,
        }

    def _audio_events(self) -> Iterator[bytes]:
        audio = self.reply.audio
        if audio is None:
            return
        size = self.reply.chunk_size
        yield self._delta({"audio": {"id": audio.id, "transcript": ""}})
        for piece in split(audio.transcript, size):
            yield self._delta({"audio": {"transcript": piece}})
        raw = audio.raw
        step = max(3, size * 3)  # multiples of 3 bytes: the base64 pieces concatenate
        for start in range(0, len(raw), step):
            data = raw[start : start + step]
            yield self._delta({"audio": {"data": _b64(data)}})
        yield self._delta({"audio": {"expires_at": audio.expires_at}})

    def _tool_call_events(self) -> Iterator[bytes]:
        size = self.reply.chunk_size
        for index, call in enumerate(self.reply.scripted_tool_calls()):
            head = {"name": call.name, "arguments": ""}
            first = {"index": index, "id": call.id, "type": "function", "function": head}
            yield self._delta({"tool_calls": [first]})
            for piece in split(call.arguments_text, size):
                delta = {"index": index, "function": {"arguments": piece}}
                yield self._delta({"tool_calls": [delta]})

    # -- not streamed ---------------------------------------------------------------------

    def completion(self) -> dict[str, Any]:
        """The ``chat.completion`` JSON object."""
        body: dict[str, Any] = {
            "id": self.id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "system_fingerprint": None,
            "choices": [
                {
                    "index": 0,
                    "message": self._message(),
                    "logprobs": None,
                    "finish_reason": self.reply.resolved_finish_reason(),
                }
            ],
        }
        usage = self.usage()
        if usage is not None:
            body["usage"] = usage
        return body

    def _message(self) -> dict[str, Any]:
        reply = self.reply
        message: dict[str, Any] = {
            "role": "assistant",
            "content": joined(reply.text) or None,
            "refusal": None,
        }
        if joined(reply.reasoning):
            message[reply.reasoning_field] = joined(reply.reasoning)
        calls = reply.scripted_tool_calls()
        if calls:
            message["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments_text},
                }
                for call in calls
            ]
        if reply.audio is not None:
            audio = reply.audio
            message["audio"] = {
                "id": audio.id,
                "data": audio.base64,
                "expires_at": audio.expires_at,
                "transcript": audio.transcript,
            }
        return message


def _b64(data: bytes) -> str:
    import base64  # only audio replies

    return base64.b64encode(data).decode("ascii")


def _estimate_tokens(text: str) -> int:
    return (len(text) + 3) // 4


def error_body(message: str, *, type_: str, code: str | None = None) -> dict[str, Any]:
    """An OpenAI-shaped ``{"error": {...}}`` body."""
    return {"error": {"message": message, "type": type_, "param": None, "code": code}}


def last_user_text(body: Any) -> str:
    """The text of the last user message of a chat request, or ``""``."""
    messages = body.get("messages") if isinstance(body, dict) else None
    for message in reversed(messages or []):
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            texts = [part.get("text", "") for part in content if isinstance(part, dict)]
            return "\n".join(text for text in texts if text)
    return ""
