"""A fixed, real-shaped conversation for the transfer tests (goldens are rendered from it)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures" / "transfer"
# A 1x1 red PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
)


def msg(msg_id: str, name: str, role: str, content: Any, stamp: str) -> dict[str, Any]:
    """A saved ``Msg`` dict."""
    return {
        "id": msg_id,
        "name": name,
        "role": role,
        "content": content,
        "metadata": {},
        "timestamp": f"2026-03-01 10:{stamp}.000",
    }


def chat_parts() -> dict[str, Any]:
    """Session parts: text with code, thinking, a tool call and result, an image."""
    image = {"type": "base64", "media_type": "image/png", "data": base64.b64encode(PNG).decode()}
    messages = [
        msg(
            "m1",
            "user",
            "user",
            [
                {"type": "text", "text": "What is in this picture? Also show `ls` in Python."},
                {"type": "image", "source": image},
            ],
            "00:01",
        ),
        msg(
            "m2",
            "Friday",
            "assistant",
            [
                {"type": "thinking", "thinking": "A red pixel. Then a listing."},
                {
                    "type": "text",
                    "text": "A **red** pixel. Here:\n\n"
                    "```python\nimport os\nprint(os.listdir())\n```",
                },
                {"type": "tool_use", "id": "call_1", "name": "list_files", "input": {"path": "."}},
            ],
            "00:02",
        ),
        msg(
            "m3",
            "system",
            "system",
            [
                {
                    "type": "tool_result",
                    "id": "call_1",
                    "name": "list_files",
                    "output": [{"type": "text", "text": "a.txt\nb.txt <script>"}],
                },
            ],
            "00:03",
        ),
        msg(
            "m4",
            "Friday",
            "assistant",
            [{"type": "text", "text": "Two files: a.txt and b.txt."}],
            "00:04",
        ),
    ]
    return {
        "meta": {
            "title": "Red pixel & files",
            "created": "2026-03-01T10:00:01.000+00:00",
            "updated": "2026-03-01T10:00:04.000+00:00",
            "model": "gpt-4o-mini",
            "message_count": 4,
            "schema_version": 1,
            "title_is_custom": False,
        },
        "agent": {
            "memory": {
                "_compressed_summary": "",
                "content": [[m, ["hint"] if m["id"] == "m2" else []] for m in messages],
            },
            "toolkit": {"active_groups": []},
            "name": "Friday",
            "_sys_prompt": "You are Friday.",
        },
    }
