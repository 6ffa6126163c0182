"""Export of a 10,000-message chat (Markdown, JSON) and import of a 100 MB ChatGPT export.

Each runs as the window runs it: on an asyncio event loop with the file work in worker
threads. A 2 ms heartbeat on the loop records its gaps: the longest is the GUI stall the
work would cause (target: none over 50 ms). The first row is the same heartbeat with no
work: on a shared, loaded machine the scheduler alone makes gaps of that size. Data lives
in a temporary folder.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop_agent.app.library import SessionLibrary, SessionMeta
from desktop_agent.app.transfer import import_files, read_conversation, render
from desktop_agent.ui.export import pdf_in_subprocess

STALL_TARGET_MS = 50.0


def _chat(n: int) -> dict[str, Any]:
    content = []
    for i in range(n):
        role = "user" if i % 2 == 0 else "assistant"
        text = f"Message {i}: " + "some words of a typical reply, with `code` and **bold**. " * 6
        if role == "assistant" and i % 10 == 1:
            text += "\n\n```python\nprint('hello')\n```"
        msg = {
            "id": f"m{i}",
            "name": role,
            "role": role,
            "content": [{"type": "text", "text": text}],
            "metadata": {},
            "timestamp": "2026-03-01 10:00:00.000",
        }
        content.append([msg, []])
    return {
        "agent": {"memory": {"_compressed_summary": "", "content": content}, "name": "Assistant"}
    }


def _chatgpt_export(path: Path, target_bytes: int) -> tuple[int, int]:
    conversations, size, number = [], 0, 0
    while size < target_bytes:
        mapping, parent = (
            {"root": {"id": "root", "message": None, "parent": None, "children": []}},
            "root",
        )
        for i in range(40):
            node = f"c{number}n{i}"
            role = "user" if i % 2 == 0 else "assistant"
            mapping[parent]["children"].append(node)
            mapping[node] = {
                "id": node,
                "parent": parent,
                "children": [],
                "message": {
                    "id": node,
                    "author": {"role": role, "name": None, "metadata": {}},
                    "create_time": 1717236000.0 + i,
                    "content": {
                        "content_type": "text",
                        "parts": [
                            f"Turn {i} of conversation {number}. "
                            + "Lorem ipsum dolor sit amet. " * 20
                        ],
                    },
                    "metadata": {},
                    "status": "finished_successfully",
                    "recipient": "all",
                },
            }
            parent = node
        item = {
            "title": f"Conversation {number}",
            "create_time": 1717236000.0,
            "update_time": 1717236100.0,
            "mapping": mapping,
            "current_node": parent,
            "id": f"conv-{number}",
            "conversation_id": f"conv-{number}",
        }
        size += len(json.dumps(item))
        conversations.append(item)
        number += 1
    data = json.dumps(conversations).encode()
    path.write_bytes(data)
    return number, len(data)


async def _measured(work: Callable[[], Awaitable[Any]]) -> tuple[float, float, Any]:
    gaps: list[float] = []
    done = asyncio.Event()

    async def heartbeat() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.002)
            now = time.perf_counter()
            gaps.append((now - last) * 1000)
            last = now

    beat = asyncio.create_task(heartbeat())
    start = time.perf_counter()
    result = await work()
    elapsed = time.perf_counter() - start
    done.set()
    await beat
    gaps.sort()
    p99 = gaps[int(len(gaps) * 0.99)] if gaps else 0.0
    return elapsed, Stall(max(gaps, default=0.0), p99), result


class Stall(float):
    """The longest gap (the float's value) and the 99th percentile (``p99``), in ms."""

    p99: float

    def __new__(cls, longest: float, p99: float) -> Stall:
        value = super().__new__(cls, longest)
        value.p99 = p99
        return value


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-export-") as folder:
        root = Path(folder)
        library = SessionLibrary(root / "home")
        meta = SessionMeta(
            title="Long chat",
            created="2026-03-01T10:00:00+00:00",
            updated="2026-03-01T10:00:00+00:00",
        )
        summary = await library.add(_chat(10_000), meta)
        elapsed, stall, _ = await _measured(lambda: asyncio.sleep(1.0))
        rows = [("idle loop for 1 s (this machine's noise floor)", elapsed, stall)]
        for fmt in ("markdown", "json"):

            async def export(fmt: str = fmt) -> int:
                conversation = await read_conversation(library, summary.session_id)
                rendered = await asyncio.to_thread(render, conversation, fmt)  # type: ignore[arg-type]
                await asyncio.to_thread((root / f"out.{fmt}").write_bytes, rendered.data)
                return len(rendered.data)

            elapsed, stall, size = await _measured(export)
            rows.append((f"export 10,000 messages to {fmt} ({size / 1e6:.1f} MB)", elapsed, stall))
        short = await library.add(_chat(1000), SessionMeta(title="Shorter chat"))
        elapsed, stall, _ = await _measured(
            lambda: pdf_in_subprocess(library.root, short.session_id, root / "out.pdf")
        )
        rows.append(("export 1,000 messages to PDF (in a child process)", elapsed, stall))
        path = root / "conversations.json"
        count, size = _chatgpt_export(path, 100 * 1024 * 1024)
        target = SessionLibrary(root / "import-home")
        elapsed, stall, report = await _measured(lambda: import_files(target, [path]))
        chats = f"{len(report.imported)}/{count} chats"
        rows.append((f"import ChatGPT export ({size / 1e6:.0f} MB, {chats})", elapsed, stall))
    head = f"{'what':<62} {'time':>8} {'stall p99':>10} {'max':>9}"
    print(f"{head}  target: max stall <= {STALL_TARGET_MS:.0f} ms")
    for name, elapsed, stall in rows:
        verdict = "PASS" if stall <= STALL_TARGET_MS else "MISS"
        p99 = getattr(stall, "p99", 0.0)
        print(f"{name:<62} {elapsed:7.2f}s {p99:8.1f}ms {stall:7.1f}ms  {verdict}")


if __name__ == "__main__":
    asyncio.run(main())
