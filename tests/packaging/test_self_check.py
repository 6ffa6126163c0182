"""``desktop-agent --self-check``: passes offscreen with no provider, and fails loudly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from desktop_agent.ui._self_check import CheckResult, SelfCheckReport

ROOT = Path(__file__).resolve().parents[2]
CHECKS = (
    "window", "icon", "text", "thinking", "tool_use", "tool_result", "image", "audio", "video",
    "error", "tls", "template", "translations", "input", "agent core",
)  # fmt: skip


def _self_check(cwd: Path, *prelude: str) -> subprocess.CompletedProcess[str]:
    """``python -m desktop_agent --self-check``, after running ``prelude`` lines."""
    run = (
        "import sys",
        "from desktop_agent.__main__ import main",
        "sys.exit(main(['--self-check']))",
    )
    code = "\n".join([*prelude, *run])
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "DESKTOP_AGENT_MODEL"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_self_check_passes_offscreen_without_a_provider(
    desktop_agent_home: Path, tmp_path: Path
) -> None:
    done = _self_check(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    for name in CHECKS:
        assert any(line.split()[:2] == ["ok", name.split()[0]] for line in lines), name
    assert lines[-1].startswith(f"self-check passed: {len(CHECKS)} checks")
    assert not any(desktop_agent_home.iterdir())  # the user's data folder is left alone


def test_self_check_fails_when_a_block_cannot_render(tmp_path: Path) -> None:
    # Without QtMultimedia the audio block degrades to "open externally": a broken bundle.
    done = _self_check(tmp_path, "import sys", "sys.modules['PySide6.QtMultimedia'] = None")
    assert done.returncode == 1
    audio = next(line for line in done.stdout.splitlines() if " audio " in line)
    assert audio.split()[0] == "FAIL"
    assert "QtMultimedia is not installed" in audio
    assert done.stdout.splitlines()[-1].startswith("self-check FAILED")


def test_report_passes_only_when_every_check_passed() -> None:
    assert not SelfCheckReport().ok  # no checks ran: nothing was shown to work
    report = SelfCheckReport([CheckResult("window", True, "painted")])
    assert report.ok
    report.results.append(CheckResult("image", False, "not decoded"))
    assert not report.ok
    assert "  FAIL  image        not decoded" in report.lines()


def test_self_check_fails_without_the_compiled_translations(tmp_path: Path) -> None:
    prelude = (
        "import pathlib, desktop_agent.ui._i18n as i18n",
        f"i18n.translations_dir = lambda: pathlib.Path({str(tmp_path)!r})",
    )
    done = _self_check(tmp_path, *prelude)
    assert done.returncode == 1
    line = next(line for line in done.stdout.splitlines() if " translations " in line)
    assert line.split()[0] == "FAIL" and "desktop_agent_zh_CN.qm" in line
