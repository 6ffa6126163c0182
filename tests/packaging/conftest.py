"""Fixtures for the packaging tests: the wheel, built once, and the wheel installed.

The wheel is built from a copy of the sources (``pip wheel --no-deps --no-build-isolation
--no-index``: offline, with the setuptools of this environment), so the build never writes
``build/`` or ``*.egg-info`` into the checkout.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "desktop_agent", "resources")


def _can_build_wheels() -> bool:
    """setuptools ≥ 70.1 builds wheels on its own; older ones need the ``wheel`` package."""
    try:
        version = importlib.metadata.version("setuptools")  # (importing it has side effects)
    except importlib.metadata.PackageNotFoundError:
        return False
    major, minor = (int(part) for part in re.findall(r"\d+", version)[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


def _copy_sources(target: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            # symlinks=True keeps desktop_agent/resources a link to ../resources, as in git.
            shutil.copytree(source, target / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(source, target / name)


def _compile_translations(source: Path) -> None:
    """``scripts/i18n.py release`` in the copy, as ``make`` runs it before any build: the
    ``.qm`` files are built from ``translations/*.ts`` (they are not in git)."""
    shutil.copytree(ROOT / "translations", source / "translations")
    (source / "scripts").mkdir()
    shutil.copy2(ROOT / "scripts" / "i18n.py", source / "scripts" / "i18n.py")
    script = str(source / "scripts" / "i18n.py")
    subprocess.run([sys.executable, script, "release"], check=True, capture_output=True)


def run_pip(*args: str) -> None:
    """``python -m pip …`` offline; fails the test with pip's output on an error."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", *args, "--no-index", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"pip {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="session")
def wheel_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, as ``pip install .`` would build it."""
    if not _can_build_wheels():
        pytest.skip("building a wheel needs setuptools>=70.1 (or wheel) in this environment")
    work = tmp_path_factory.mktemp("wheel-build")
    source, out = work / "src", work / "dist"
    source.mkdir()
    _copy_sources(source)
    _compile_translations(source)
    run_pip("wheel", str(source), "--no-deps", "--no-build-isolation", "-w", str(out))
    (wheel,) = out.glob("desktop_agent-*.whl")
    return wheel


@pytest.fixture(scope="session")
def installed_wheel(wheel_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder the wheel is installed into (``pip install --target``): its site dir."""
    target = tmp_path_factory.mktemp("wheel-site")
    run_pip("install", "--no-deps", "--target", str(target), str(wheel_file))
    return target
