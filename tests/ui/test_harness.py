"""The qasync harness itself: sync qtbot tests with ``qloop``, async tests on qasync."""

from __future__ import annotations

import asyncio
from pathlib import Path

import qasync
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from desktop_agent.ui.composer import Composer


def test_qloop_runs_tasks_while_qtbot_waits(qtbot: QtBot, qloop: qasync.QEventLoop) -> None:
    done: list[bool] = []

    async def work() -> None:
        await asyncio.sleep(0.01)
        done.append(True)

    task = qloop.create_task(work())
    qtbot.waitUntil(lambda: bool(done), timeout=2000)
    assert task.done()


def test_thumbnail_is_decoded_off_the_gui_thread_under_qloop(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    image = QImage(800, 600, QImage.Format.Format_RGB32)
    image.fill(QColor("navy"))
    path = tmp_path / "big.png"
    assert image.save(str(path))
    composer = Composer()
    qtbot.addWidget(composer)
    composer.add_files([path])
    chip = composer.attachment_chips()[0]
    qtbot.waitUntil(lambda: not chip.preview.pixmap().isNull(), timeout=3000)
    assert chip.preview.pixmap().width() <= 40


async def test_async_tests_here_run_on_qasync() -> None:
    assert isinstance(asyncio.get_running_loop(), qasync.QEventLoop)
