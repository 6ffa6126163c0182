"""Guard rails for every test.

- ``DESKTOP_AGENT_HOME`` points at a fresh temporary folder (user data never touched);
  XDG config/data dirs too, so settings written by the app stay inside the test.
- No test reaches the network: connecting to, or resolving, anything but loopback fails.
- Qt runs offscreen. Warnings are errors (pyproject ``filterwarnings``).
- The window's language is English (``DESKTOP_AGENT_LANGUAGE=en``), whatever the desktop's.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _memory_keyring import MemoryKeyring

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The window speaks English in tests whatever the developer's desktop language (issue 21).
os.environ["DESKTOP_AGENT_LANGUAGE"] = "en"
os.environ.pop("OPENAI_API_KEY", None)
os.environ.pop("OPENAI_BASE_URL", None)
os.environ.pop("DESKTOP_AGENT_MODEL", None)

_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", ""}


def _is_loopback(host: Any) -> bool:
    if isinstance(host, bytes):
        host = host.decode()
    if not isinstance(host, str) or host in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


class NetworkAccessError(RuntimeError):
    """Raised when a test tries to reach a non-loopback address."""


_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


def _guarded_connect(self: socket.socket, address: Any) -> Any:
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address[0]):
        raise NetworkAccessError(f"tests may not connect to {address!r}")
    return _real_connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> Any:
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address[0]):
        raise NetworkAccessError(f"tests may not connect to {address!r}")
    return _real_connect_ex(self, address)


def _guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    if not _is_loopback(host):
        raise NetworkAccessError(f"tests may not resolve {host!r}")
    return _real_getaddrinfo(host, *args, **kwargs)


socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]
socket.getaddrinfo = _guarded_getaddrinfo


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the translations when they were never built (``make test`` always builds
    them), so a window test sees the English plural forms the app shows."""
    root = Path(__file__).resolve().parents[1]
    if not (root / "resources" / "i18n" / "desktop_agent_en.qm").exists():
        script = root / "scripts" / "i18n.py"
        subprocess.run([sys.executable, str(script), "release"], check=True, capture_output=True)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    """The OS keyring replaced by a dict for the test."""
    import keyring

    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture(autouse=True)
def desktop_agent_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets its own data/config folders."""
    home = tmp_path / "da-home"
    home.mkdir()
    monkeypatch.setenv("DESKTOP_AGENT_HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    # never the developer's real keyring (tests that need one set a test backend)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    yield home
