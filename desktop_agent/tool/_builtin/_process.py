"""``execute_python_code`` and ``execute_shell_command``: programs whose output streams in.

Each program runs in its own process group (``start_new_session``) so that Stop, a timeout
or the end of the call can kill it *and everything it started*. Output is read from both
pipes as it comes and yielded as cumulative chunks
``<stdout>…</stdout><stderr>…</stderr>``; the last chunk starts with
``<returncode>…</returncode>`` (AgentScope's format).

Ending a run:

- the program exits and its pipes close: the last chunk, nothing is killed;
- the program exits but children it left behind keep the pipes open for more than
  ``EXIT_GRACE`` seconds: the group is killed and the last chunk sent;
- the timeout passes: the group is killed, the last chunk notes the ``TimeoutError``;
- the call is cancelled (Stop): the group is killed and reaped, then the cancellation
  propagates, so the toolkit ends the call with its interrupted chunk.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import shutil
import signal
import sys
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from pathlib import Path
from typing import Any

from desktop_agent._logging import logger
from desktop_agent.tool._exceptions import ToolError
from desktop_agent.tool._execution import text_response
from desktop_agent.tool._response import ToolResponse

MAX_OUTPUT_CHARS = 100_000
"""Per stream; the program's further output is read (so it never blocks) but dropped."""
EXIT_GRACE = 1.0
_EXIT_POLL = 0.1
_KILL_WAIT = 5.0
_READ_SIZE = 65_536
_STREAMS = ("stdout", "stderr")

Event = tuple[str, bytes | None]


class _Output:
    """The decoded, size-capped text of stdout and stderr so far."""

    def __init__(self) -> None:
        self.text = dict.fromkeys(_STREAMS, "")
        self.truncated: set[str] = set()
        self._decoders = {
            name: codecs.getincrementaldecoder("utf-8")(errors="replace") for name in _STREAMS
        }

    def add(self, name: str, data: bytes | None) -> bool:
        """Add bytes (``None`` at the end of the stream); return whether the text changed."""
        piece = self._decoders[name].decode(data or b"", final=data is None)
        room = MAX_OUTPUT_CHARS - len(self.text[name])
        if len(piece) > room:
            piece = piece[: max(room, 0)]
            self.truncated.add(name)
        self.text[name] += piece
        return bool(piece)

    def render(self, name: str, note: str = "") -> str:
        """``<name>text</name>``, with the truncation mark and ``note`` on their own lines."""
        lines = [self.text[name]] if self.text[name] else []
        if name in self.truncated:
            lines.append("[output truncated]")
        if note:
            lines.append(note)
        body = "\n".join(lines)
        return f"<{name}>{body}</{name}>"


def _kill_group(process: asyncio.subprocess.Process) -> None:
    if os.name == "posix":
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    elif process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.kill()


async def _pump(stream: asyncio.StreamReader, name: str, queue: asyncio.Queue[Event]) -> None:
    while data := await stream.read(_READ_SIZE):
        queue.put_nowait((name, data))
    queue.put_nowait((name, None))


async def _wait_exit(process: asyncio.subprocess.Process, timeout: float) -> bool:
    """Wait until the process has exited and been reaped; return whether it did in time.

    ``Process.wait()`` would also wait for the pipes to close, which a grandchild that left
    the process group can keep open forever, so the return code is polled instead.
    """
    deadline = time.monotonic() + timeout
    delay = 0.002
    while process.returncode is None:
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(delay)
        delay = min(delay * 2, _EXIT_POLL)
    return True


class _ProcessRun:
    """One running program: its pipes, its deadline and how it ended."""

    def __init__(self, process: asyncio.subprocess.Process, timeout: float) -> None:
        self.process = process
        self.timeout = timeout
        self.output = _Output()
        self.timed_out = False
        self._queue: asyncio.Queue[Event] = asyncio.Queue()
        self._open_streams = len(_STREAMS)
        assert process.stdout is not None and process.stderr is not None
        self._tasks = [
            asyncio.create_task(_pump(process.stdout, "stdout", self._queue), name="tool-stdout"),
            asyncio.create_task(_pump(process.stderr, "stderr", self._queue), name="tool-stderr"),
        ]

    def _apply(self, event: Event) -> bool:
        name, data = event
        if data is None:
            self._open_streams -= 1
        return self.output.add(name, data)

    def _apply_pending(self, event: Event) -> bool:
        changed = self._apply(event)
        while not self._queue.empty():
            changed = self._apply(self._queue.get_nowait()) or changed
        return changed

    async def updates(self) -> AsyncGenerator[None, None]:
        """Yield each time new output arrived; return when the run has ended."""
        deadline = time.monotonic() + self.timeout
        grace_end: float | None = None
        while self._open_streams:
            now = time.monotonic()
            if grace_end is None and self.process.returncode is not None:
                grace_end = now + EXIT_GRACE
            limit = min(deadline, now + _EXIT_POLL if grace_end is None else grace_end)
            try:
                event = await asyncio.wait_for(self._queue.get(), limit - now)
            except TimeoutError:
                self.timed_out = time.monotonic() >= deadline
                if self.timed_out or (grace_end is not None and time.monotonic() >= grace_end):
                    return
                continue
            if self._apply_pending(event):
                yield
        self.timed_out = not await _wait_exit(self.process, deadline - time.monotonic())

    async def stop(self) -> None:
        """Kill what still runs (or holds the pipes), reap it, and let the pipes close."""
        if self.process.returncode is None or self._open_streams:
            _kill_group(self.process)
        if not await _wait_exit(self.process, _KILL_WAIT):
            logger.warning("Process %s did not exit after SIGKILL.", self.process.pid)
        # Reading to EOF lets asyncio close the pipe transports (no ResourceWarning later);
        # only a process that left the group can still hold them open.
        _, pending = await asyncio.wait(self._tasks, timeout=_KILL_WAIT)
        for task in pending:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await asyncio.sleep(0)  # run the transport's pending process_exited callback

    def response(self, what: str, *, final: bool) -> ToolResponse:
        """The cumulative chunk; the final one has the return code (and timeout note)."""
        note = ""
        if final and self.timed_out:
            note = f"TimeoutError: The {what} exceeded the timeout of {self.timeout} seconds."
        text = self.output.render("stdout") + self.output.render("stderr", note)
        if not final:
            return text_response(text, stream=True, is_last=False)
        returncode = self.process.returncode
        return text_response(f"<returncode>{returncode}</returncode>{text}", stream=True)


async def _stream_process(
    start: Callable[[], Awaitable[asyncio.subprocess.Process]], timeout: float, what: str
) -> AsyncGenerator[ToolResponse, None]:
    if not timeout > 0:
        raise ToolError(f"the timeout must be a positive number of seconds, got {timeout}.")
    run = _ProcessRun(await _started(start), timeout)
    try:
        async with contextlib.aclosing(run.updates()) as updates:
            async for _ in updates:
                yield run.response(what, final=False)
    finally:
        await run.stop()
    yield run.response(what, final=True)


async def _started(
    start: Callable[[], Awaitable[asyncio.subprocess.Process]],
) -> asyncio.subprocess.Process:
    """The started process; a cancellation during the start kills it once it exists.

    asyncio (3.11) cannot abandon a subprocess whose pipes are still connecting: its
    clean-up then waits for pipes that never connect (a Stop took ~250 ms). So the start
    is shielded and allowed to finish, and the process is stopped right after.
    """
    starting = asyncio.ensure_future(start())
    try:
        return await asyncio.shield(starting)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await _ProcessRun(await starting, _KILL_WAIT).stop()
        raise


_PIPES: dict[str, Any] = {
    "stdin": asyncio.subprocess.DEVNULL,
    "stdout": asyncio.subprocess.PIPE,
    "stderr": asyncio.subprocess.PIPE,
    "start_new_session": True,
}


def python_interpreter() -> str:
    """The interpreter that runs ``execute_python_code``: the app's own, when it is one.

    A packaged (frozen) app's ``sys.executable`` is the app, which cannot run a script, so
    there the first ``python3`` or ``python`` on ``PATH`` is used.

    Raises:
        ToolError: The app is frozen and there is no Python on ``PATH``.
    """
    if not getattr(sys, "frozen", False):
        return sys.executable
    for name in ("python3", "python"):
        found = shutil.which(name)
        if found:
            return found
    raise ToolError(
        "no Python interpreter found: this packaged app cannot run Python code itself, and "
        "neither python3 nor python is on PATH. Install Python 3 to use this tool."
    )


def run_folder(working_folder: str = "") -> Path:
    """Where a program runs: ``working_folder`` if it is a folder, else the home folder
    (never the app's own current folder)."""
    if working_folder.strip():
        folder = Path(working_folder).expanduser()
        if folder.is_dir():
            return folder.absolute()
    return Path.home()


async def execute_python_code(
    code: str, timeout: float = 60, *, working_folder: str = ""
) -> AsyncGenerator[ToolResponse, None]:
    """Run Python code in a separate Python process and return what it prints.

    The code runs as a script: use print() to show results. Nothing is returned
    automatically, there is no standard input, and each call starts a fresh interpreter.
    The result has the exit code, the standard output and the standard error.

    Args:
        code (str): The Python code to run.
        timeout (float): Seconds after which the program is stopped.
        working_folder (str): The folder it runs in (default: the home folder).
    """

    async def start() -> asyncio.subprocess.Process:
        argv = [python_interpreter(), "-I", "-u", "-X", "utf8", "-c", code]
        cwd = run_folder(working_folder)
        return await asyncio.create_subprocess_exec(*argv, cwd=cwd, **_PIPES)

    async for chunk in _stream_process(start, timeout, "code execution"):
        yield chunk


async def execute_shell_command(
    command: str, timeout: float = 60, *, working_folder: str = ""
) -> AsyncGenerator[ToolResponse, None]:
    """Run a command in the user's shell and return its output.

    There is no standard input: interactive commands will not get answers. The result has
    the exit code, the standard output and the standard error.

    Args:
        command (str): The shell command line to run.
        timeout (float): Seconds after which the command and everything it started is stopped.
        working_folder (str): The folder it runs in (default: the home folder).
    """

    async def start() -> asyncio.subprocess.Process:
        cwd = run_folder(working_folder)
        return await asyncio.create_subprocess_shell(command, cwd=cwd, **_PIPES)

    async for chunk in _stream_process(start, timeout, "command"):
        yield chunk
