"""Command-line entry point: ``desktop-agent`` and ``python -m desktop_agent``."""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
from collections.abc import Callable
from typing import Any

from desktop_agent._version import __version__


def _parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="desktop-agent",
        description="A desktop AI assistant for OpenAI-compatible models.",
    )
    parser.add_argument("--version", action="version", version=f"desktop-agent {__version__}")
    parser.add_argument(
        "--self-check",
        action="store_true",
        help="open the window (works offscreen), render one message of each kind, read the "
        "shipped resources, print a report and exit: 0 when everything works",
    )
    if argv and argv[0] in (*_COMMANDS, "-h", "--help"):  # they load the library: when asked
        from desktop_agent.app.transfer import add_commands  # only the subcommands load it

        add_commands(parser)
    return parser.parse_args(argv)


_COMMANDS = ("list", "export", "import", "backup", "restore")


def _load_pdf_renderer() -> Callable[[dict[str, Any]], bytes]:
    """The PDF renderer of the ``ui`` layer; offscreen Qt when there is no display."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from desktop_agent.ui.export import conversation_pdf  # Qt only for PDF

    return conversation_pdf


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and start the desktop window (or run the self-check)."""
    # A frozen app is also the interpreter of its helper processes (the math typesetter).
    multiprocessing.freeze_support()
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    if getattr(args, "command", None):
        from desktop_agent.app.transfer import run_cli  # only the subcommands load it

        return run_cli(args, _load_pdf_renderer)
    if args.self_check:
        from desktop_agent.ui._self_check import run_self_check  # only --self-check loads it

        return run_self_check()
    try:
        from desktop_agent.ui.app import run  # type: ignore[import-not-found,unused-ignore]
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("desktop_agent.ui"):
            print("desktop-agent: the window is not built yet (desktop_agent.ui.app is missing).")
            return 1
        raise
    return int(run())


if __name__ == "__main__":
    sys.exit(main())
