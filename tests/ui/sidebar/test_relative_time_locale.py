"""Relative times follow the language and the locale: "3 minutes ago" / "3 分钟前" (issue 21).

The window's translations are compiled from ``translations/window_<lang>.ts`` with
PySide6's ``lrelease`` and installed as the app installs them; weekdays and dates come
from the locale passed in.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from desktop_agent.ui.sidebar import relative_time

ROOT = Path(__file__).resolve().parents[3]
NOW = datetime(2025, 3, 12, 15, 30, tzinfo=UTC).astimezone()
ENGLISH = QLocale(QLocale.Language.English, QLocale.Country.UnitedKingdom)
CHINESE = QLocale(QLocale.Language.Chinese, QLocale.Country.China)


def _i18n_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def language(
    request: pytest.FixtureRequest, qapp: QApplication, tmp_path: Path
) -> Iterator[QLocale]:
    """The window's translations of ``request.param`` ("en", "zh_CN") installed."""
    lang = request.param
    qm = tmp_path / f"window_{lang}.qm"
    lrelease = _i18n_script()._tool("lrelease")
    ts = ROOT / "translations" / f"window_{lang}.ts"
    subprocess.run([lrelease, "-silent", str(ts), "-qm", str(qm)], check=True)
    translator = QTranslator()
    assert translator.load(str(qm))
    QCoreApplication.installTranslator(translator)
    try:
        yield CHINESE if lang == "zh_CN" else ENGLISH
    finally:
        QCoreApplication.removeTranslator(translator)


@pytest.mark.parametrize("language", ["en"], indirect=True)
def test_english_counts_minutes_and_hours_in_words(language: QLocale) -> None:
    def ago(**delta: float) -> str:
        return relative_time(NOW - timedelta(**delta), NOW, language)

    assert ago(seconds=20) == "just now"
    assert relative_time(NOW + timedelta(seconds=5), NOW, language) == "just now"
    assert ago(minutes=1) == "1 minute ago"
    assert ago(minutes=3) == "3 minutes ago"
    if NOW.hour >= 2:
        assert ago(hours=1) == "1 hour ago"
    if NOW.hour >= 3:
        assert ago(hours=2, minutes=10) == "2 hours ago"
    assert relative_time((NOW - timedelta(days=1)).replace(hour=12), NOW, language) == "Yesterday"
    three_days = NOW - timedelta(days=3)
    assert relative_time(three_days, NOW, language) == three_days.strftime("%A")
    assert ago(days=40) == "31 Jan"
    assert ago(days=400) == "6 Feb 2024"


@pytest.mark.parametrize("language", ["zh_CN"], indirect=True)
def test_chinese_says_gang_gang_and_fen_zhong_qian(language: QLocale) -> None:
    def ago(**delta: float) -> str:
        return relative_time(NOW - timedelta(**delta), NOW, language)

    assert ago(seconds=20) == "刚刚"
    assert ago(minutes=1) == "1 分钟前"
    assert ago(minutes=3) == "3 分钟前"
    if NOW.hour >= 3:
        assert ago(hours=2, minutes=10) == "2 小时前"
    assert relative_time((NOW - timedelta(days=1)).replace(hour=12), NOW, language) == "昨天"
    assert ago(days=3) in {f"星期{d}" for d in "一二三四五六日"}
    assert ago(days=40) == "1月31日"
    assert ago(days=400) == "2024年2月6日"
