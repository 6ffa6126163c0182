"""The Qt binding we ship must not corrupt CPython's reference counts.

PySide6 6.12.0 on CPython 3.11 drops a reference to ``None`` on every void-returning call
(and to ``True`` on ``Signal.emit``); the app then aborts with "none_dealloc" after a few
thousand calls. pyproject pins a version without the bug; this test keeps it that way.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot


class _Emitter(QObject):
    fired = Signal(bool)


def test_void_calls_and_emits_keep_singleton_refcounts(qtbot: QtBot) -> None:
    label = QLabel()
    qtbot.addWidget(label)
    emitter = _Emitter()
    emitter.fired.connect(lambda _value: None)
    timer = QTimer()
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(500):
        label.setText("x")
        timer.start(1000)
        timer.stop()
        emitter.fired.emit(True)
    # Other threads may hold a few references for a moment; a leak here would be -1000+.
    assert sys.getrefcount(None) - none_before > -50
    assert sys.getrefcount(True) - true_before > -50
