"""``desktop-agent --self-check``: does this installation start, render and find its files?

Made for packaged builds and installed wheels, where a missing Qt plugin or data file only
shows when the app runs (``QT_QPA_PLATFORM=offscreen dist/desktop-agent/desktop-agent
--self-check``). On the app's qasync loop it opens the main window around a chat pane of
its own (no provider, no session library, no settings: nothing is read from or written to
the user's folders, and ``DESKTOP_AGENT_HOME`` points to a temporary folder meanwhile),
shows a conversation with one message of each block type and waits until each has
rendered: the Markdown and its code block laid out, the image decoded, the audio's duration
read through the FFmpeg backend of QtMultimedia. It also asks Qt for its TLS backend
(remote images), validates the default context template, loads the compiled Chinese
translation and Qt's own, finds the IBus input-method plugin (Linux), and imports the agent
core (``openai`` included).
Nothing is fetched: the only URL, the video's, is a placeholder that is never opened.

One line per check goes to stdout; the exit code is 0 only if every check passed.
"""

from __future__ import annotations

import asyncio
import base64
import io
import math
import os
import re
import struct
import sys
import tempfile
import time
import wave
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QIODevice,
    QLibraryInfo,
    QLocale,
    QTranslator,
    qVersion,
)
from PySide6.QtGui import QColor, QImage, QImageWriter
from PySide6.QtWidgets import QApplication

from desktop_agent._resources import resources_root
from desktop_agent._version import __version__
from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui._i18n import translations_dir
from desktop_agent.ui._qt_async import AppEventLoop
from desktop_agent.ui.app import ICON_SIZES, describe_application
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.window import MainWindow

HOME_ENV = "DESKTOP_AGENT_HOME"
WAIT_S = 20.0
"""How long one check may wait for the window to paint or a medium to load."""
IMAGE_SIZE = (96, 64)
AUDIO_MS = 600
ERROR_TEXT = "Self-check: an error bubble with Retry."
CODE_LINE = "def fibonacci(n: int) -> int:"
MARKDOWN = f"""### Self-check

A list, *emphasis* and `inline code`:

1. first
2. second

```python
{CODE_LINE}
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a
```
"""
THINKING = "The user wants every kind of block."
TOOL_OUTPUT = "3 files found"

# Rows of the conversation the check shows.
USER_ROW, ANSWER_ROW, RESULT_ROW, MEDIA_ROW, ERROR_ROW = range(5)


class SelfCheckFailed(Exception):
    """A check found something wrong; the message says what."""


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check."""

    name: str
    ok: bool
    detail: str


@dataclass
class SelfCheckReport:
    """Every check's outcome, in order."""

    results: list[CheckResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Whether there were checks and all of them passed."""
        return bool(self.results) and all(result.ok for result in self.results)

    def lines(self) -> list[str]:
        """The report as printed: a heading, one line per check, a verdict."""
        mode = "frozen" if getattr(sys, "frozen", False) else "Python"
        app = QApplication.instance()
        platform = app.platformName() if isinstance(app, QApplication) else "?"
        lines = [
            f"desktop-agent {__version__} self-check · Qt {qVersion()} · "
            f"platform {platform} · {mode}",
            f"  resources: {resources_root()}",
        ]
        for result in self.results:
            mark = "ok  " if result.ok else "FAIL"
            lines.append(f"  {mark}  {result.name:<12} {result.detail}")
        verdict = "passed" if self.ok else "FAILED"
        lines.append(f"self-check {verdict}: {len(self.results)} checks in {self.seconds:.1f} s")
        return lines


def run_self_check(out: TextIO | None = None) -> int:
    """Run every check, print the report to ``out`` (stdout) and return the exit code."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    describe_application(app)
    started = time.monotonic()
    with _isolated_home(), asyncio.Runner(loop_factory=AppEventLoop) as runner:
        report = runner.run(_check_all())
    report.seconds = time.monotonic() - started
    print("\n".join(report.lines()), file=out or sys.stdout, flush=True)
    return 0 if report.ok else 1


@contextmanager
def _isolated_home() -> Iterator[Path]:
    """A temporary data folder, so the check never reads or writes the user's data."""
    previous = os.environ.get(HOME_ENV)
    with tempfile.TemporaryDirectory(prefix="desktop-agent-self-check-") as home:
        os.environ[HOME_ENV] = home
        try:
            yield Path(home)
        finally:
            if previous is None:
                os.environ.pop(HOME_ENV, None)
            else:
                os.environ[HOME_ENV] = previous


async def _check_all() -> SelfCheckReport:
    report = SelfCheckReport()
    conversation = Conversation()
    view = ChatView(conversation)
    window = MainWindow(view)
    try:
        painted = _first_paint(window)
        window.show()
        window.show_first_run(False)
        conversation.reset(sample_messages())
        conversation.add_error(ERROR_TEXT, retryable=True)
        checks: list[tuple[str, Callable[[], Awaitable[str]]]] = [
            ("window", lambda: _check_window(window, painted)),
            ("icon", _check_icon),
            ("text", lambda: _check_text(view)),
            ("thinking", lambda: _check_thinking(view)),
            ("tool_use", lambda: _check_tool_use(view)),
            ("tool_result", lambda: _check_tool_result(view)),
            ("image", lambda: _check_image(view)),
            ("audio", lambda: _check_audio(view)),
            ("video", lambda: _check_video(view)),
            ("error", lambda: _check_error(view)),
            ("tls", _check_tls),
            ("template", _check_template),
            ("translations", _check_translations),
            ("input", _check_input_methods),
            ("agent core", _check_agent_core),
        ]
        for name, check in checks:
            report.results.append(await _run_check(name, check))
    finally:
        window.hide()
        window.deleteLater()
    return report


async def _run_check(name: str, check: Callable[[], Awaitable[str]]) -> CheckResult:
    try:
        return CheckResult(name, True, await check())
    except Exception as exc:  # every failure is reported, none stops the other checks
        detail = str(exc) if isinstance(exc, SelfCheckFailed) else f"{type(exc).__name__}: {exc}"
        return CheckResult(name, False, detail)


# -- the conversation ------------------------------------------------------------------


def sample_messages() -> list[Msg]:
    """One message of each block type (rows ``USER_ROW`` … ``MEDIA_ROW``)."""
    image: Any = {"type": "image", "source": _base64_source("image/png", sample_png())}
    audio: Any = {"type": "audio", "source": _base64_source("audio/wav", sample_wav())}
    video: Any = {"type": "video", "source": {"type": "url", "url": "https://example.com/a.mp4"}}
    call: Any = {"type": "tool_use", "id": "call_1", "name": "find_files", "input": {"glob": "*"}}
    result: Any = {
        "type": "tool_result",
        "id": "call_1",
        "name": "find_files",
        "output": TOOL_OUTPUT,
    }
    return [
        Msg("user", [{"type": "text", "text": "Show every kind of block."}, image], "user"),
        Msg(
            "Assistant",
            [
                {"type": "thinking", "thinking": THINKING},
                {"type": "text", "text": MARKDOWN},
                call,
            ],
            "assistant",
        ),
        Msg("system", [result], "system"),
        Msg("Assistant", [audio, video], "assistant"),
    ]


def _base64_source(media_type: str, data: bytes) -> dict[str, str]:
    return {"type": "base64", "media_type": media_type, "data": base64.b64encode(data).decode()}


def sample_png() -> bytes:
    """A small two-colour PNG of ``IMAGE_SIZE``."""
    width, height = IMAGE_SIZE
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("#4f8cff"))
    for x in range(width // 2, width):
        for y in range(height):
            image.setPixelColor(x, y, QColor("#f39c6b"))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    QImageWriter(buffer, QByteArray(b"png")).write(image)
    return bytes(data.data())


def sample_wav(rate: int = 8000) -> bytes:
    """A mono 16-bit sine WAV lasting ``AUDIO_MS``."""
    frames = b"".join(
        struct.pack("<h", int(6000 * math.sin(2 * math.pi * 440 * i / rate)))
        for i in range(rate * AUDIO_MS // 1000)
    )
    out = io.BytesIO()
    with wave.open(out, "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(rate)
        handle.writeframes(frames)
    return out.getvalue()


# -- waiting ---------------------------------------------------------------------------


def _first_paint(window: MainWindow) -> asyncio.Future[None]:
    painted: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_painted() -> None:
        if not painted.done():
            painted.set_result(None)

    window.first_painted.connect(on_painted)
    return painted


async def _row(view: ChatView, index: int, ready: Callable[[Any], bool] = bool) -> Any:
    """The row widget at ``index`` once ``ready(widget)`` holds (scrolled into view)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while True:
        view.list.scroll_to_row(index)
        view.flush()
        widget = view.list.row_widget(index)
        if widget is not None and ready(widget):
            return widget
        if loop.time() >= deadline:
            raise SelfCheckFailed(f"row {index} was not ready after {WAIT_S:.0f} s")
        await asyncio.sleep(0.02)


def _block(row: Any, kind: str) -> Any:
    blocks = row.block_widgets(kind)
    if not blocks:
        raise SelfCheckFailed(f"no {kind} block is shown")
    return blocks[0]


def _expect(condition: bool, failure: str) -> None:
    if not condition:
        raise SelfCheckFailed(failure)


# -- the checks ------------------------------------------------------------------------


async def _check_window(window: MainWindow, painted: asyncio.Future[None]) -> str:
    try:
        await asyncio.wait_for(asyncio.shield(painted), WAIT_S)
    except TimeoutError:
        raise SelfCheckFailed(f"the window did not paint within {WAIT_S:.0f} s") from None
    size = window.size()
    return f"shown and painted, {size.width()}×{size.height()}"


async def _check_icon() -> str:
    icon = QApplication.windowIcon()
    sizes = sorted({size.width() for size in icon.availableSizes()})
    missing = sorted(set(ICON_SIZES) - set(sizes))
    _expect(not missing, f"no icon of {missing} px (found {sizes})")
    _expect(not icon.pixmap(32, 32).isNull(), "the 32 px icon does not load")
    return f"{len(sizes)} sizes, {sizes[0]}–{sizes[-1]} px"


async def _check_text(view: ChatView) -> str:
    text = _block(await _row(view, ANSWER_ROW), "text")
    documents = text.documents()
    _expect(bool(documents), "the Markdown rendered no document")
    _expect(CODE_LINE in text.plain_text(), "the code block is missing from the text")
    return f"Markdown with a code block, {len(documents)} document(s)"


async def _check_thinking(view: ChatView) -> str:
    thinking = _block(await _row(view, ANSWER_ROW), "thinking")
    _expect(THINKING in thinking.body.plain_text(), "the reasoning text is missing")
    return "collapsed" if not thinking.expanded else "expanded"


async def _check_tool_use(view: ChatView) -> str:
    card = _block(await _row(view, ANSWER_ROW), "tool_use")
    _expect('"glob"' in card.arguments_text, "the arguments are not shown")
    return "card with arguments"


async def _check_tool_result(view: ChatView) -> str:
    card = _block(await _row(view, RESULT_ROW), "tool_result")
    _expect(TOOL_OUTPUT in card.output_text(), "the output is not shown")
    return "card with output"


def _image_settled(row: Any) -> bool:
    return bool(_block(row, "image").state in ("image", "error"))


async def _check_image(view: ChatView) -> str:
    image = _block(await _row(view, USER_ROW, _image_settled), "image")
    _expect(image.state == "image", f"not decoded: {image.caption.text()}")
    size = image.decoded_size
    _expect((size.width(), size.height()) == IMAGE_SIZE, f"decoded at {size.toTuple()}")
    return f"PNG decoded, {size.width()}×{size.height()}"


def _audio_settled(row: Any) -> bool:
    audio = _block(row, "audio")
    return bool(audio.state in ("error", "unavailable") or audio.duration_ms > 0)


async def _check_audio(view: ChatView) -> str:
    try:
        audio = _block(await _row(view, MEDIA_ROW, _audio_settled), "audio")
    except SelfCheckFailed:
        state = _block(await _row(view, MEDIA_ROW), "audio").state
        raise SelfCheckFailed(
            f"no duration after {WAIT_S:.0f} s (state {state!r}): "
            "is the FFmpeg multimedia plugin missing?"
        ) from None
    _expect(audio.state not in ("error", "unavailable"), audio.caption.text())
    _expect(abs(audio.duration_ms - AUDIO_MS) < 100, f"duration {audio.duration_ms} ms")
    return f"WAV loaded by QtMultimedia, {audio.duration_ms} ms"


async def _check_video(view: ChatView) -> str:
    video = _block(await _row(view, MEDIA_ROW), "video")
    _expect(video.caption.text().startswith("Video"), "the placeholder has no caption")
    return "placeholder (not opened)"


async def _check_error(view: ChatView) -> str:
    row = await _row(view, ERROR_ROW)
    _expect(row.text_label.text() == ERROR_TEXT, "the error text is not shown")
    _expect(not row.retry_button.isHidden(), "the Retry button is hidden")
    return "bubble with Retry"


async def _check_tls() -> str:
    from PySide6.QtNetwork import QSslSocket  # for remote images (QNetworkAccessManager)

    _expect(QSslSocket.supportsSsl(), f"no TLS backend (found {QSslSocket.availableBackends()})")
    return f"{QSslSocket.activeBackend()} backend, {QSslSocket.sslLibraryVersionString()}"


async def _check_template() -> str:
    from desktop_agent.context import InputModule  # as the app: after first paint

    path = InputModule.default_config_path()
    config = InputModule().validate_config(path)
    return f"{len(config.context_template)} modules in {path.name}, valid"


async def _check_translations() -> str:
    """The app's compiled languages load, and Qt's own for Chinese (standard buttons)."""
    folder = translations_dir()
    found = sorted(p.stem.removeprefix("desktop_agent_") for p in folder.glob("desktop_agent_*.qm"))
    _expect("zh_CN" in found, f"no desktop_agent_zh_CN.qm in {folder} (scripts/i18n.py release)")
    ours, qt = QTranslator(), QTranslator()
    _expect(ours.load(str(folder / "desktop_agent_zh_CN.qm")), "desktop_agent_zh_CN.qm is bad")
    _expect(not ours.isEmpty(), "desktop_agent_zh_CN.qm has no translations")
    qt_folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    loaded = qt.load(QLocale("zh_CN"), "qtbase", "_", qt_folder)
    _expect(loaded, f"no qtbase_zh_CN.qm in {qt_folder}")
    return f"{', '.join(found)}, and Qt's own for zh_CN"


async def _check_input_methods() -> str:
    """Qt's IBus input-context plugin (fcitx5 speaks IBus too), for Chinese/Japanese typing."""
    if not sys.platform.startswith("linux"):
        return "the system's (not a Linux plugin)"
    folders = [Path(p) / "platforminputcontexts" for p in QCoreApplication.libraryPaths()]
    plugins = sorted({f.name for folder in folders if folder.is_dir() for f in folder.iterdir()})
    _expect(any("ibus" in name for name in plugins), f"no IBus plugin in {folders}")
    names = (re.sub(r"^lib|(platforminputcontext)?plugin\.\w+$", "", p) for p in plugins)
    return "input methods: " + ", ".join(names)


async def _check_agent_core() -> str:
    from desktop_agent.app import preload_agent_core  # as the app: after first paint

    await preload_agent_core()
    import openai  # as the app: after first paint

    return f"imports (openai {openai.__version__})"
