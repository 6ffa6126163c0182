"""The PyInstaller spec (not run here: a build takes minutes; ``make package`` runs it)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "packaging" / "desktop-agent.spec"


def _string_list(name: str) -> set[str]:
    """The string constants in the spec's top-level assignment to ``name``."""
    tree = ast.parse(SPEC.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in node.targets
        ):
            constants = (c for c in ast.walk(node.value) if isinstance(c, ast.Constant))
            return {c.value for c in constants if isinstance(c.value, str)}
    raise AssertionError(f"{name} is not assigned in {SPEC.name}")


def _qt_modules_the_app_imports() -> set[str]:
    pattern = re.compile(r"\b(?:from|import) PySide6\.(Qt\w+)|from PySide6 import (Qt\w+)")
    found: set[str] = set()
    for path in (ROOT / "desktop_agent").rglob("*.py"):
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            found.add(match.group(1) or match.group(2))
    return found


def test_spec_keeps_every_qt_module_the_app_imports() -> None:
    excluded = _string_list("UNUSED_QT_MODULES")
    used = _qt_modules_the_app_imports()
    assert {"QtCore", "QtGui", "QtWidgets", "QtMultimedia"} <= used
    assert not used & excluded, f"the app imports {used & excluded}: update the spec"


def test_spec_ships_resources_where_importlib_resources_finds_them() -> None:
    text = SPEC.read_text(encoding="utf-8")
    assert re.search(r'\(str\(ROOT / "resources"\), "desktop_agent/resources"\)', text)
    assert "desktop_agent.testing" in _string_list("UNUSED_PYTHON_MODULES")
