"""Screenshots of the whole window with a demo conversation, to look at (and for the README).

Run under a real X server (or Xvfb) so that fonts, DPI and scaling are as a user sees them::

    xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python scripts/window_screenshots.py \
        --out /tmp/shots [--dark] [--size 800x500] [--name window.png] [--overlay]

Without ``--size`` the window is placed as the app places it on a first run (clamped to the
screen, so ``QT_SCALE_FACTOR=2`` shows what a HiDPI user gets). Data lives in a temporary
``DESKTOP_AGENT_HOME``; a loopback OpenAI-compatible server stands in for the model.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

import PySide6  # noqa: F401  (before qasync, so that qasync binds to PySide6)
import qasync
from PySide6.QtWidgets import QApplication

CHATS = [
    ("Plan a trip to Lisbon", ["Plan three days in Lisbon in May.", "Day 1: Alfama and…"]),
    ("Bake sourdough bread", ["How long should the dough rise?", "About 4–6 hours at 24 °C."]),
    ("Fix my bicycle chain 🚲", ["The chain skips on the small cog.", "Check chain wear first."]),
]


async def _fill_library(root: Path) -> None:
    from desktop_agent.app import AgentState
    from desktop_agent.app.library import SessionLibrary
    from desktop_agent.message import Msg

    library = SessionLibrary(root)
    for title, texts in CHATS:
        state = AgentState("You are a test.")
        for number, text in enumerate(texts):
            if number % 2 == 0:
                await state.memory.add(Msg("User", text, "user"))
            else:
                await state.memory.add(Msg("Friday", text, "assistant"))
        session_id = await library.create(title=title, model="demo-model")
        await library.save(session_id, agent=state)
    await library.close_all()


async def _shoot(args: argparse.Namespace) -> None:
    from desktop_agent.testing import OpenAICompatServer
    from desktop_agent.ui.chat._demo import demo_messages
    from desktop_agent.ui.window import DesktopApp

    await _fill_library(Path(os.environ["DESKTOP_AGENT_HOME"]))
    with OpenAICompatServer() as server:
        environ = {
            "OPENAI_BASE_URL": server.base_url,
            "OPENAI_API_KEY": "sk-demo",
            "DESKTOP_AGENT_MODEL": "demo-model",
        }
        app = DesktopApp(environ=environ, local_servers=[])
        theme = "dark" if args.dark else "light"
        app.settings.apply(app.settings.settings.model_copy(update={"theme": theme}))
        await app.start()
        for _ in range(200):
            if app.sessions.is_ready:
                break
            await asyncio.sleep(0.02)
        if args.size:
            width, height = (int(v) for v in args.size.split("x"))
            app.window.resize(width, height)
        app.conversation.reset(demo_messages())
        app.window.composer.input.setPlainText("Can you make the chart bigger? 🙂")
        await asyncio.sleep(0.8)  # images decode, rows settle
        app.chat_view.flush()
        if args.overlay:
            app.window.toggle_shortcut_overlay()
        await asyncio.sleep(0.3)
        path = Path(args.out) / (args.name or f"window_{theme}.png")
        app.window.grab().save(str(path))
        geometry = app.window.geometry()
        screen = app.window.screen().availableGeometry()
        print(
            f"{path}: window {geometry.width()}x{geometry.height()} on {screen.width()}x"
            f"{screen.height()} (logical)"
        )
        app.window.close()
        await app.aclose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/shots")
    parser.add_argument("--name", default="")
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--size", default="", help="WxH; default: the app's own placement")
    parser.add_argument("--overlay", action="store_true", help="show the shortcut overlay")
    args = parser.parse_args()
    Path(args.out).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as home:
        os.environ["DESKTOP_AGENT_HOME"] = home
        app = QApplication(sys.argv)
        app.setQuitOnLastWindowClosed(False)
        with asyncio.Runner(loop_factory=qasync.QEventLoop) as runner:
            runner.run(_shoot(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
