"""Export and import in the real window: GUI stalls while they run (target: none > 50 ms).

The real :class:`DesktopApp` on the app's qasync loop, a 5 ms ``PreciseTimer`` heartbeat on
the GUI thread (its gaps are the GUI stalls), data in a temporary folder:

1. export of a 10,000-message chat to Markdown and to JSON, as Export… does it (read the
   saved session and render it off the GUI thread, write the file);
2. export of a 1,000-message chat to PDF (printed by the command line in a child process);
3. import of a ~100 MB ChatGPT ``conversations.json`` (generated here) through
   Settings → Data → Import chats…, until the sidebar lists every imported chat.

The first row is the heartbeat with nothing to do: on a shared, loaded machine the
scheduler alone makes gaps of that size (the one-minute load average is printed too).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_export.py``
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from _common import (
    _HOME,
    Heartbeat,
    Report,
    gap_summary,
    load_average,
    main_guard,
    open_desktop,
    run_app,
    wait_until,
)
from PySide6.QtWidgets import QApplication

from desktop_agent.app.library import SessionLibrary, SessionMeta
from desktop_agent.app.transfer import read_conversation, render, write_rendered
from desktop_agent.ui.export import pdf_in_subprocess

STALL_TARGET_MS = 50.0
IMPORT_MB = 100


def chat_parts(count: int) -> dict[str, Any]:
    """A saved agent state holding ``count`` messages of ordinary Markdown."""
    content = []
    for i in range(count):
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
    memory = {"_compressed_summary": "", "content": content}
    return {"agent": {"memory": memory, "name": "Assistant"}}


def chatgpt_export(path: Path, target_bytes: int) -> tuple[int, int]:
    """Write a ChatGPT ``conversations.json`` of about ``target_bytes``: (chats, bytes)."""
    conversations, size, number = [], 0, 0
    while size < target_bytes:
        root = {"id": "root", "message": None, "parent": None, "children": []}
        mapping, parent = {"root": root}, "root"
        for i in range(40):
            node = f"c{number}n{i}"
            mapping[parent]["children"].append(node)
            text = f"Turn {i} of conversation {number}. " + "Lorem ipsum dolor sit amet. " * 20
            message = {
                "id": node,
                "author": {"role": "user" if i % 2 == 0 else "assistant", "name": None},
                "create_time": 1717236000.0 + i,
                "content": {"content_type": "text", "parts": [text]},
                "metadata": {},
                "status": "finished_successfully",
                "recipient": "all",
            }
            mapping[node] = {"id": node, "parent": parent, "children": [], "message": message}
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


async def measured(work: Callable[[], Awaitable[Any]]) -> tuple[float, list[float], Any]:
    """Seconds ``work`` took, the heartbeat's gaps meanwhile, and its result."""
    heartbeat = Heartbeat()
    heartbeat.start()
    start = time.perf_counter()
    result = await work()
    elapsed = time.perf_counter() - start
    return elapsed, heartbeat.stop(), result


def add_row(report: Report, what: str, elapsed: float, gaps: list[float]) -> None:
    """A table line: time, GUI stall p99 / max, PASS when max ≤ 50 ms."""
    _, p99, longest = gap_summary(gaps)
    value = f"{elapsed:6.2f} s, stall p99 {p99:5.1f} ms, max {longest:6.1f} ms"
    report.add(what, value, f"max ≤ {STALL_TARGET_MS:.0f} ms", longest <= STALL_TARGET_MS)


async def amain(app: QApplication) -> int:
    report = Report("export and import (real window)")
    root = Path(_HOME.name)
    library = SessionLibrary(root)
    meta = SessionMeta(title="Long chat", created="2026-03-01T10:00:00+00:00")
    long_chat = await library.add(chat_parts(10_000), meta)
    short_chat = await library.add(chat_parts(1_000), SessionMeta(title="Shorter chat"))
    desktop = await open_desktop(None)
    await wait_until(lambda: desktop.sessions.is_ready, 30, "the sidebar")
    switcher = desktop.sessions.switcher
    await switcher.list_sessions()
    assert switcher.library is not None
    window_library = switcher.library
    elapsed, gaps, _ = await measured(lambda: asyncio.sleep(1.0))
    add_row(report, "idle window for 1 s (noise floor)", elapsed, gaps)
    for fmt in ("markdown", "json"):

        async def export(fmt: Any = fmt) -> None:
            conversation = await read_conversation(window_library, long_chat.session_id)
            rendered = await asyncio.to_thread(render, conversation, fmt)
            await asyncio.to_thread(write_rendered, rendered, root / f"out.{fmt}")

        elapsed, gaps, _ = await measured(export)
        size = (root / f"out.{fmt}").stat().st_size / 1e6
        add_row(report, f"export 10,000 messages to {fmt} ({size:.1f} MB)", elapsed, gaps)
    pdf = root / "out.pdf"
    elapsed, gaps, _ = await measured(
        lambda: pdf_in_subprocess(window_library.root, short_chat.session_id, pdf)
    )
    add_row(report, "export 1,000 messages to PDF (child process)", elapsed, gaps)
    source = root / "conversations.json"
    count, size = chatgpt_export(source, IMPORT_MB * 1024 * 1024)
    page = desktop._data_page()
    rows = desktop.window.sidebar.model.rowCount

    async def import_all() -> None:
        await page._import([str(source)])
        await wait_until(lambda: rows() >= count + 2, 60, "the sidebar listing every chat")

    elapsed, gaps, _ = await measured(import_all)
    add_row(report, f"import ChatGPT export ({size / 1e6:.0f} MB, {count} chats)", elapsed, gaps)
    report.note(f"load average {load_average():.2f} (2 cores); PDF: {pdf.stat().st_size} bytes")
    report.print()
    await desktop.aclose()
    return 0


if __name__ == "__main__":
    main_guard(lambda: run_app(amain))
