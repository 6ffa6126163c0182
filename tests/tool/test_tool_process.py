"""``execute_python_code`` / ``execute_shell_command``: streaming, timeouts, and Stop killing.

The tests synchronize on the tool's own output (a chunk that says the program started),
never on sleeps in the test.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest
from tool_helpers import text, texts, tool_call

from desktop_agent.tool import Toolkit, ToolResponse, execute_python_code, execute_shell_command
from desktop_agent.tool._builtin import _process

INTERRUPTED = "<system-info>The tool call has been interrupted by the user.</system-info>"
posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX shell and process groups")


async def chunks_of(stream: object) -> list[ToolResponse]:
    return [chunk async for chunk in stream]  # type: ignore[attr-defined]


def is_gone(pid: int) -> bool:
    """Whether ``pid`` has exited (a zombie not yet reaped by its new parent counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return True
    return state in ("Z", "X")


async def wait_gone(pid: int, within: float = 5.0) -> bool:
    """Poll until ``pid`` has exited: a killed orphan has no event we could await."""
    deadline = time.monotonic() + within
    while not is_gone(pid):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


async def test_python_output_and_exit_code() -> None:
    code = "import sys\nprint('out')\nprint('err', file=sys.stderr)\nsys.exit(3)"
    chunks = await chunks_of(execute_python_code(code))
    final = chunks[-1]
    assert text(final) == "<returncode>3</returncode><stdout>out\n</stdout><stderr>err\n</stderr>"
    assert final.is_last and final.stream
    assert all(not c.is_last for c in chunks[:-1])


async def test_python_runs_isolated_in_this_interpreter(tmp_path: Path) -> None:
    code = "import sys; print(sys.executable); print(sys.flags.isolated)"
    final = (await chunks_of(execute_python_code(code)))[-1]
    assert f"<stdout>{sys.executable}\n1\n</stdout>" in text(final)


async def test_python_output_streams_as_cumulative_chunks(tmp_path: Path) -> None:
    flag = tmp_path / "go"
    code = (
        "import os, time\n"
        "print('first', flush=True)\n"
        f"while not os.path.exists({str(flag)!r}):\n"
        "    time.sleep(0.01)\n"
        "print('second')\n"
    )
    seen: list[str] = []
    async for chunk in execute_python_code(code):
        seen.append(text(chunk))
        if "first" in text(chunk):
            flag.touch()
    assert any("first" in chunk and "second" not in chunk for chunk in seen[:-1])
    assert seen[-1] == "<returncode>0</returncode><stdout>first\nsecond\n</stdout><stderr></stderr>"


@posix_only
async def test_shell_command_output() -> None:
    chunks = await chunks_of(execute_shell_command("echo hello; echo oops >&2; exit 2"))
    assert text(chunks[-1]) == (
        "<returncode>2</returncode><stdout>hello\n</stdout><stderr>oops\n</stderr>"
    )


@posix_only
async def test_shell_command_has_no_stdin() -> None:
    chunks = await chunks_of(execute_shell_command("cat; echo done", timeout=10))
    assert text(chunks[-1]) == "<returncode>0</returncode><stdout>done\n</stdout><stderr></stderr>"


@posix_only
async def test_shell_timeout_kills_the_group() -> None:
    start = time.monotonic()
    chunks = await chunks_of(execute_shell_command("sleep 30 & echo $!; wait", timeout=0.5))
    assert time.monotonic() - start < 10
    final = text(chunks[-1])
    assert final.startswith("<returncode>-9</returncode><stdout>")
    assert final.endswith(
        "<stderr>TimeoutError: The command exceeded the timeout of 0.5 seconds.</stderr>"
    )
    sleep_pid = int(final.split("<stdout>")[1].split("</stdout>")[0])
    assert await wait_gone(sleep_pid)


@posix_only
async def test_background_child_holding_the_pipes_does_not_hang_the_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_process, "EXIT_GRACE", 0.2)
    start = time.monotonic()
    chunks = await chunks_of(execute_shell_command("sleep 30 & echo started", timeout=20))
    assert time.monotonic() - start < 10
    assert text(chunks[-1]) == (
        "<returncode>0</returncode><stdout>started\n</stdout><stderr></stderr>"
    )


async def test_python_timeout() -> None:
    chunks = await chunks_of(execute_python_code("import time; time.sleep(30)", timeout=0.3))
    assert "TimeoutError: The code execution exceeded the timeout of 0.3 seconds." in text(
        chunks[-1]
    )


async def test_invalid_timeout() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(execute_python_code)
    call = tool_call("execute_python_code", code="print(1)", timeout=0)
    (chunk,) = await chunks_of(await toolkit.call_tool_function(call))
    assert text(chunk) == "Error: the timeout must be a positive number of seconds, got 0."


async def test_output_is_capped() -> None:
    code = "import sys; sys.stdout.write('x' * 300000)"
    final = text((await chunks_of(execute_python_code(code)))[-1])
    assert final.startswith(
        "<returncode>0</returncode><stdout>" + "x" * 100_000 + "\n[output truncated]</stdout>"
    )


async def cancel_after_first_output(
    toolkit: Toolkit, name: str, **arguments: object
) -> tuple[int, list[ToolResponse]]:
    """Start the call, cancel it once the program printed its PID, return the PID and chunks."""
    chunks: list[ToolResponse] = []
    started = asyncio.Event()

    async def consume() -> None:
        async for chunk in await toolkit.call_tool_function(tool_call(name, **arguments)):
            chunks.append(chunk)
            started.set()

    task = asyncio.create_task(consume())
    await started.wait()
    pid = int(text(chunks[0]).split("<stdout>")[1].split("</stdout>")[0])
    task.cancel()
    await task
    return pid, chunks


async def test_cancelling_python_kills_and_reaps_the_process() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(execute_python_code)
    code = "import os, sys, time\nsys.stdout.write(f'{os.getpid()}\\n')\ntime.sleep(30)"
    start = time.monotonic()
    pid, chunks = await cancel_after_first_output(toolkit, "execute_python_code", code=code)
    assert time.monotonic() - start < 10
    assert is_gone(pid)  # killed and already reaped when the call ended
    final = chunks[-1]
    assert final.is_interrupted and final.is_last
    assert final.content[-1]["text"] == INTERRUPTED
    assert texts(final) == [f"<stdout>{pid}\n</stdout><stderr></stderr>", INTERRUPTED]


@posix_only
async def test_cancelling_a_shell_command_kills_its_whole_group() -> None:
    toolkit = Toolkit()
    toolkit.register_tool_function(execute_shell_command)
    pid, chunks = await cancel_after_first_output(
        toolkit, "execute_shell_command", command="sleep 30 & echo $!; wait"
    )
    assert await wait_gone(pid)
    assert chunks[-1].is_interrupted
    assert chunks[-1].content[-1]["text"] == INTERRUPTED


@posix_only
async def test_a_cancel_landing_mid_spawn_ends_the_call_and_kills_the_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Stop arriving while the process is being spawned ends the call (interrupted) and
    leaves no process. (The slow path this guards, asyncio waiting for pipes that never
    connect, depends on timing; benchmarks/bench_stop.py measures it: "tool just spawned".)"""
    marker = tmp_path / "pid"
    toolkit = Toolkit()
    toolkit.register_tool_function(execute_shell_command)
    call = tool_call("execute_shell_command", command=f"echo $$ > {marker}; exec sleep 30")
    real_spawn = asyncio.create_subprocess_shell
    consumer: list[asyncio.Task[list[ToolResponse]]] = []

    async def spawn_then_stop(*args: object, **kwargs: object) -> asyncio.subprocess.Process:
        consumer[0].cancel()  # the user's Stop arrives while the process is being spawned
        return await real_spawn(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_process.asyncio, "create_subprocess_shell", spawn_then_stop)

    async def consume() -> list[ToolResponse]:
        return [chunk async for chunk in await toolkit.call_tool_function(call)]

    consumer.append(asyncio.create_task(consume()))
    done, _ = await asyncio.wait(consumer, timeout=5)
    assert done, "the call did not end after the Stop"
    chunks = consumer[0].result()
    assert chunks[-1].is_interrupted and chunks[-1].is_last
    if marker.exists() and marker.read_text().strip():
        assert await wait_gone(int(marker.read_text()))
