"""The package as a whole: version, entry point, layering, curated exports."""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import desktop_agent

ROOT = Path(__file__).resolve().parents[1]


def test_version_flag_prints_version() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "desktop_agent", "--version"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert out.stdout.strip() == f"desktop-agent {desktop_agent.__version__}"


def test_version_is_the_newest_release_in_the_changelog() -> None:
    """``--version`` names the newest ``## [X.Y.Z] - date`` of CHANGELOG.md."""
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[(\d[^\]]*)\] - \d{4}-\d{2}-\d{2}$", changelog, re.M)
    assert released, "CHANGELOG.md has no released version (## [X.Y.Z] - YYYY-MM-DD)"
    out = subprocess.run(
        [sys.executable, "-m", "desktop_agent", "--version"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert out.stdout.strip() == f"desktop-agent {released[0]}"


def _public_subpackages() -> list[str]:
    names = []
    for info in pkgutil.iter_modules(desktop_agent.__path__):
        if info.ispkg and not info.name.startswith("_") and info.name != "ui":
            names.append(f"desktop_agent.{info.name}")
    return names


def test_all_is_sorted_and_matches_exports() -> None:
    for name in _public_subpackages():
        module = importlib.import_module(name)
        exported = getattr(module, "__all__", None)
        if exported is None:
            continue
        assert list(exported) == sorted(exported), f"{name}.__all__ is not sorted"
        for symbol in exported:
            assert hasattr(module, symbol), f"{name}.__all__ names missing {symbol!r}"
        public = {
            k
            for k, v in vars(module).items()
            if not k.startswith("_") and not isinstance(v, type(sys)) and k != "annotations"
        }
        assert public <= set(exported) | {"logger"}, f"{name} exports {public - set(exported)}"


def test_core_imports_without_qt() -> None:
    """Every layer below ``ui`` imports with PySide6 and qasync made unimportable."""
    code = (
        "import sys\n"
        "for m in ('PySide6', 'qasync', 'shiboken6'):\n"
        "    sys.modules[m] = None\n"
        "import importlib, pkgutil, desktop_agent\n"
        "for info in pkgutil.walk_packages(desktop_agent.__path__, 'desktop_agent.'):\n"
        "    if info.name.startswith('desktop_agent.ui'):\n"
        "        continue\n"
        "    importlib.import_module(info.name)\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("ok")
