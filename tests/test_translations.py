"""The translations are complete and compile (issue 21).

``scripts/i18n.py check`` must find nothing new, vanished or unfinished (and placeholders
and ``&`` mnemonics kept); the compiled Simplified Chinese catalogue translates a known
text of each area; English gets its plural forms; and the Qt-free layers' ``translate()``
speaks Chinese once the window installed Qt as its backend.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator

from desktop_agent import _i18n

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "i18n.py"
# (area, context, English, Simplified Chinese): one text each area's users surely see.
KNOWN = [
    ("chat", "Composer", "Send", "发送"),
    ("window", "Sidebar", "Trash", "回收站"),
    ("settings", "SettingsDialog", "Appearance", "外观"),
    ("app", "McpServerStatus", "Connected · %n tool(s)", "已连接 · 3 个工具"),
]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _compile(language: str, out: Path) -> Path:
    """The areas' ``<area>_<language>.ts`` compiled into ``out`` (as ``release`` does)."""
    script = _script()
    sources = [str(script.ts_path(a, language)) for a in script.AREAS]
    qm = out / f"desktop_agent_{language}.qm"
    subprocess.run([script._tool("lrelease"), "-silent", *sources, "-qm", str(qm)], check=True)
    return qm


@pytest.fixture
def installed(qapp: object, tmp_path: Path) -> Iterator[list[QTranslator]]:
    """Translators installed by a test; removed, with the Qt-free backend, afterwards."""
    translators: list[QTranslator] = []
    yield translators
    for translator in translators:
        QCoreApplication.removeTranslator(translator)
    _i18n.set_backend(None)


def _install(language: str, folder: Path, installed: list[QTranslator]) -> None:
    translator = QTranslator()
    assert translator.load(str(_compile(language, folder)))
    assert QCoreApplication.installTranslator(translator)
    installed.append(translator)


def test_the_translations_are_complete() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "check"], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, "scripts/i18n.py check found:\n" + result.stdout
    assert result.stdout.strip() == "translations: complete"


def test_chinese_translates_a_known_text_of_each_area(
    tmp_path: Path, installed: list[QTranslator]
) -> None:
    _install("zh_CN", tmp_path, installed)
    shown = {
        area: QCoreApplication.translate(context, source, None, 3 if "%n" in source else -1)
        for area, context, source, _chinese in KNOWN
    }
    assert shown == {area: chinese for area, _c, _s, chinese in KNOWN}


def test_english_plurals_have_a_singular_and_a_plural(
    tmp_path: Path, installed: list[QTranslator]
) -> None:
    def tools(n: int) -> str:
        return QCoreApplication.translate("McpServerStatus", "Connected · %n tool(s)", None, n)

    assert (tools(1), tools(2)) == ("Connected · 1 tool(s)", "Connected · 2 tool(s)")
    _install("en", tmp_path, installed)
    assert (tools(1), tools(2)) == ("Connected · 1 tool", "Connected · 2 tools")


def test_the_qt_free_layers_speak_chinese_once_the_backend_is_installed(
    tmp_path: Path, installed: list[QTranslator]
) -> None:
    assert _i18n.translate("McpServerStatus", "Connected · %n tool(s)", None, 1) == (
        "Connected · 1 tool"  # no backend yet: the English source, %n and (s) filled
    )
    _install("zh_CN", tmp_path, installed)
    _i18n.set_backend(QCoreApplication.translate)
    assert _i18n.translate("McpServerStatus", "Connected · %n tool(s)", None, 5) == (
        "已连接 · 5 个工具"
    )
