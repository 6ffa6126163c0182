"""Async tests in this folder run on a qasync loop (the GUI's loop in the app).

They show the loopback server and the model stream work when the asyncio loop is Qt's
event loop in the main thread, as in the UI tests (see tests/ui/conftest.py).
"""

from __future__ import annotations

from typing import Any

import PySide6  # noqa: F401  (before qasync, so qasync binds to PySide6)
import pytest
import qasync
from PySide6.QtWidgets import QApplication


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> Any:
    return {"qasync": _qasync_loop}


def _qasync_loop() -> qasync.QEventLoop:
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    app.setQuitOnLastWindowClosed(False)
    return qasync.QEventLoop(app)
