"""A very large streamed reply is joined in bounded batches, not copied whole per chunk,
and still ends with exactly the text that was sent."""

from __future__ import annotations

from itertools import pairwise

from model_helpers import USER, collect

from desktop_agent.model._openai_stream import LARGE_TEXT_CHARS
from desktop_agent.testing import ScriptedReply


async def test_a_large_reply_is_exact_with_fewer_responses_than_chunks(server, make_model) -> None:
    text = "".join(f"line {i}: some words of the reply\n" for i in range(20_000))  # ~700 KB
    chunk = 1024
    server.add_reply(ScriptedReply(text, reasoning="think " * 1000, chunk_size=chunk))
    responses = await collect(await make_model()(USER))
    last = responses[-1].content
    assert last[0] == {"type": "thinking", "thinking": "think " * 1000}
    assert last[-1] == {"type": "text", "text": text}
    chunks = len(text) // chunk
    small_chunks = LARGE_TEXT_CHARS // chunk  # one response each while the text is small
    assert len(responses) < small_chunks + (chunks - small_chunks) // 4
    texts = [r.content[-1].get("text", "") for r in responses if r.content[-1]["type"] == "text"]
    assert all(b.startswith(a) for a, b in pairwise(texts))


async def test_a_small_reply_still_yields_one_response_per_chunk(server, make_model) -> None:
    server.add_reply(ScriptedReply("abcdefgh" * 10, chunk_size=8))
    responses = await collect(await make_model()(USER))
    texts = [r.content[-1]["text"] for r in responses]
    assert texts[:10] == ["abcdefgh" * n for n in range(1, 11)]
