"""The wheel: it carries the resources and the entry point, and works from any directory."""

from __future__ import annotations

import configparser
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from desktop_agent import __version__

ROOT = Path(__file__).resolve().parents[2]


def _resource_files() -> set[str]:
    """The files of the checkout's resources/ folder, as wheel paths."""
    resources = ROOT / "resources"
    return {
        f"desktop_agent/resources/{path.relative_to(resources).as_posix()}"
        for path in resources.rglob("*")
        if path.is_file() and not path.name.startswith(".")
    }


def test_wheel_carries_every_resource_inside_the_package(wheel_file: Path) -> None:
    names = set(zipfile.ZipFile(wheel_file).namelist())
    expected = _resource_files()
    assert "desktop_agent/resources/context/default.json" in expected
    assert "desktop_agent/resources/icons/desktop-agent-512.png" in expected
    assert expected <= names, f"missing from the wheel: {sorted(expected - names)}"
    # compiled from translations/*.ts before the build (make; the fixture does the same)
    assert "desktop_agent/resources/i18n/desktop_agent_zh_CN.qm" in names
    assert "desktop_agent/resources/i18n/desktop_agent_en.qm" in names
    assert not [name for name in names if name.startswith("resources/")]  # no top-level copy


def test_wheel_declares_the_desktop_agent_entry_point(wheel_file: Path) -> None:
    with zipfile.ZipFile(wheel_file) as wheel:
        text = wheel.read(f"desktop_agent-{__version__}.dist-info/entry_points.txt").decode()
    entry_points = configparser.ConfigParser()
    entry_points.read_string(text)
    assert entry_points["console_scripts"]["desktop-agent"] == "desktop_agent.__main__:main"


def _run_installed(site: Path, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with only the installed wheel (and the dependencies) importable."""
    env = {**os.environ, "PYTHONPATH": str(site), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_installed_wheel_finds_resources_through_importlib(
    installed_wheel: Path, tmp_path: Path
) -> None:
    code = (
        "import json, desktop_agent\n"
        "from desktop_agent._resources import resource_path\n"
        "path = resource_path('context', 'default.json')\n"
        "print(json.dumps([desktop_agent.__file__, str(path), path.read_text()[:1]]))\n"
    )
    done = _run_installed(installed_wheel, tmp_path, sys.executable, "-c", code)
    assert done.returncode == 0, done.stderr
    package_file, resource, first_char = json.loads(done.stdout)
    site = installed_wheel.resolve()
    assert Path(package_file).resolve().is_relative_to(site)  # not the checkout's package
    assert Path(resource).resolve() == site / "desktop_agent/resources/context/default.json"
    assert first_char == "{"


def test_installed_entry_point_self_checks_from_another_directory(
    installed_wheel: Path, tmp_path: Path
) -> None:
    script = installed_wheel / "bin" / "desktop-agent"
    done = _run_installed(installed_wheel, tmp_path, str(script), "--self-check")
    assert done.returncode == 0, done.stdout + done.stderr
    packaged = installed_wheel.resolve() / "desktop_agent" / "resources"
    assert f"resources: {packaged}" in done.stdout
    assert "self-check passed" in done.stdout
