"""A conversation with every kind of block, to look at the pane (and screenshot it).

``python -m desktop_agent.ui.chat._demo [out_dir]`` renders the pane offscreen at 900×700
in both themes and saves ``chat_light.png`` and ``chat_dark.png``.
"""

from __future__ import annotations

import base64
import io
import math
import struct
import sys
import wave
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QColor, QImage, QImageWriter, QLinearGradient, QPainter
from PySide6.QtWidgets import QApplication

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat._view import ChatView

ANSWER = """Here is a summary of **the results**, with a table and some code.

### Findings

1. The parser handles *emphasis*, `inline code` and [links](https://example.com).
2. Tables render with borders:

| Model | Tokens/s | Notes |
|-------|---------:|-------|
| small | 950 | fast |
| large | 120 | ~~slow~~ accurate |

> Quoted text stands apart from the answer.

```python
def fibonacci(n: int) -> int:
    \"\"\"Return the n-th Fibonacci number.\"\"\"
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a
```

That's all — let me know if you want more detail."""


def demo_png(width: int = 320, height: int = 180) -> bytes:
    """A gradient PNG."""
    image = QImage(width, height, QImage.Format.Format_RGB32)
    painter = QPainter(image)
    gradient = QLinearGradient(0, 0, width, height)
    gradient.setColorAt(0, QColor("#4f8cff"))
    gradient.setColorAt(1, QColor("#f39c6b"))
    painter.fillRect(image.rect(), gradient)
    painter.setPen(QColor("white"))
    painter.drawText(image.rect(), Qt.AlignmentFlag.AlignCenter, "chart.png")
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    QImageWriter(buffer, QByteArray(b"png")).write(image)
    return bytes(data.data())


def demo_wav(seconds: float = 1.5, rate: int = 16000) -> bytes:
    """A mono 16-bit sine WAV."""
    out = io.BytesIO()
    with wave.open(out, "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(rate)
        frames = b"".join(
            struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * i / rate)))
            for i in range(int(seconds * rate))
        )
        handle.writeframes(frames)
    return out.getvalue()


def demo_messages() -> list[Msg]:
    """Messages covering every block type."""
    png = base64.b64encode(demo_png()).decode()
    wav = base64.b64encode(demo_wav()).decode()
    image: Any = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": png},
    }
    audio: Any = {
        "type": "audio",
        "source": {"type": "base64", "media_type": "audio/wav", "data": wav},
    }
    remote: Any = {
        "type": "image",
        "source": {"type": "url", "url": "https://example.com/plot.png"},
    }
    video: Any = {"type": "video", "source": {"type": "url", "url": "https://example.com/demo.mp4"}}
    return [
        Msg("user", [_text("Compare these models and plot the results.\nHere is my chart:"), image],
            "user"),
        Msg("Friday", [
            _thinking("The user wants a comparison. I should search first."),
            _text("Let me look that up."),
            _call("call_1", "web_search", {"query": "fastest tokenizers 2025", "max_results": 5}),
            _call("call_2", "read_file", {"path": "/tmp/missing.txt"}),
        ], "assistant"),
        _result("call_1", "web_search",
                [_text("1. tokenizers-rs — 950 tok/s\n2. tiktoken — 800 tok/s")]),
        _result("call_2", "read_file",
                "Error: [Errno 2] No such file or directory: '/tmp/missing.txt'"),
        Msg("Friday", [
            _thinking("Now summarise with a table and code."),
            _text(ANSWER), remote, audio, video,
        ], "assistant"),
    ]  # fmt: skip


def _text(text: str) -> Any:
    return {"type": "text", "text": text}


def _thinking(text: str) -> Any:
    return {"type": "thinking", "thinking": text}


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> Any:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def _result(call_id: str, name: str, output: Any) -> Msg:
    block: Any = {"type": "tool_result", "id": call_id, "name": name, "output": output}
    return Msg("system", [block], "system")


def _pump(app: QApplication, view: ChatView) -> None:
    for _ in range(20):
        app.processEvents()
    view.context.images.wait_for_done()
    view.flush()
    for _ in range(20):
        app.processEvents()


def _save(app: QApplication, view: ChatView, path: Path) -> None:
    _pump(app, view)
    view.grab().save(str(path))


def main(out_dir: str = "/tmp") -> None:
    """Render the demo in both themes (and mid-stream) and save PNGs to ``out_dir``."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    out = Path(out_dir)
    conversation = Conversation()
    conversation.reset(demo_messages())
    conversation.add_error("The server returned 429 Too Many Requests.", retryable=True)
    view = ChatView(conversation)
    view.resize(900, 700)
    view.show()
    for dark in (False, True):
        view.set_theme(dark)
        name = "chat_dark" if dark else "chat_light"
        view.list.scroll_to_bottom()
        _save(app, view, out / f"{name}.png")
        view.list.scroll_to_row(0)
        _save(app, view, out / f"{name}_top.png")
    view.set_theme(False)
    _stream_demo(conversation)
    view.list.scroll_to_bottom()
    _save(app, view, out / "chat_streaming.png")


def _stream_demo(conversation: Conversation) -> None:
    conversation.remove_errors()
    conversation.upsert(Msg("user", "And now the fastest one on my data?", "user"), last=True)
    reply = Msg("Friday", [
        _thinking("The user wants a benchmark on their data.\nI will run the script first, "
                  "then compare the timings with the earlier results."),
        _text("Running the benchmark now. Partial results:\n\n| run | tokens/s |\n|---|---|\n"
              "| 1 | 930 |\n\n```python\nfor run in range(3):\n    bench("),
        _call("call_9", "run_script", {"path": "bench.py", "args": ["--runs", "3"]}),
    ], "assistant")  # fmt: skip
    conversation.upsert(reply, last=False)
    conversation.upsert(_result("call_9", "run_script", "run 1: 930 tok/s\nrun 2: 9"), last=False)


if __name__ == "__main__":
    main(*sys.argv[1:2])
