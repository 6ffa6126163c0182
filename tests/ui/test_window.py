"""The whole window on a qasync loop, talking to the loopback OpenAI-compatible server."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QPushButton
from pytestqt.qtbot import QtBot

from desktop_agent.app import LocalServer, TurnFailed, TurnFinished, TurnInterrupted
from desktop_agent.testing import OpenAICompatServer, ScriptedReply, ScriptedToolCall
from desktop_agent.ui.permissions import PermissionDialog
from desktop_agent.ui.settings import SettingsDialog
from desktop_agent.ui.window import DesktopApp

WaitSignal = Callable[..., Any]
WaitUntil = Callable[..., Any]
ENDINGS = (TurnFinished, TurnFailed, TurnInterrupted)


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(server: OpenAICompatServer) -> dict[str, str]:
    return {
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": "sk-window",
        "DESKTOP_AGENT_MODEL": "test-model",
    }


@pytest.fixture
async def desktop(qtbot: QtBot, server: OpenAICompatServer) -> AsyncIterator[DesktopApp]:
    app = DesktopApp(environ=_env(server), local_servers=[])
    qtbot.addWidget(app.window)
    await app.start()
    yield app
    await app.aclose()


def _turn_end(desktop: DesktopApp) -> asyncio.Future[Any]:
    """A future for the next event that ends a turn."""
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def on_event(event: object) -> None:
        if isinstance(event, ENDINGS) and not future.done():
            future.set_result(event)
            desktop.chat.turn_event.disconnect(on_event)

    desktop.chat.turn_event.connect(on_event)
    return future


def _shown_texts(desktop: DesktopApp) -> list[str]:
    """The text blocks the chat pane shows (visible rows)."""
    view = desktop.chat_view
    view.flush()
    texts = []
    for row in range(len(desktop.conversation.entries)):
        widget = view.list.row_widget(row)
        if widget is not None and hasattr(widget, "block_widgets"):
            texts += [block.plain_text() for block in widget.block_widgets("text")]
    return texts


def _send(qtbot: QtBot, desktop: DesktopApp, text: str) -> asyncio.Future[Any]:
    ended = _turn_end(desktop)
    qtbot.keyClicks(desktop.window.composer.input, text)
    qtbot.keyClick(desktop.window.composer.input, Qt.Key.Key_Return)
    return ended


async def test_no_provider_shows_first_run_panel_and_disables_send(
    qtbot: QtBot, wait_signal: WaitSignal
) -> None:
    desktop = DesktopApp(environ={}, local_servers=[LocalServer("Nobody", _closed_port())])
    qtbot.addWidget(desktop.window)
    assert await desktop.start() is None
    window = desktop.window
    assert window.first_run_shown and window.first_run.isVisible()
    assert not window.composer.send_button.isEnabled()
    qtbot.keyClicks(window.composer.input, "hello")
    qtbot.keyClick(window.composer.input, Qt.Key.Key_Return)
    assert desktop.conversation.entries == []
    assert window.status_line.model_label.text() == "No model"
    opened = wait_signal(desktop.settings.dialog_opened)
    qtbot.mouseClick(window.first_run.settings_button, Qt.MouseButton.LeftButton)
    (dialog,) = await opened
    assert isinstance(dialog, SettingsDialog) and dialog.isVisible()
    dialog.reject()
    await desktop.aclose()


async def test_local_server_on_injected_port_is_used(
    qtbot: QtBot, server: OpenAICompatServer
) -> None:
    desktop = DesktopApp(environ={}, local_servers=[LocalServer("Ollama", server.port)])
    qtbot.addWidget(desktop.window)
    provider = await desktop.start()
    assert provider is not None and provider.source == "local"
    assert not desktop.window.first_run_shown
    assert desktop.window.composer.send_button.isEnabled() is False  # nothing typed yet
    qtbot.keyClicks(desktop.window.composer.input, "x")
    assert desktop.window.composer.send_button.isEnabled()
    assert "test-model" in desktop.window.status_line.model_label.text()
    await desktop.aclose()


async def test_full_turn_streams_into_the_chat_and_shows_usage(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: WaitUntil
) -> None:
    answer = "Streaming **works**: " + " ".join(f"w{i}" for i in range(60))
    server.add_reply(
        ScriptedReply(
            answer,
            chunk_size=5,
            chunk_delay=0.01,
            usage={"prompt_tokens": 321, "completion_tokens": 45},
        )
    )
    ended = _send(qtbot, desktop, "hello window")
    assert desktop.window.composer.input.toPlainText() == ""
    await wait_until(lambda: desktop.window.composer.busy)
    assert desktop.window.composer.send_button.text() == "Stop"
    await wait_until(lambda: any("Streaming" in t for t in _shown_texts(desktop)))
    partial = _shown_texts(desktop)
    assert isinstance(await asyncio.wait_for(ended, 10), TurnFinished)
    assert not any("w59" in t for t in partial)  # the answer was shown before it was complete
    texts = _shown_texts(desktop)
    assert texts[0] == "hello window"
    assert "Streaming works:" in texts[-1] and "w59" in texts[-1]
    usage = desktop.window.status_line.usage_label.text()
    assert "321" in usage and "45" in usage
    assert desktop.window.status_line.state_label.text() == "Ready"
    assert desktop.window.composer.send_button.text() == "Send"


async def test_shift_enter_makes_a_newline_in_the_window(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer
) -> None:
    composer = desktop.window.composer
    qtbot.keyClicks(composer.input, "a")
    qtbot.keyClick(composer.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(composer.input, "b")
    assert composer.input.toPlainText() == "a\nb"
    assert desktop.conversation.entries == []
    ended = _turn_end(desktop)
    qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    await asyncio.wait_for(ended, 10)
    assert server.chat_requests[-1].messages[-1]["content"] == [{"type": "text", "text": "a\nb"}]


async def _stop_and_measure(
    qtbot: QtBot, desktop: DesktopApp, how: str, wait_until: WaitUntil, ended: asyncio.Future[Any]
) -> float:
    composer = desktop.window.composer
    started = time.perf_counter()
    if how == "button":
        qtbot.mouseClick(composer.send_button, Qt.MouseButton.LeftButton)
    else:
        qtbot.keyClick(desktop.chat_view, Qt.Key.Key_Escape)
    await wait_until(lambda: not composer.busy, timeout=2)
    elapsed = time.perf_counter() - started
    assert isinstance(await asyncio.wait_for(ended, 2), TurnInterrupted)
    assert composer.send_button.text() == "Send"
    assert desktop.window.status_line.state_label.text() == "Stopped"
    return elapsed


@pytest.mark.parametrize("how", ["button", "escape"])
async def test_stop_while_waiting_for_the_first_token(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: WaitUntil, how: str
) -> None:
    server.add_reply(ScriptedReply("too late", first_chunk_delay=30))
    ended = _send(qtbot, desktop, "anyone?")
    await server.wait_for_request()
    assert await _stop_and_measure(qtbot, desktop, how, wait_until, ended) < 0.1
    memory = await desktop.service.memory.get_memory()
    assert memory[0].get_text_content() == "anyone?"
    assert memory[-1].metadata.get("_is_interrupted")
    await _next_turn_works(qtbot, desktop, server)


async def _next_turn_works(qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer) -> None:
    """After a stop, the conversation goes on (the memory is consistent)."""
    server.add_reply(ScriptedReply("Back again."))
    assert isinstance(await asyncio.wait_for(_send(qtbot, desktop, "next"), 10), TurnFinished)
    assert _shown_texts(desktop)[-1] == "Back again."


@pytest.mark.parametrize("how", ["button", "escape"])
async def test_stop_mid_stream_keeps_the_partial_answer(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: WaitUntil, how: str
) -> None:
    server.add_reply(
        ScriptedReply(" ".join(f"part{i}" for i in range(500)), chunk_size=8, chunk_delay=0.01)
    )
    ended = _send(qtbot, desktop, "go on")
    await wait_until(lambda: any("part5" in t for t in _shown_texts(desktop)))
    assert await _stop_and_measure(qtbot, desktop, how, wait_until, ended) < 0.1
    shown = " ".join(_shown_texts(desktop))
    assert "part5" in shown and "part499" not in shown
    memory = await desktop.service.memory.get_memory()
    assert any("part5" in (m.get_text_content() or "") for m in memory)
    await _next_turn_works(qtbot, desktop, server)


async def test_message_sent_right_after_stop_is_not_lost(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: WaitUntil
) -> None:
    server.add_reply(ScriptedReply("slow", first_chunk_delay=30), ScriptedReply("Second answer."))
    _send(qtbot, desktop, "first")
    await server.wait_for_request()
    qtbot.keyClick(desktop.window.composer.input, Qt.Key.Key_Escape)
    assert not desktop.window.composer.busy  # idle at once
    ended = _send(qtbot, desktop, "second")  # typed before the agent finished stopping
    assert isinstance(await asyncio.wait_for(ended, 5), TurnInterrupted)
    finished = _turn_end(desktop)
    assert isinstance(await asyncio.wait_for(finished, 10), TurnFinished)
    assert _shown_texts(desktop)[-1] == "Second answer."


async def test_stop_while_a_tool_runs_after_allowing_it(
    qtbot: QtBot,
    desktop: DesktopApp,
    server: OpenAICompatServer,
    wait_until: WaitUntil,
    tmp_path: Path,
) -> None:
    marker = tmp_path / "tool-started"
    code = f"open({str(marker)!r}, 'w').close()\nimport time\ntime.sleep(30)"
    server.add_reply(
        ScriptedReply(tool_calls=[ScriptedToolCall("execute_python_code", {"code": code})])
    )
    dialogs: list[PermissionDialog] = []
    desktop.permissions.dialog_opened.connect(dialogs.append)
    ended = _send(qtbot, desktop, "run a long tool")
    await wait_until(lambda: bool(dialogs))
    assert "execute_python_code" in dialogs[0].findChild(type(dialogs[0].summary_label)).text()
    qtbot.mouseClick(dialogs[0].allow_once_button, Qt.MouseButton.LeftButton)
    await wait_until(marker.exists, timeout=15)
    assert await _stop_and_measure(qtbot, desktop, "button", wait_until, ended) < 0.1
    memory = await desktop.service.memory.get_memory()
    results = [
        b
        for m in memory
        if isinstance(m.content, list)
        for b in m.content
        if b.get("type") == "tool_result"
    ]
    assert results and "interrupted" in str(results[-1]["output"])


async def test_denied_tool_does_not_run(
    qtbot: QtBot,
    desktop: DesktopApp,
    server: OpenAICompatServer,
    wait_until: WaitUntil,
    tmp_path: Path,
) -> None:
    target = tmp_path / "should-not-exist.txt"
    call = ScriptedToolCall("write_text_file", {"path": str(target), "content": "x"})
    server.add_reply(ScriptedReply(tool_calls=[call]), ScriptedReply("Understood."))
    dialogs: list[PermissionDialog] = []
    desktop.permissions.dialog_opened.connect(dialogs.append)
    ended = _send(qtbot, desktop, "write a file")
    await wait_until(lambda: bool(dialogs))
    qtbot.mouseClick(dialogs[0].deny_button, Qt.MouseButton.LeftButton)
    assert isinstance(await asyncio.wait_for(ended, 10), TurnFinished)
    assert not target.exists()
    tool_messages = [m for m in server.chat_requests[-1].messages if m["role"] == "tool"]
    assert "PermissionDenied" in json.dumps(tool_messages)


async def test_attached_image_reaches_the_server_as_image_url(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, tmp_path: Path
) -> None:
    image = QImage(32, 32, QImage.Format.Format_RGB32)
    image.fill(QColor("green"))
    path = tmp_path / "green.png"
    assert image.save(str(path))
    composer = desktop.window.composer
    composer.add_files([path])
    assert len(composer.attachment_chips()) == 1
    ended = _send(qtbot, desktop, "describe this")
    assert composer.attachments() == []  # sent, so removed from the composer
    assert isinstance(await asyncio.wait_for(ended, 10), TurnFinished)
    parts = server.chat_requests[-1].messages[-1]["content"]
    image_parts = [p for p in parts if p["type"] == "image_url"]
    assert len(image_parts) == 1
    assert image_parts[0]["image_url"]["url"].startswith("data:image/png;base64,")
    assert {"type": "text", "text": "describe this"} in parts


@pytest.mark.parametrize(
    ("failure", "needle"),
    [
        (ScriptedReply.error(401, "Invalid key."), "HTTP 401"),
        (ScriptedReply.error(429, "Too many requests."), "HTTP 429"),
        (ScriptedReply.error(500, "Boom."), "HTTP 500"),
        (
            ScriptedReply("partial answer before the drop", chunk_size=4, drop_after_chunks=3),
            "mid-stream",
        ),
    ],
    ids=["401", "429", "500", "dropped"],
)
async def test_error_bubble_then_retry_succeeds(
    qtbot: QtBot,
    desktop: DesktopApp,
    server: OpenAICompatServer,
    wait_until: WaitUntil,
    failure: ScriptedReply,
    needle: str,
) -> None:
    server.add_reply(failure, ScriptedReply("Recovered answer."))
    failed = await asyncio.wait_for(_send(qtbot, desktop, "please"), 10)
    assert isinstance(failed, TurnFailed) and needle in failed.message
    retry = _retry_button(desktop)
    assert retry is not None and retry.isVisible()
    ended = _turn_end(desktop)
    qtbot.mouseClick(retry, Qt.MouseButton.LeftButton)
    assert isinstance(await asyncio.wait_for(ended, 10), TurnFinished)
    assert _retry_button(desktop) is None
    texts = _shown_texts(desktop)
    assert texts[0] == "please" and texts[-1] == "Recovered answer."
    memory = await desktop.service.memory.get_memory()
    assert [m.get_text_content() for m in memory] == ["please", "Recovered answer."]


async def test_connection_refused_shows_an_error_bubble(qtbot: QtBot) -> None:
    env = {"OPENAI_BASE_URL": f"http://127.0.0.1:{_closed_port()}/v1", "OPENAI_API_KEY": "k"}
    desktop = DesktopApp(environ=env, local_servers=[])
    qtbot.addWidget(desktop.window)
    await desktop.start()
    failed = await asyncio.wait_for(_send(qtbot, desktop, "hello?"), 10)
    assert isinstance(failed, TurnFailed) and "connection refused" in failed.message
    assert _retry_button(desktop) is not None
    assert desktop.window.status_line.state_label.text().startswith("Error")
    await desktop.aclose()


def _retry_button(desktop: DesktopApp) -> QPushButton | None:
    desktop.chat_view.flush()
    for button in desktop.chat_view.findChildren(QPushButton):
        if button.text() == "Retry" and button.isVisible():
            return button
    return None


async def test_settings_dialog_fetches_models_and_save_applies(
    qtbot: QtBot,
    server: OpenAICompatServer,
    wait_signal: WaitSignal,
    wait_until: WaitUntil,
    desktop_agent_home: Path,
) -> None:
    server.models = ["alpha", "beta"]
    desktop = DesktopApp(environ={}, local_servers=[])
    qtbot.addWidget(desktop.window)
    await desktop.start()
    assert desktop.window.first_run_shown
    dialog = desktop.settings.open_dialog()
    assert dialog.api_key.echoMode() == dialog.api_key.EchoMode.Password
    qtbot.mouseClick(dialog.show_key, Qt.MouseButton.LeftButton)
    assert dialog.api_key.echoMode() == dialog.api_key.EchoMode.Normal
    dialog.base_url.setText(server.base_url)
    dialog.api_key.setText("sk-dialog-secret")
    dialog.request_models()
    await wait_until(lambda: dialog.model.count() == 2)
    assert [dialog.model.itemText(i) for i in range(2)] == ["alpha", "beta"]
    assert server.requests[-1].headers["authorization"] == "Bearer sk-dialog-secret"
    dialog.model.setCurrentText("beta")
    dialog.theme.setCurrentIndex(1)
    resolved = wait_signal(desktop.settings.provider_changed)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    (provider,) = await resolved
    assert provider.source == "settings" and provider.model == "beta"
    assert not desktop.window.first_run_shown
    assert QApplication.instance().property("darkTheme") is True
    saved = json.loads((desktop_agent_home / "settings.json").read_text())
    assert saved["providers"][0]["api_key"] == "sk-dialog-secret" and saved["theme"] == "dark"
    ended = _send(qtbot, desktop, "hi")
    assert isinstance(await asyncio.wait_for(ended, 10), TurnFinished)
    assert server.chat_requests[-1].body["model"] == "beta"
    desktop.settings.apply(desktop.settings.settings.model_copy(update={"theme": "light"}))
    await desktop.aclose()


async def test_settings_dialog_says_when_models_cannot_be_listed(
    qtbot: QtBot, desktop: DesktopApp, wait_until: WaitUntil
) -> None:
    dialog = desktop.settings.open_dialog()
    dialog.base_url.setText(f"http://127.0.0.1:{_closed_port()}/v1")
    dialog.request_models()
    await wait_until(lambda: "unavailable" in dialog.models_status.text())
    dialog.reject()


async def test_malformed_settings_file_shows_a_banner(
    qtbot: QtBot, desktop_agent_home: Path
) -> None:
    (desktop_agent_home / "settings.json").write_text("{ broken")
    desktop = DesktopApp(environ={}, local_servers=[])
    qtbot.addWidget(desktop.window)
    await desktop.start()
    assert desktop.window.banner.isVisible()
    assert "kept as settings.json.bad-" in desktop.window.banner.label.text()
    await desktop.aclose()


async def test_new_chat_starts_over(
    qtbot: QtBot, desktop: DesktopApp, server: OpenAICompatServer, wait_until: WaitUntil
) -> None:
    await asyncio.wait_for(_send(qtbot, desktop, "first"), 10)
    qtbot.mouseClick(desktop.window.sidebar.new_chat_button, Qt.MouseButton.LeftButton)
    await wait_until(lambda: len(desktop.conversation.entries) == 0)
    assert desktop.window.status_line.usage_label.text() == ""
    await asyncio.wait_for(_send(qtbot, desktop, "second"), 10)
    assert [m["role"] for m in server.chat_requests[-1].messages] == ["system", "user"]


async def test_a_first_paint_while_the_app_closes_starts_no_library_task(
    qtbot: QtBot, server: OpenAICompatServer
) -> None:
    # The window can be painted for the first time during aclose(); the session library
    # must not start then (its task would outlive the app and fail without a loop).
    desktop = DesktopApp(environ=_env(server), local_servers=[])
    qtbot.addWidget(desktop.window)
    await desktop.aclose()  # before the window was ever painted (a loaded machine)
    desktop.window.first_painted.emit()
    assert len(desktop.sessions._tasks) == 0
