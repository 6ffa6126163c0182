"""The window's translations: extract, merge, check and compile them with PySide6's tools.

Sources are wrapped in ``QCoreApplication.translate("Context", "text")`` (the ``ui``
package) or ``desktop_agent._i18n.translate("Context", "text")`` (Qt-free layers);
``pyside6-lupdate`` finds both. The ``.ts`` files live in ``translations/``, one per area
and language (``<area>_<lang>.ts``) so that areas can be translated independently;
``pyside6-lrelease`` compiles every area of a language into one
``resources/i18n/desktop_agent_<lang>.qm``.

lupdate's Python parser does not recognise plural (numerus) messages, so this script
merges its output itself: a message whose source holds ``%n`` is numerus, existing
translations are kept, vanished messages are dropped. English needs only the plural
forms ("%n model(s)" -> "1 model" / "2 models"); Simplified Chinese needs every message.

Usage::

    python scripts/i18n.py update            # re-extract, merge into translations/*.ts
    python scripts/i18n.py release           # compile resources/i18n/*.qm
    python scripts/i18n.py check             # non-zero when anything is new, vanished or unfinished
    python scripts/i18n.py pseudo OUT.qm     # every text wrapped in ⟦…⟧ (for the pseudo test)
    python scripts/i18n.py todo [AREA] [--lang zh_CN] > todo.json   # what needs translating
    python scripts/i18n.py fill todo.json [--lang zh_CN]             # merge it in after filling
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "desktop_agent"
TS_DIR = ROOT / "translations"
QM_DIR = ROOT / "resources" / "i18n"
LANGUAGES = ("en", "zh_CN")
# Plural forms per language (Qt's numerus rules): English one/other, Chinese one form.
NUMERUS_FORMS = {"en": 2, "zh_CN": 1}
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"

# area -> the source folders (recursive) or files it covers. Every .py under desktop_agent/ui
# and desktop_agent/app belongs to exactly one area; other Qt-free packages join "app".
AREAS: dict[str, tuple[str, ...]] = {
    "chat": (
        "ui/chat",
        "ui/composer",
        "ui/export",
        "ui/__init__.py",
        "ui/_*.py",
        "ui/app.py",
        "ui/theme.py",
    ),
    "window": ("ui/window", "ui/sidebar", "ui/permissions"),
    "settings": ("ui/settings", "ui/template_editor"),
    "app": (
        "app",
        "_i18n.py",
        "__main__.py",
        "model",
        "tool",
        "context",
        "mcp",
        "plan",
        "session",
        "memory",
        "formatter",
    ),
}


@dataclass(frozen=True)
class Key:
    context: str
    source: str
    comment: str = ""


@dataclass
class Entry:
    key: Key
    forms: list[str] = field(default_factory=list)  # empty: unfinished

    @property
    def numerus(self) -> bool:
        return "%n" in self.key.source


def area_files(area: str) -> list[Path]:
    files: set[Path] = set()
    for pattern in AREAS[area]:
        path = PACKAGE / pattern
        if path.is_dir():
            files.update(path.rglob("*.py"))
        else:
            files.update(PACKAGE.glob(pattern))
    return sorted(f for f in files if "__pycache__" not in f.parts)


def _tool(name: str) -> str:
    import PySide6

    folder = Path(PySide6.__file__).parent
    for candidate in (folder / name, folder / f"{name}.exe", folder / "Qt" / "libexec" / name):
        if candidate.exists():
            return str(candidate)
    raise SystemExit(f"PySide6's {name} was not found next to {folder}")


def extract(area: str) -> list[Key]:
    """The messages lupdate finds in an area's sources, in source order per context."""
    files = area_files(area)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "extract.ts"
        subprocess.run(
            [_tool("lupdate"), "-silent", "-locations", "none", *map(str, files), "-ts", str(out)],
            check=True,
        )
        if not out.exists():
            return []
        return [entry.key for entry in read_ts(out)]


def read_ts(path: Path) -> list[Entry]:
    entries: list[Entry] = []
    root = ET.parse(path).getroot()
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            key = Key(name, message.findtext("source") or "", message.findtext("comment") or "")
            translation = message.find("translation")
            forms: list[str] = []
            if translation is not None and translation.get("type") not in {
                "unfinished",
                "vanished",
                "obsolete",
            }:
                numerus = translation.findall("numerusform")
                forms = [f.text or "" for f in numerus] if numerus else [translation.text or ""]
            entries.append(Entry(key, forms))
    return entries


def write_ts(path: Path, language: str, entries: list[Entry]) -> None:
    root = ET.Element("TS", {"version": "2.1", "language": language, "sourcelanguage": "en"})
    by_context: dict[str, list[Entry]] = {}
    for entry in entries:
        by_context.setdefault(entry.key.context, []).append(entry)
    for name in sorted(by_context):
        context = ET.SubElement(root, "context")
        ET.SubElement(context, "name").text = name
        for entry in by_context[name]:
            attrs = {"numerus": "yes"} if entry.numerus else {}
            message = ET.SubElement(context, "message", attrs)
            ET.SubElement(message, "source").text = entry.key.source
            if entry.key.comment:
                ET.SubElement(message, "comment").text = entry.key.comment
            translation = ET.SubElement(message, "translation")
            if not entry.forms:
                translation.set("type", "unfinished")
                for _ in range(NUMERUS_FORMS[language] if entry.numerus else 0):
                    ET.SubElement(translation, "numerusform").text = ""
            elif entry.numerus:
                for form in entry.forms:
                    ET.SubElement(translation, "numerusform").text = form
            else:
                translation.text = entry.forms[0]
    ET.indent(root, space="    ")
    body = ET.tostring(root, encoding="unicode")
    path.write_text(
        f'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n{body}\n', encoding="utf-8"
    )


def ts_path(area: str, language: str) -> Path:
    return TS_DIR / f"{area}_{language}.ts"


def wanted(language: str, keys: list[Key]) -> list[Key]:
    """English translates only plural messages; every other language translates all."""
    return [k for k in keys if "%n" in k.source] if language == "en" else keys


def merged(area: str, language: str, keys: list[Key]) -> tuple[list[Entry], list[Key]]:
    """The area's entries for ``keys`` with the translations already made; and what vanished."""
    path = ts_path(area, language)
    old = {e.key: e for e in read_ts(path)} if path.exists() else {}
    entries = []
    for key in dict.fromkeys(wanted(language, keys)):
        forms = old[key].forms if key in old else []
        if forms and "%n" in key.source and len(forms) != NUMERUS_FORMS[language]:
            forms = []
        entries.append(Entry(key, forms))
    vanished = [k for k in old if k not in {e.key for e in entries}]
    return entries, vanished


def untranslatable_calls(area: str, extracted: list[Key]) -> list[str]:
    """translate() calls lupdate cannot read or silently skipped.

    The text must be a literal: an f-string or a concatenation cannot be looked up. A
    variable is allowed: it holds a ``QT_TRANSLATE_NOOP`` text marked where it is defined.
    lupdate's Python parser also drops, without a word, a call with a call among its
    arguments (``translate("C", "%n files", "", len(files))``): a literal call missing
    from ``extracted`` is reported.
    """
    found = {(k.context, k.source) for k in extracted}
    problems = []
    for path in area_files(area):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name not in {"translate", "QT_TRANSLATE_NOOP"} or len(node.args) < 2:
                continue
            context, text = node.args[0], node.args[1]
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if isinstance(text, ast.JoinedStr | ast.BinOp):
                problems.append(f"{where}: the text is an f-string or a concatenation")
            elif (
                isinstance(context, ast.Constant)
                and isinstance(text, ast.Constant)
                and isinstance(text.value, str)
                and (context.value, text.value) not in found
            ):
                problems.append(
                    f"{where}: lupdate skipped this call (a call among its arguments? "
                    "assign the count to a name first)"
                )
    return problems


PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:[:!][^{}]*)?\}|%n|%L?\d|%[sd]")
MNEMONIC = re.compile(r"&(?!&)\S")


def placeholder_problems(entry: Entry) -> list[str]:
    """A translation must keep the source's placeholders ({name}, %n, %1) and its mnemonic."""
    problems = []
    want = sorted(PLACEHOLDER.findall(entry.key.source))
    for form in entry.forms:
        if sorted(PLACEHOLDER.findall(form)) != want:
            problems.append(f"placeholders {want} not kept in {form!r}")
        if MNEMONIC.search(entry.key.source) and not MNEMONIC.search(form):
            problems.append(f"the & mnemonic is missing in {form!r} (e.g. '发送(&S)')")
    return problems


def cmd_update(areas: list[str]) -> int:
    TS_DIR.mkdir(exist_ok=True)
    for area in areas:
        keys = extract(area)
        for language in LANGUAGES:
            entries, vanished = merged(area, language, keys)
            write_ts(ts_path(area, language), language, entries)
            todo = sum(1 for e in entries if not e.forms)
            print(
                f"{ts_path(area, language).relative_to(ROOT)}: {len(entries)} messages, "
                f"{todo} unfinished, {len(vanished)} dropped"
            )
    return 0


def cmd_check(areas: list[str]) -> int:
    problems: list[str] = []
    for area in areas:
        keys = extract(area)
        problems += untranslatable_calls(area, keys)
        for language in LANGUAGES:
            path = ts_path(area, language)
            if not path.exists():
                problems.append(
                    f"{path.relative_to(ROOT)} is missing (run: scripts/i18n.py update)"
                )
                continue
            stored = [e.key for e in read_ts(path)]
            entries, vanished = merged(area, language, keys)
            new = [e.key for e in entries if e.key not in set(stored)]
            rel = path.relative_to(ROOT)
            problems += [f"{rel}: new, not in the .ts: {k.context}: {k.source!r}" for k in new]
            problems += [
                f"{rel}: vanished from the sources: {k.context}: {k.source!r}" for k in vanished
            ]
            problems += [
                f"{rel}: unfinished: {e.key.context}: {e.key.source!r}"
                for e in entries
                if not e.forms
            ]
            problems += [
                f"{rel}: {e.key.context}: {e.key.source!r}: {p}"
                for e in entries
                for p in placeholder_problems(e)
            ]
    print("\n".join(problems) or "translations: complete")
    return 1 if problems else 0


def cmd_release() -> int:
    QM_DIR.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        sources = [str(ts_path(a, language)) for a in AREAS if ts_path(a, language).exists()]
        if not sources:
            continue
        out = QM_DIR / f"desktop_agent_{language}.qm"
        # Written aside, then renamed over: a running app maps the old file (QTranslator),
        # and rewriting a mapped file in place kills it with SIGBUS.
        partial = out.with_name(f".{out.name}.partial")
        subprocess.run([_tool("lrelease"), "-silent", *sources, "-qm", str(partial)], check=True)
        partial.replace(out)
        print(f"{out.relative_to(ROOT)}")
    return 0


def cmd_pseudo(out: Path) -> int:
    """A .qm that wraps every message of every area in ⟦…⟧ (English plural rules)."""
    entries = []
    for area in AREAS:
        for key in extract(area):
            text = f"{PSEUDO_OPEN}{key.source}{PSEUDO_CLOSE}"
            entries.append(Entry(key, [text, text] if "%n" in key.source else [text]))
    with tempfile.TemporaryDirectory() as tmp:
        ts = Path(tmp) / "pseudo.ts"
        write_ts(ts, "en", entries)
        subprocess.run([_tool("lrelease"), "-silent", str(ts), "-qm", str(out)], check=True)
    return 0


def cmd_todo(areas: list[str], language: str) -> int:
    """Print the unfinished messages as JSON for ``fill`` (translation "" or a list of forms)."""
    todo = []
    for area in areas:
        path = ts_path(area, language)
        for entry in read_ts(path) if path.exists() else []:
            if not entry.forms:
                empty: str | list[str] = [""] * NUMERUS_FORMS[language] if entry.numerus else ""
                item = {"context": entry.key.context, "source": entry.key.source}
                if entry.key.comment:
                    item["comment"] = entry.key.comment
                todo.append({**item, "translation": empty})
    print(json.dumps(todo, ensure_ascii=False, indent=1))
    return 0


def cmd_fill(path: Path, language: str) -> int:
    """Merge translations from a JSON list (as ``todo`` prints) into the areas' .ts files."""
    given = {
        Key(i["context"], i["source"], i.get("comment", "")): i["translation"]
        for i in json.loads(path.read_text(encoding="utf-8"))
        if i.get("translation")
    }
    used = set()
    for area in AREAS:
        ts = ts_path(area, language)
        if not ts.exists():
            continue
        entries = read_ts(ts)
        changed = False
        for entry in entries:
            if entry.key in given:
                value = given[entry.key]
                forms = list(value) if isinstance(value, list) else [value]
                changed = changed or forms != entry.forms
                entry.forms = forms
                used.add(entry.key)
        if changed:  # other areas' files are left alone (someone may be editing them)
            write_ts(ts, language, entries)
    unknown = [k for k in given if k not in used]
    for key in unknown:
        print(f"not in any .ts (run update first?): {key.context}: {key.source!r}", file=sys.stderr)
    print(f"filled {len(used)} translation(s) for {language}")
    return 1 if unknown else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = ["update", "release", "check", "pseudo", "todo", "fill"]
    parser.add_argument("command", choices=commands)
    parser.add_argument(
        "arg", nargs="?", help="an area (update/check/todo), .qm (pseudo), .json (fill)"
    )
    parser.add_argument("--lang", default="zh_CN", choices=LANGUAGES)
    args = parser.parse_args(argv)
    areas = [args.arg] if args.arg and args.command not in {"pseudo", "fill"} else list(AREAS)
    if args.command == "update":
        return cmd_update(areas)
    if args.command == "check":
        return cmd_check(areas)
    if args.command == "release":
        return cmd_release()
    if args.command == "pseudo":
        return cmd_pseudo(Path(args.arg or "pseudo.qm").resolve())
    if args.command == "fill":
        return cmd_fill(Path(args.arg), args.lang)
    return cmd_todo(areas, args.lang)


if __name__ == "__main__":
    sys.exit(main())
