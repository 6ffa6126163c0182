"""ARCHITECTURE.md and the import contracts stay true as the code changes.

- Every top-level package is in ARCHITECTURE.md's code map, and every package, module or
  file the document names exists.
- ``lint-imports`` (import-linter, ``.importlinter``) passes: layers point down, only
  ``ui`` imports Qt, no import cycles.
- Every top-level package is placed in the layers contract and (except ``ui``) is a
  source of the "no Qt" contract, so a new package cannot slip past them.
"""

from __future__ import annotations

import ast
import configparser
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "desktop_agent"
ARCHITECTURE = ROOT / "ARCHITECTURE.md"
IMPORTLINTER = ROOT / ".importlinter"
NOT_PACKAGES = {"resources"}  # shipped data (a symlink to ../resources), not code

_DOTTED = re.compile(r"\bdesktop_agent(?:\.[A-Za-z_]\w*)+")
_SLASHED = re.compile(r"\bdesktop_agent(?:/[\w.-]+)+/?")
_CODE_SPAN = re.compile(r"`([^`\s]+)`")
_QT = "PySide6"


def top_level_packages() -> list[str]:
    """The public packages directly under ``desktop_agent/``."""
    return sorted(
        path.name
        for path in PACKAGE.iterdir()
        if path.is_dir()
        and not path.name.startswith("_")
        and path.name not in NOT_PACKAGES
        and (path / "__init__.py").is_file()
    )


def _architecture_text() -> str:
    return ARCHITECTURE.read_text(encoding="utf-8")


def _section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match is not None, f"ARCHITECTURE.md has no '## {title}' section"
    return match.group(1)


def _named_packages(text: str) -> set[str]:
    """Top-level package names written as ``desktop_agent.NAME`` or ``desktop_agent/NAME``."""
    names = {m.group(0).split(".")[1] for m in _DOTTED.finditer(text)}
    return names | {m.group(0).split("/")[1] for m in _SLASHED.finditer(text)}


@cache
def _top_level_names(source: Path) -> frozenset[str]:
    """Names a module defines or imports at its top level (``if``/``try`` bodies included)."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    names: set[str] = set()
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.If | ast.Try):
            pending += [*node.body, *node.orelse, *getattr(node, "finalbody", [])]
            pending += [stmt for handler in getattr(node, "handlers", []) for stmt in handler.body]
    return frozenset(names)


def _module_file(parts: list[str]) -> Path | None:
    """The source of ``desktop_agent.<parts>`` (a package's ``__init__.py``), if it exists."""
    path = PACKAGE.joinpath(*parts)
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    if path.with_name(path.name + ".py").is_file():
        return path.with_name(path.name + ".py")
    return None


def dotted_problem(reference: str) -> str | None:
    """Why ``desktop_agent.a.b.Name.attr`` does not resolve, or ``None`` when it does.

    The longest prefix that is a module or package must exist; the next part, if any,
    must be a name that module defines or imports (what follows it, e.g. a method, is not
    checked).
    """
    parts = reference.split(".")[1:]
    for length in range(len(parts), 0, -1):
        source = _module_file(parts[:length])
        if source is None:
            continue
        if length == len(parts) or parts[length] in _top_level_names(source):
            return None
        return f"{'.'.join(parts[:length])} defines no {parts[length]!r}"
    return f"there is no package desktop_agent.{parts[0]}"


def slashed_problem(reference: str) -> str | None:
    """Why the path ``desktop_agent/...`` does not exist, or ``None`` when it does."""
    return None if (ROOT / reference).exists() else "no such file or folder"


@cache
def _source_file_names() -> frozenset[str]:
    return frozenset(
        path.name for base in (PACKAGE, ROOT / "benchmarks") for path in base.rglob("*.py")
    )


def relative_path_problem(token: str) -> str | None:
    """For a code span that is a repository path (``tests/...``, ``app/_files.py``, or a
    bare ``_model.py`` named in its package's paragraph): ``None`` when it exists (under
    the root, ``desktop_agent/`` or ``benchmarks/``; a bare file name anywhere in them);
    else why not. Code spans that are not paths here (no ``.py``, and no folder of the
    root or the package as their first part) give ``None``."""
    if any(c in token for c in "<>*:") or token.startswith(("desktop_agent", "/", ".")):
        return None
    if "/" not in token:
        if not token.endswith(".py") or token in _source_file_names():
            return None
        return "no such file in desktop_agent/ or benchmarks/"
    first = token.split("/")[0]
    if not any((base / first).is_dir() for base in (ROOT, PACKAGE)):
        return None  # not a path in this repository (``notifications/cancelled``, ``trash/``)
    for base in (ROOT, PACKAGE):
        if (base / token).exists():
            return None
    return "no such file or folder (looked in the root and in desktop_agent/)"


def test_code_map_names_every_top_level_package() -> None:
    named = _named_packages(_section(_architecture_text(), "Code map"))
    missing = [f"desktop_agent.{name}" for name in top_level_packages() if name not in named]
    assert missing == [], (
        f"ARCHITECTURE.md's code map does not describe {missing}: add each with its one "
        "responsibility and what it must not import"
    )


def test_every_package_path_named_exists() -> None:
    text = _architecture_text()
    problems = [
        f"{ref}: {problem}"
        for ref in sorted({m.group(0) for m in _DOTTED.finditer(text)})
        if (problem := dotted_problem(ref)) is not None
    ]
    problems += [
        f"{ref}: {problem}"
        for ref in sorted({m.group(0).rstrip(".") for m in _SLASHED.finditer(text)})
        if (problem := slashed_problem(ref)) is not None
    ]
    assert problems == [], "ARCHITECTURE.md names what does not exist:\n" + "\n".join(problems)


def test_every_file_path_named_exists() -> None:
    spans = sorted(set(_CODE_SPAN.findall(_architecture_text())))
    problems = [
        f"{span}: {problem}"
        for span in spans
        if (problem := relative_path_problem(span)) is not None
    ]
    assert problems == [], "ARCHITECTURE.md names missing files:\n" + "\n".join(problems)


def test_reference_checks_catch_what_is_gone() -> None:
    """The resolver above accepts real names and refuses invented ones."""
    assert dotted_problem("desktop_agent.app.ChatService.send") is None
    assert dotted_problem("desktop_agent.ui.chat._markdown.RICH_INTERVAL_S") is None
    assert dotted_problem("desktop_agent.testing.server") is None
    assert dotted_problem("desktop_agent.app.NoSuchService") is not None
    assert dotted_problem("desktop_agent.no_such_package") is not None
    assert slashed_problem("desktop_agent/testing/README.md") is None
    assert slashed_problem("desktop_agent/app/no_such_module.py") is not None
    assert relative_path_problem("app/_chat_service.py") is None
    assert relative_path_problem("tests/test_package.py") is None
    assert relative_path_problem("bench_stop.py") is None
    assert relative_path_problem("_coalescer.py") is None
    assert relative_path_problem("_no_such_module.py") is not None
    assert relative_path_problem("app/_no_such_module.py") is not None
    assert relative_path_problem("settings.json") is None  # a user's file, not a path here
    assert relative_path_problem("notifications/cancelled") is None  # not a path at all
    assert relative_path_problem("tests/no_such_test.py") is not None


def _lint_imports() -> Path:
    return Path(sys.executable).parent / "lint-imports"


@pytest.mark.skipif(not _lint_imports().exists(), reason="import-linter is not installed")
def test_import_contracts_are_kept() -> None:
    out = subprocess.run(
        [str(_lint_imports()), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def _contracts() -> list[configparser.SectionProxy]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(IMPORTLINTER, encoding="utf-8")
    return [parser[name] for name in parser.sections() if name.startswith("importlinter:contract:")]


def _names(value: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_][\w.]*", value))


def test_every_package_has_a_layer() -> None:
    layers = [c for c in _contracts() if c.get("type") == "layers"]
    assert layers, ".importlinter has no layers contract"
    placed = set().union(*(_names(c.get("layers", "")) for c in layers))
    missing = [name for name in top_level_packages() if name not in placed]
    assert missing == [], f".importlinter's layers contract does not place {missing}"


def test_every_package_but_ui_is_kept_free_of_qt() -> None:
    no_qt = [
        c
        for c in _contracts()
        if c.get("type") == "forbidden" and _QT in _names(c.get("forbidden_modules", ""))
    ]
    assert no_qt, f".importlinter has no contract forbidding {_QT}"
    sources = set().union(*(_names(c.get("source_modules", "")) for c in no_qt))
    missing = [
        f"desktop_agent.{name}"
        for name in top_level_packages()
        if name != "ui" and f"desktop_agent.{name}" not in sources
    ]
    assert missing == [], f"the no-Qt contract in .importlinter does not cover {missing}"
