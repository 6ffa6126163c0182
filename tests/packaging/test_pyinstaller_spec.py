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


def _left_out(destination: str) -> bool:
    """Whether the spec's UNWANTED_FILES drop a collected file at ``destination``."""
    patterns = _string_list("UNWANTED_FILES")
    return any(re.match(pattern, destination) for pattern in patterns)


def _pyside_file(relative: str) -> Path:
    import PySide6

    return Path(PySide6.__file__).parent / relative


def test_the_input_method_plugins_are_bundled() -> None:
    """IBus (fcitx5 speaks it too) and compose: PySide6 has them and the spec keeps them."""
    folder = "PySide6/Qt/plugins/platforminputcontexts"
    for plugin in (
        "libibusplatforminputcontextplugin.so",
        "libcomposeplatforminputcontextplugin.so",
    ):
        assert _pyside_file(f"Qt/plugins/platforminputcontexts/{plugin}").is_file()
        assert not _left_out(f"{folder}/{plugin}"), f"the spec leaves {plugin} out"
    assert _left_out(f"{folder}/libqtvirtualkeyboardplugin.so")  # a QML keyboard: out
    build = (ROOT / "packaging" / "build.py").read_text(encoding="utf-8")
    assert f"{folder}/libibusplatforminputcontextplugin.so" in build  # checked after a build


def test_qt_translations_ship_for_the_apps_languages_only() -> None:
    assert _pyside_file("Qt/translations/qtbase_zh_CN.qm").is_file()
    assert not _left_out("PySide6/Qt/translations/qtbase_zh_CN.qm")
    assert _left_out("PySide6/Qt/translations/qtbase_de.qm")
    assert _left_out("PySide6/Qt/translations/qtdeclarative_zh_CN.qm")
    build = (ROOT / "packaging" / "build.py").read_text(encoding="utf-8")
    assert "desktop_agent/resources/i18n/desktop_agent_zh_CN.qm" in build
