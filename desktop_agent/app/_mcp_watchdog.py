"""Keeps a stdio MCP server from outliving the app, even after ``kill -9`` of the app.

The server is started through a tiny watchdog (``python -I -S -c WATCHDOG``): the SDK
starts it in a new session, so the watchdog leads a process group that the server and
everything the server starts belong to. The watchdog asks Linux to signal it when the
app dies (``PR_SET_PDEATHSIG``; elsewhere it polls its parent id) and then kills the whole
group; when the server exits by itself (a crash), it ends what the server left behind.
The SDK's own shutdown (stdin closed, then ``SIGTERM`` to the group) works unchanged.
"""

from __future__ import annotations

import os
import sys

WATCHDOG = r"""
import os, signal, sys, time
parent = int(sys.argv[1])
def pdeathsig(sig):
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl(1, sig) == 0
    except Exception:
        return False
def kill_group(*_):
    os.killpg(0, signal.SIGKILL)
    os._exit(1)
signal.signal(signal.SIGTERM, kill_group)
signal.signal(signal.SIGHUP, kill_group)
notified = pdeathsig(signal.SIGTERM)
if os.getppid() != parent:
    kill_group()
pid = os.fork()
if pid == 0:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    pdeathsig(signal.SIGKILL)
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    except OSError as exc:
        sys.stderr.write(f"{sys.argv[2]}: {exc.strerror}\n")
        sys.stderr.flush()
        os._exit(127)
status = 0
while True:
    try:
        done, status = os.waitpid(pid, 0 if notified else os.WNOHANG)
    except ChildProcessError:
        break
    if done:
        break
    if os.getppid() != parent:
        kill_group()
    time.sleep(0.5)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
os.killpg(0, signal.SIGTERM)
os._exit(os.waitstatus_to_exitcode(status) if status else 0)
"""


def watchdog_available() -> bool:
    """Whether servers can be wrapped: POSIX, and a real Python interpreter to run it."""
    return os.name == "posix" and not getattr(sys, "frozen", False) and bool(sys.executable)


def guarded_command(command: str, args: list[str]) -> tuple[str, list[str]]:
    """``command args`` run under the watchdog (unchanged where it is not available)."""
    if not watchdog_available():
        return command, args
    return sys.executable, ["-I", "-S", "-c", WATCHDOG, str(os.getpid()), command, *args]
