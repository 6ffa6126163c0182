"""Linux desktop integration: the .desktop entry, the AppStream metainfo, install.sh.

The two validators come from Debian's ``desktop-file-utils`` and ``appstream`` packages;
their checks are skipped where the tools are not installed.
"""

from __future__ import annotations

import configparser
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from desktop_agent import __version__
from desktop_agent.ui.app import APP_ID, ICON_SIZES

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "packaging" / "linux"
DESKTOP_FILE = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"

needs_desktop_file_validate = pytest.mark.skipif(
    shutil.which("desktop-file-validate") is None,
    reason="desktop-file-validate is not installed (Debian package desktop-file-utils)",
)
needs_appstreamcli = pytest.mark.skipif(
    shutil.which("appstreamcli") is None,
    reason="appstreamcli is not installed (Debian package appstream)",
)


def _desktop_entry(path: Path = DESKTOP_FILE) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def _script_name() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (name,) = project["project"]["scripts"]
    return str(name)


def test_desktop_entry_launches_the_entry_point_with_the_app_icon() -> None:
    entry = _desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] == "Desktop Agent"
    assert entry["Exec"] == _script_name() == "desktop-agent"
    assert entry["Icon"] == APP_ID  # the hicolor name install.sh gives the icons
    assert entry["Terminal"] == "false"


def test_metainfo_names_the_app_its_launcher_and_this_release() -> None:
    component = ET.parse(METAINFO).getroot()
    assert component.get("type") == "desktop-application"
    assert component.findtext("id") == APP_ID
    assert component.findtext("launchable") == DESKTOP_FILE.name
    assert component.findtext("provides/binary") == _script_name()
    releases = component.findall("releases/release")
    assert releases and releases[0].get("version") == __version__  # newest release first


@needs_desktop_file_validate
def test_desktop_entry_is_valid_as_shipped_and_as_installed(tmp_path: Path) -> None:
    _install(tmp_path, "--exec", str(tmp_path / "My Apps" / "desktop-agent"))
    installed = tmp_path / "share" / "applications" / DESKTOP_FILE.name
    for path in (DESKTOP_FILE, installed):
        done = subprocess.run(
            ["desktop-file-validate", str(path)], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


@needs_appstreamcli
def test_metainfo_is_valid() -> None:
    done = subprocess.run(
        ["appstreamcli", "validate", "--no-net", str(METAINFO)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _install(prefix: Path, *args: str) -> None:
    done = subprocess.run(
        ["sh", str(LINUX / "install.sh"), "--prefix", str(prefix), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_install_script_puts_every_file_where_desktops_look(tmp_path: Path) -> None:
    command = str(tmp_path / "My Apps" / "desktop-agent")
    _install(tmp_path, "--exec", command)
    share = tmp_path / "share"
    assert (share / "metainfo" / METAINFO.name).read_bytes() == METAINFO.read_bytes()
    assert _desktop_entry(share / "applications" / DESKTOP_FILE.name)["Exec"] == f'"{command}"'
    hicolor = share / "icons" / "hicolor"
    assert (hicolor / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    for size in ICON_SIZES:
        assert (hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png").is_file()
    _install(tmp_path, "--uninstall")
    assert not [p for p in share.rglob("*") if p.is_file() and APP_ID in p.name]


@needs_appstreamcli
def test_installed_tree_is_valid(tmp_path: Path) -> None:
    _install(tmp_path)
    done = subprocess.run(
        ["appstreamcli", "validate-tree", "--no-net", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
