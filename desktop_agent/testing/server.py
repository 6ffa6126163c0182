"""Run :class:`OpenAICompatServer` as its own process (for benchmarks and manual tests).

Usage::

    python -m desktop_agent.testing.server [--host 127.0.0.1] [--port 0]
        [--script replies.json] [--models a,b] [--api-key KEY]

It prints its base URL (``http://127.0.0.1:PORT/v1``) on the first line of stdout, then
serves until interrupted (Ctrl+C / SIGTERM). The script file is either a list of replies
or ``{"replies": [...], "default": {...}, "models": [...]}``, each reply a dict of
:class:`ScriptedReply` fields, e.g.
``{"text": "Hello!", "chunk_size": 4, "reasoning": "Think.", "tool_calls":
[{"name": "f", "arguments": {"x": 1}}]}``. Without a default, the server echoes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from desktop_agent.testing._openai_server import OpenAICompatServer
from desktop_agent.testing._scripted_reply import ScriptedReply


def load_script(server: OpenAICompatServer, script: Any) -> None:
    """Queue the replies (and set the default and models) described by ``script``."""
    if isinstance(script, list):
        script = {"replies": script}
    if not isinstance(script, dict):
        raise ValueError("A script is a list of replies or an object with 'replies'.")
    for reply in script.get("replies", []):
        server.add_reply(ScriptedReply.from_dict(reply))
    if script.get("default") is not None:
        server.default_reply = ScriptedReply.from_dict(script["default"])
    if script.get("models"):
        server.models = [str(model) for model in script["models"]]


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m desktop_agent.testing.server",
        description="A scripted OpenAI-compatible server on loopback, for tests and benchmarks.",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--script", type=Path, help="JSON file of scripted replies")
    parser.add_argument("--models", default="test-model", help="comma-separated model ids")
    parser.add_argument("--api-key", default=None, help="require this bearer key")
    return parser.parse_args(argv)


async def _serve(server: OpenAICompatServer) -> None:
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, task.cancel)

    def announce(base_url: str) -> None:
        print(base_url, flush=True)

    with contextlib.suppress(asyncio.CancelledError):
        await server.serve_forever(on_ready=announce)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m desktop_agent.testing.server``."""
    args = _parse_args(argv)
    server = OpenAICompatServer(
        host=args.host,
        port=args.port,
        models=[m for m in args.models.split(",") if m],
        api_key=args.api_key,
    )
    if args.script is not None:
        load_script(server, json.loads(args.script.read_text(encoding="utf-8")))
    asyncio.run(_serve(server))
    return 0


if __name__ == "__main__":
    sys.exit(main())
