"""Build the one-folder app ``dist/desktop-agent/`` and check that it works (``make package``).

Steps: install PyInstaller into this interpreter's environment if it is missing (the
``package`` extra of ``pyproject.toml`` names the version), compile the translations
(``scripts/i18n.py release``), run ``packaging/desktop-agent.spec``, check that the
translations and the input-method plugins are in the bundle and that every library in it
finds the Qt and FFmpeg libraries it links (the spec leaves unused Qt parts out; this
catches leaving out one too many), then run the built
app's ``--self-check`` offscreen. Prints the bundle's size; exits non-zero on any failure.

Usage: ``.venv/bin/python packaging/build.py [--no-check]``
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "desktop-agent.spec"
DIST = ROOT / "dist"
WORK = ROOT / "build" / "pyinstaller"
APP = DIST / "desktop-agent"
EXECUTABLE = APP / "desktop-agent"
SELF_CHECK_TIMEOUT_S = 120

# Libraries that must come from the bundle; anything else missing (libwayland-cursor on a
# machine without Wayland, say) is expected from the user's system and only reported.
BUNDLED = re.compile(r"lib(Qt6|pyside6|shiboken6|python3|av|sw)")
_NOT_FOUND = re.compile(r"^\s*(\S+) => not found", re.MULTILINE)
# Files the bundle must hold (below _internal/): the app's translations, Qt's for the same
# languages, and the input methods (IBus, which fcitx5 also speaks; compose keys).
REQUIRED_FILES = (
    "desktop_agent/resources/i18n/desktop_agent_en.qm",
    "desktop_agent/resources/i18n/desktop_agent_zh_CN.qm",
    "PySide6/Qt/translations/qtbase_zh_CN.qm",
    "PySide6/Qt/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so",
    "PySide6/Qt/plugins/platforminputcontexts/libcomposeplatforminputcontextplugin.so",
)


def ensure_pyinstaller() -> None:
    """Install the ``package`` extra's PyInstaller with pip when it does not import."""
    if importlib.util.find_spec("PyInstaller") is not None:
        return
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    requirements = project["project"]["optional-dependencies"]["package"]
    print(f"Installing {', '.join(requirements)} …", flush=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *requirements], check=True)


def compile_translations() -> None:
    """``resources/i18n/*.qm`` from ``translations/*.ts`` (they are not in git)."""
    subprocess.run([sys.executable, str(ROOT / "scripts" / "i18n.py"), "release"], check=True)


def missing_files(app: Path) -> list[str]:
    """The :data:`REQUIRED_FILES` the bundle lacks (the ``.so`` ones on Linux only)."""
    internal = app / "_internal"
    wanted = [f for f in REQUIRED_FILES if sys.platform == "linux" or not f.endswith(".so")]
    return [name for name in wanted if not (internal / name).is_file()]


def run_pyinstaller() -> None:
    """Build ``dist/desktop-agent`` from the spec (replacing an earlier build)."""
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN"]
    command += ["--distpath", str(DIST), "--workpath", str(WORK), str(SPEC)]
    subprocess.run(command, check=True, cwd=ROOT)


def elf_files(folder: Path) -> Iterator[Path]:
    """The executable and the shared libraries under ``folder``."""
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink() and _is_elf(path):
            yield path


def _is_elf(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(4) == b"\x7fELF"


def missing_libraries(app: Path) -> dict[str, set[str]]:
    """For each library name ``ldd`` cannot resolve, the bundle files that need it."""
    internal = app / "_internal"
    search = [internal, internal / "PySide6" / "Qt" / "lib"]
    env = {**os.environ, "LD_LIBRARY_PATH": os.pathsep.join(map(str, search))}
    missing: dict[str, set[str]] = {}
    for path in elf_files(app):
        done = subprocess.run(["ldd", str(path)], capture_output=True, text=True, env=env)
        for name in _NOT_FOUND.findall(done.stdout):
            missing.setdefault(name, set()).add(str(path.relative_to(app)))
    return missing


def check_libraries(app: Path) -> bool:
    """Report unresolved libraries; return whether none of them should be in the bundle."""
    if sys.platform != "linux":
        return True
    ok = True
    for name, users in sorted(missing_libraries(app).items()):
        bundled = BUNDLED.match(name) is not None
        ok = ok and not bundled
        kind = "MISSING from the bundle" if bundled else "expected from the system"
        print(f"  {name}: {kind} (needed by {len(users)} files, e.g. {min(users)})")
    return ok


def run_self_check(executable: Path) -> bool:
    """Run the built app's ``--self-check`` offscreen; return whether it passed."""
    with tempfile.TemporaryDirectory(prefix="desktop-agent-build-") as home:
        env = {**os.environ, "DESKTOP_AGENT_HOME": home}
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        done = subprocess.run(
            [str(executable), "--self-check"],
            capture_output=True,
            text=True,
            env=env,
            cwd=home,
            timeout=SELF_CHECK_TIMEOUT_S,
        )
    print(done.stdout, end="")
    if done.returncode != 0:
        print(done.stderr, end="", file=sys.stderr)
    return done.returncode == 0


def folder_size(folder: Path) -> int:
    """Bytes of the regular files under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def main(argv: list[str] | None = None) -> int:
    """Build, check, report; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-check", action="store_true", help="skip the checks of the build")
    args = parser.parse_args(argv)
    ensure_pyinstaller()
    compile_translations()
    run_pyinstaller()
    print(f"Built {APP.relative_to(ROOT)}: {folder_size(APP) / 2**20:.0f} MiB")
    if args.no_check:
        return 0
    missing = missing_files(APP)
    if missing:
        print(f"build.py: the bundle lacks {', '.join(missing)} (see desktop-agent.spec)")
        return 1
    print("Libraries:")
    if not check_libraries(APP):
        print("build.py: the bundle lacks libraries it links (see packaging/desktop-agent.spec)")
        return 1
    print("Self-check of the built app:")
    return 0 if run_self_check(EXECUTABLE) else 1


if __name__ == "__main__":
    sys.exit(main())
